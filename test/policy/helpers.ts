/** Policy tests: policy files in a temporary folder, and plans made of hand-written steps. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { emptyPlan, type Plan, type Step } from '../../src/model/plan.js';
import { step } from '../engine/helpers.js';

export function tempDir(prefix: string): { dir: string; write(rel: string, text: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(rel, text) {
      const file = join(dir, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const KIND_NAMES = ['Organization', 'Members', 'Team', 'Site', 'SamlProvider', 'Space', 'Collection'];

/** A step of `kind` on `key` with before/after; `line` puts it at manifests/x.yaml:LINE:3. */
export function change(
  kind: string,
  key: string,
  action: Step['action'],
  fields: {
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
    line?: number;
    phase?: Step['phase'];
  } = {},
): Step {
  return step({
    id: `${kind}/org-demo/${key}#${action}`,
    kind,
    org: 'org-demo',
    key,
    action,
    phase: fields.phase ?? action,
    before: fields.before === undefined ? (action === 'create' ? null : {}) : fields.before,
    after: fields.after === undefined ? (action === 'delete' ? null : {}) : fields.after,
    ...(fields.line !== undefined ? { source: { file: 'manifests/x.yaml', line: fields.line, column: 3 } } : {}),
  });
}

export function planOf(...steps: Step[]): Plan {
  return { ...emptyPlan(), steps };
}
