/**
 * The workspace's borders hold by lint (eslint.config.js, docs/dev/architecture.md "The workspace"): the sandbox
 * and api-shared import nothing of docops, and docops's src/ reaches them only through their package entries.
 * Each case lints a line of code as if it stood in that file (nothing is written).
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from '../daemon/build.js';

const eslint = new ESLint({ cwd: REPO });

async function refused(file: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport { x };\n`, { filePath: `${REPO}/${file}` });
  return result!.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

describe('the workspace borders', () => {
  it.each([
    ['packages/sandbox/src/store.ts', "import { x } from '../../../src/core/plan.js';"],
    ['packages/sandbox/src/routes/teams.ts', "import { x } from '../../../../src/api/limits.js';"],
    ['packages/sandbox/src/routes/teams.ts', "import { x } from '../../../api-shared/src/limits.js';"],
    ['packages/sandbox/src/store.ts', "import { x } from '#src/core/plan.js';"],
    ['packages/sandbox/src/store.ts', "import { x } from 'docops/package.json';"],
    ['packages/sandbox/src/store.ts', "import { x } from '@docops/api-shared/src/limits.js';"],
    ['packages/api-shared/src/limits.ts', "import { x } from '../../sandbox/src/store.js';"],
    ['packages/api-shared/src/limits.ts', "import { x } from '@docops/sandbox/records';"],
    ['src/daemon/connect.ts', "import { x } from '../../packages/sandbox/src/index.js';"],
    ['src/daemon/connect.ts', "import { x } from '@docops/sandbox/records';"],
    ['src/cli/commands/sandbox.ts', "import { x } from '@docops/sandbox/src/cli.js';"],
    ['src/cli/run.ts', "import { x } from '../../tools/build/bundle-cli.js';"],
  ])('refuses in %s: %s', async (file, code) => {
    expect(await refused(file, code)).toBe(true);
  });

  it.each([
    ['packages/sandbox/src/store.ts', "import { x } from './records.js';"],
    ['packages/sandbox/src/routes/teams.ts', "import { x } from '../records.js';"],
    ['packages/sandbox/src/router.ts', "import { x } from '@docops/api-shared';"],
    ['src/daemon/connect.ts', "import { x } from '@docops/sandbox';"],
    ['src/cli/commands/sandbox.ts', "import { x } from '@docops/sandbox/cli';"],
    ['src/kinds/openapi/kind.ts', "import { x } from '@docops/api-shared';"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await refused(file, code)).toBe(false);
  });
});
