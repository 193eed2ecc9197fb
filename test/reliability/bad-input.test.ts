/**
 * Bad input never reaches the API: every case of the corpus (test/fixtures/bad/) and a few generated monsters
 * make `validate` and `plan` exit 1 with their specific `file:line:column: message`, and `plan` sends ZERO
 * requests (a counting sandbox stands behind --api-url). Daemon configs fail loadConfig the same way.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/model/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runCliCollecting } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';
import { CONFIG_CASES, MANIFEST_CASES } from './bad-input-cases.js';

const MANIFESTS = 'test/fixtures/bad/manifests';
const CONFIGS = 'test/fixtures/bad/config';
const TOKEN = 'tok-SECRET-bad-input-7f3e';
const HEADER = 'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\n';

let sandbox: RunningSandbox;
let generated: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', token: TOKEN });
  generated = tempDir('bad-generated');
  // Generated at test time rather than committed: megabytes and pathological nesting.
  const big = HEADER + 'spec:\n  title: Big\n  members:\n' + '    - email: someone@acme.test\n'.repeat(90_000);
  writeFileSync(join(generated, 'huge.yaml'), big);
  writeFileSync(join(generated, 'long-line.yaml'), HEADER + 'spec:\n  title: ' + 'x'.repeat(1_900_000) + '\n');
  writeFileSync(
    join(generated, 'deep-nesting.yaml'),
    HEADER + 'spec:\n  title: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n',
  );
  const bomb = [
    'x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from({ length: 12 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`),
  ];
  writeFileSync(join(generated, 'alias-bomb.yaml'), HEADER + bomb.join('\n') + '\nspec:\n  title: *a12\n');
  const docs = Array.from(
    { length: 500 },
    (_, i) => HEADER + `spec:\n  title: T${i}\n  members:\n    - email: a${i}@acme.test\n      role: boss\n`,
  );
  writeFileSync(join(generated, 'many-errors.yaml'), docs.join('---\n'));
});
afterAll(async () => {
  await sandbox.close();
});

/** validate, then plan against the counting sandbox: both exit 1 with `expected`, and the API saw nothing. */
async function expectRejected(path: string, expected: string | RegExp, args: string[] = []): Promise<void> {
  const validate = await runCliCollecting(['validate', '-m', path, ...args], {}, [TOKEN]);
  expect(validate.code, validate.stderr).toBe(1);
  if (typeof expected === 'string') expect(validate.stderr).toContain(expected);
  else expect(validate.stderr).toMatch(expected);

  const plan = await runCliCollecting(
    ['plan', '-m', path, '--api-url', sandbox.url, ...args],
    { DOCOPS_TOKEN: TOKEN },
    [TOKEN],
  );
  expect(plan.code, plan.stderr).toBe(1);
  if (typeof expected === 'string') expect(plan.stderr).toContain(expected);
  else expect(plan.stderr).toMatch(expected);
  expect(plan.stdout).toBe('');
  expect(sandbox.stats().total, 'plan sent requests for invalid manifests').toBe(0);
  expect([...validate.leaks(), ...plan.leaks()]).toEqual([]);
}

describe('bad manifests: exit 1, the specific message, no request', () => {
  it('the corpus has at least 60 manifest cases and every fixture belongs to one', () => {
    expect(MANIFEST_CASES.length).toBeGreaterThanOrEqual(60);
    const covered = new Set(MANIFEST_CASES.map((c) => c.path));
    expect(readdirSync(MANIFESTS).filter((name) => !covered.has(name))).toEqual([]);
    expect(readdirSync(CONFIGS).filter((name) => !CONFIG_CASES.some((c) => c.path === name))).toEqual([]);
  });

  it.each(MANIFEST_CASES)('$path', async ({ path, expected, args }) => {
    await expectRejected(`${MANIFESTS}/${path}`, `${MANIFESTS}/${expected}`, args);
  });

  it.each([
    ['huge.yaml', /huge\.yaml:1:1: file is too large \(\d+ bytes; the limit is 2 MiB\): split it into several files/],
    ['long-line.yaml', /long-line\.yaml:6:10: spec\.title: must be at most 64 characters \(got 1900000\)/],
    ['deep-nesting.yaml', /deep-nesting\.yaml:6:\d+: nesting too deep: the YAML parser ran out of stack here/],
    ['alias-bomb.yaml', /alias-bomb\.yaml:1:1: document expands aliases too many times \(possible alias bomb\)/],
    [
      'many-errors.yaml',
      /500 validation errors:[\s\S]*many-errors\.yaml:4999:13: spec\.members\[0\]\.role: must be one of owner, member \(got "boss"\)/,
    ],
  ])('generated %s', async (name, expected) => {
    await expectRejected(join(generated, name), expected);
  });

  it('a whole directory of bad files reports every case at once and still sends nothing', async () => {
    const run = await runCliCollecting(['plan', '-m', MANIFESTS, '--api-url', sandbox.url], { DOCOPS_TOKEN: TOKEN }, [
      TOKEN,
    ]);
    expect(run.code).toBe(1);
    for (const c of MANIFEST_CASES) if (!c.args) expect(run.stderr).toContain(`${MANIFESTS}/${c.expected}`);
    expect(sandbox.stats().total).toBe(0);
  });
});

describe('bad daemon configs (docops.yaml): rejected with file:line:column', () => {
  it('has a case per fixture', () => {
    expect(CONFIG_CASES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CONFIG_CASES)('$path', async ({ path, expected }) => {
    const error = await loadConfig(`${CONFIGS}/${path}`, { env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain(`${CONFIGS}/${expected}`);
  });

  it('never echoes the reconcile secret it rejects', async () => {
    const error = (await loadConfig(`${CONFIGS}/reconcile-secret-short.yaml`, { env: {} }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).not.toContain('hunter2');
  });
});
