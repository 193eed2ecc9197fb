/**
 * A reference for the CPU benchmark: the least work any validate + diff of the members alone has to do, done
 * with nothing but the obvious structures, cold (as one `docops plan` run is). For N members: one call of the
 * Members schema validator docops uses, one entry object (with its normalised spec) per member, one map of
 * desired keys (duplicates), one map of live keys, one comparison per member. What docops does beyond this
 * is its own cost; what this costs is the runtime's, and it bounds how far below it the target can be met.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { KindDefinition } from '#src/model/kind.js';
import { compileSchema } from '#src/manifests/schema.js';

export interface FloorMeasure {
  members: number;
  /** user + system CPU of the measured part. */
  cpuMs: number;
  wallMs: number;
  /** Members whose role differs (the generated lists agree: 0; computed so nothing is optimised away). */
  differing: number;
}

interface Entry {
  kind: string;
  org: string;
  key: string;
  spec: { email: string; role: string };
  index: number;
}

export function measureFloor(members: number, membersKind: KindDefinition): FloorMeasure {
  // Unmeasured: the inputs (as parsed manifests and fetched lists would be) and the validator.
  const desired = Array.from({ length: members }, (_, i) => ({
    email: `User${i}@example.test`,
    role: i % 50 === 0 ? 'admin' : 'read',
  }));
  const live = Array.from({ length: members }, (_, i) => ({
    key: `user${i}@example.test`,
    id: `u${i}`,
    fields: { role: i % 50 === 0 ? 'admin' : 'read' },
  }));
  const validate = freshValidator(membersKind);

  const t = performance.now();
  const start = process.cpuUsage();
  if (!validate({ members: desired })) throw new Error('floor: generated members do not match the Members schema');
  const entries: Entry[] = new Array<Entry>(desired.length);
  for (let i = 0; i < desired.length; i++) {
    const m = desired[i]!;
    entries[i] = {
      kind: 'Members',
      org: 'org',
      key: m.email.toLowerCase(),
      spec: { email: m.email, role: m.role },
      index: i,
    };
  }
  const seen = new Map<string, Entry>();
  for (const e of entries) {
    if (seen.has(e.key)) throw new Error(`floor: duplicate ${e.key}`);
    seen.set(e.key, e);
  }
  const byKey = new Map<string, number>();
  for (let i = 0; i < live.length; i++) byKey.set(live[i]!.key, i);
  let differing = 0;
  for (const e of entries) {
    const i = byKey.get(e.key);
    if (i === undefined || live[i]!.fields.role !== e.spec.role) differing++;
  }
  const d = process.cpuUsage(start);
  return { members, cpuMs: (d.user + d.system) / 1000, wallMs: performance.now() - t, differing };
}

/**
 * A validator of the kind's schema that shares no compiled state with the one docops validates with, so the
 * floor and docops can run in one process and both stay cold: the build's generated module (dist/) loaded as a
 * new instance and dropped from the require cache again (docops then loads its own), else (tests run from
 * the sources) a run-time compile of a copy of the schema.
 */
function freshValidator(kind: KindDefinition): ValidateFunction {
  // Built (dist-tools/bench/*.js), the benchmark runs docops's build (dist/) and its validators.
  const built = import.meta.url.endsWith('.js');
  const file = fileURLToPath(
    new URL(`../../dist/manifests/validators/${kind.kind.toLowerCase()}.cjs`, import.meta.url),
  );
  if (!built || !existsSync(file)) return compileSchema(structuredClone(kind.schema), new Map());
  const load = createRequire(import.meta.url);
  delete load.cache[file];
  const validate = load(file) as ValidateFunction;
  delete load.cache[file];
  return validate;
}
