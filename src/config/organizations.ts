/**
 * `organizations:` and `shard:` of docops.yaml (docs/daemon.md, "Many organizations", "Shards"): one daemon
 * reconciling several organizations, each on its own, and the shards that spread them over several daemons.
 * The schema checks the shapes; this module checks what it cannot (unique ids, directories that do not contain
 * one another, cron expressions, shard bounds) and turns the entries into configs of their own.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { SourcePos, ValidationIssue } from '../model/errors.js';
import type { Env } from '../manifests/interpolate.js';
import { notifyTargets, type NotifyTarget } from './notify.js';
import { isRecord } from '../model/json.js';

export interface OrgConfig {
  /** The organization's id, as its manifests name it. */
  id: string;
  /** Absolute manifests directory. */
  manifestsDir: string;
  /** Absolute path of its token file … */
  tokenFile?: string;
  /** … or the environment variable holding its token. */
  tokenEnv?: string;
  schedule?: string;
  prune?: Record<string, boolean>;
  safety?: Record<string, unknown>;
  notify?: NotifyTarget[];
  /** Where its token's field is written, for the problems found when its token is read (tokens.ts). */
  at?: { tokenFile?: SourcePos; tokenEnv?: SourcePos };
}

/** Static: this daemon is shard `index` of `count`. Dynamic: `leases` shard Leases shared by every replica. */
export type ShardConfig = { mode: 'static'; index: number; count: number } | { mode: 'dynamic'; leases: number };

type At = (path: string[]) => SourcePos;
type Raw = Record<string, unknown>;

export interface FleetConfigInput {
  raw: Raw;
  /** Whether the schema refused the value at (or below) a JSON pointer: such a part is not read further. */
  refused(pointer: string): boolean;
  base: string;
  env: Env;
  at: At;
  atKey: At;
  cronProblem(expression: string): string | undefined;
}

export function fleetConfig(input: FleetConfigInput): {
  organizations?: OrgConfig[];
  shard?: ShardConfig;
  issues: ValidationIssue[];
} {
  const { raw, at, atKey } = input;
  const issues: ValidationIssue[] = [];
  const list = Array.isArray(raw.organizations) ? (raw.organizations as unknown[]) : undefined;
  if (raw.shard !== undefined && list === undefined)
    issues.push({
      ...atKey(['shard']),
      message: 'shard: only with organizations (shards spread organizations over daemons)',
    });
  if (list === undefined) return { issues };
  // One organization's manifests and token are its own: the single-organization fields would say whose?
  for (const field of ['manifests', 'tokenFile'] as const) {
    if (raw[field] !== undefined)
      issues.push({
        ...atKey([field]),
        message: `${field}: not with organizations (each organization names its own ${field === 'manifests' ? 'manifests directory' : 'token file or variable'})`,
      });
  }
  const organizations: OrgConfig[] = [];
  const seen = new Map<string, number>();
  // By their index in the file (an entry that is not a mapping, refused by the schema, keeps the others' places).
  list.forEach((o, i) => {
    if (isRecord(o)) organizations.push(orgEntry(o, i, seen, input, issues));
  });
  issues.push(...overlapIssues(organizations, at));
  const shard = shardConfig(raw, at, atKey, issues);
  return { organizations, ...(shard ? { shard } : {}), issues };
}

/** One entry of `organizations:` (`i` its index), its problems pushed to `issues`; `seen`: the ids before it. */
function orgEntry(
  o: Raw,
  i: number,
  seen: Map<string, number>,
  input: FleetConfigInput,
  issues: ValidationIssue[],
): OrgConfig {
  const where = (...path: string[]): ReturnType<At> => input.at(['organizations', String(i), ...path]);
  const id = String(o.id ?? '');
  if (seen.has(id))
    issues.push({
      ...where('id'),
      message: `organizations[${i}].id: ${id} is already organizations[${seen.get(id)}]`,
    });
  seen.set(id, i);
  if ((o.tokenFile === undefined) === (o.tokenEnv === undefined)) {
    const both = o.tokenFile !== undefined;
    issues.push({
      ...(both ? input.atKey(['organizations', String(i), 'tokenEnv']) : where()),
      message: `organizations[${i}]: ${both ? 'give tokenFile or tokenEnv, not both' : 'give tokenFile or tokenEnv: where its token is read (never the token itself)'}`,
    });
  }
  if (typeof o.schedule === 'string') {
    const problem = input.cronProblem(o.schedule);
    if (problem) issues.push({ ...where('schedule'), message: `organizations[${i}].schedule: ${problem}` });
  }
  let notify: NotifyTarget[] | undefined;
  // Checked unless the schema refused them: another organization's problem (or another field's) hides nothing.
  if (o.notify !== undefined && !input.refused(`/organizations/${i}/notify`)) {
    const found = notifyTargets(o.notify, input.env, (path) => where(...path));
    notify = found.targets;
    issues.push(...found.issues.map((x) => ({ ...x, message: `organizations[${i}].${x.message}` })));
  }
  return {
    id,
    manifestsDir: resolve(input.base, String(o.manifests ?? '.')),
    ...(typeof o.tokenFile === 'string' ? { tokenFile: resolve(input.base, o.tokenFile) } : {}),
    ...(typeof o.tokenEnv === 'string' ? { tokenEnv: o.tokenEnv } : {}),
    ...(typeof o.schedule === 'string' ? { schedule: o.schedule } : {}),
    ...(isRecord(o.prune) ? { prune: o.prune as Record<string, boolean> } : {}),
    ...(isRecord(o.safety) ? { safety: o.safety } : {}),
    ...(notify ? { notify } : {}),
    ...(o.tokenFile !== undefined || o.tokenEnv !== undefined
      ? {
          at: {
            ...(o.tokenFile !== undefined ? { tokenFile: where('tokenFile') } : {}),
            ...(o.tokenEnv !== undefined ? { tokenEnv: where('tokenEnv') } : {}),
          },
        }
      : {}),
  };
}

/** A directory inside another's would be read by both: each organization reads only its own. */
function overlapIssues(organizations: readonly OrgConfig[], at: At): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  organizations.forEach((a, i) =>
    organizations.forEach((b, j) => {
      if (j <= i || !(contains(a.manifestsDir, b.manifestsDir) || contains(b.manifestsDir, a.manifestsDir))) return;
      issues.push({
        ...at(['organizations', String(j), 'manifests']),
        message: `organizations[${j}].manifests: ${a.manifestsDir === b.manifestsDir ? 'the same directory as' : 'overlaps the directory of'} organizations[${i}] (${a.id}); each organization reads a directory of its own`,
      });
    }),
  );
  return issues;
}

function shardConfig(raw: Raw, at: At, atKey: At, issues: ValidationIssue[]): ShardConfig | undefined {
  const s = raw.shard;
  if (!isRecord(s)) return undefined;
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? s[k] : undefined);
  const [index, count, leases] = [num('index'), num('count'), num('leases')];
  if (leases !== undefined) {
    if (index !== undefined || count !== undefined)
      issues.push({
        ...atKey(['shard', 'leases']),
        message: 'shard: either {index, count} (static shards) or {leases} (dynamic shards), not both',
      });
    const ha = isRecord(raw.ha) ? raw.ha : {};
    if (ha.mode !== 'kubernetes')
      issues.push({
        ...atKey(['shard', 'leases']),
        message: 'shard.leases: dynamic shards are held through Kubernetes Leases; set ha.mode: kubernetes',
      });
    return { mode: 'dynamic', leases };
  }
  if (index === undefined || count === undefined) {
    issues.push({
      ...atKey(['shard']),
      message: 'shard: give index and count (static shards) or leases (dynamic shards)',
    });
    return undefined;
  }
  if (index >= count)
    issues.push({ ...at(['shard', 'index']), message: `shard.index: must be below shard.count (${count})` });
  return { mode: 'static', index, count };
}

function contains(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
