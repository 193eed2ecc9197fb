/**
 * docops.yaml → DaemonConfig. The file is parsed like a manifest (positions, `${VAR}` interpolation) and
 * validated against schemas/config.schema.json; every problem is reported at once as file:line:column.
 * Then environment variables (DOCOPS_*) and command-line flags override single fields, in that order.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, ValidationError, formatIssue, type SourcePos, type ValidationIssue } from '../model/errors.js';
import type { DriftPolicy, OwnershipMode } from '../model/plan.js';
import { everyVariable, type Env } from '../manifests/interpolate.js';
import { parseYamlFile } from '../manifests/parse.js';
import { validateWithSchema } from '../manifests/schema.js';
import { notifyTargets } from './notify/config.js';
import type { NotifyTarget } from './notify/types.js';
import { registerSecret } from '../secrets.js';
import { DEFAULT_JOURNAL_DIR } from '../safety/journal-dir.js';
import { DEFAULT_LIST_LAG_MS } from '../api/expectations.js';
import { configSchema } from './config-schema.js';
import { githubApiUrl, proposalsConfig, type ProposalsConfig } from './config-ownership.js';
import type { ApprovalsConfig, ConfigDoc, ConfigPolicy } from '../policy/config.js';
import type { LoadedPolicy } from '../policy/evaluate.js';
import { HA_DEFAULTS, haConfig, type HaConfig } from './config-ha.js';
import { fleetConfig, type OrgConfig, type ShardConfig } from './config-fleet.js';
import { cronProblem, parseListen, semanticIssues, type ListenAddress } from './config-checks.js';
import { envOverrides, type ConfigOverrides } from './config-overrides.js';
import { isRecord } from '../model/json.js';

export type { OrgConfig, ShardConfig } from './config-fleet.js';
export { cronProblem, parseListen, type ListenAddress } from './config-checks.js';
export { ENV_OVERRIDES, type ConfigOverrides } from './config-overrides.js';

export type DaemonMode = 'apply' | 'plan';

export interface DaemonConfig {
  /** Absolute path of the config file ('' when built without one, e.g. in tests). */
  configFile: string;
  /** Absolute manifests directory. */
  manifestsDir: string;
  /** Variables the manifests may read as `${NAME}` (names or `PREFIX*`); none when absent. */
  allowEnv?: string[];
  apiUrl?: string;
  /** Absolute path of the token file; without it the token comes from DOCOPS_TOKEN. */
  tokenFile?: string;
  /** Where fields checked only when the daemon starts are written (every config problem names its place). */
  at?: { tokenFile?: SourcePos };
  concurrency: number;
  schedule?: string;
  mode: DaemonMode;
  prune: Record<string, boolean>;
  /** Per manifest kind: how docops owns its objects (`kinds:` in docops.yaml; none when absent). */
  kinds?: Record<string, KindConfig>;
  /** Where drift under `drift: propose` is proposed (config-ownership.ts). */
  proposals?: ProposalsConfig;
  invite: boolean;
  listen: ListenAddress;
  /** POST /reconcile is disabled without it. */
  reconcileSecret?: string;
  debounceMs: number;
  retry: { initialMs: number; maxMs: number };
  shutdownGraceMs: number;
  safety?: Record<string, unknown>;
  /** Where delete journals go (a snapshot of every object before it is deleted); must be writable. */
  journalDir: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  /** Run against an in-process sandbox (demo seed) instead of apiUrl. */
  sandbox: boolean;
  /** Serve the status page and its JSON endpoints (default true). */
  statusPage?: boolean;
  /** Notification targets (none when absent). */
  notify?: NotifyTarget[];
  /** Leader election (absent: off, this daemon is the only writer). */
  ha?: HaConfig;
  /** Rules over every plan, and how approvals are taken (src/policy; absent: no policy). */
  policy?: LoadedPolicy;
  approvals?: ApprovalsConfig;
  /** Following the audit log between full reads (docs/daemon.md, "The informer"); absent: off (the loader always sets it). */
  informer?: InformerSettings;
  /**
   * Docs health (src/daemon/health.ts): the broken links of the managed spaces are read at the end of a run at
   * most this often, in ms; 0: never. Absent: CONFIG_DEFAULTS.healthMinutes.
   */
  healthEveryMs?: number;
  /** How far behind a write the API's lists may answer (ms; src/api/expectations.ts). Absent: CONFIG_DEFAULTS.listLagSeconds. */
  listLagMs?: number;
  /** Several organizations, each reconciled on its own (src/daemon/fleet); absent: the one of `manifestsDir`. */
  organizations?: OrgConfig[];
  /** With organizations: the share of them this daemon reconciles (static) or the shard Leases it competes for (dynamic). */
  shard?: ShardConfig;
}

export interface InformerSettings {
  enabled: boolean;
  /** 0: polls only with the runs the other triggers start. */
  pollMs: number;
  /** 0: no background resync. */
  resyncMs: number;
  overlapMs: number;
  /** The widest the overlap grows for events seen late (src/audit/feed.ts). */
  maxOverlapMs?: number;
}

/** One kind's entry under `kinds:`: its ownership mode and what a run does with its drift (src/daemon/drift). */
export interface KindConfig {
  drift?: DriftPolicy;
  mode?: OwnershipMode;
}

export type { HaConfig } from './config-ha.js';

export { DEFAULT_JOURNAL_DIR };

export const CONFIG_DEFAULTS = {
  concurrency: 8,
  mode: 'apply',
  listen: '0.0.0.0:8080',
  debounceMs: 500,
  retry: { initialMs: 1000, maxMs: 300_000 },
  shutdownGraceMs: 30_000,
  logLevel: 'info',
  // client-go's leader-election defaults.
  ha: HA_DEFAULTS,
  informer: { enabled: true, pollSeconds: 30, resyncMinutes: 240, overlapSeconds: 60, maxOverlapSeconds: 3600 },
  // One list request per managed space: read hourly, not by every run (a save, an informer's revert).
  healthMinutes: 60,
  listLagSeconds: DEFAULT_LIST_LAG_MS / 1000,
} as const;

type RawConfig = Record<string, unknown>;

export async function loadDaemonConfig(
  file: string,
  options: { env: Env; overrides?: ConfigOverrides; cwd?: string },
): Promise<DaemonConfig> {
  const configFile = resolve(options.cwd ?? process.cwd(), file);
  let text: Buffer;
  try {
    text = await readFile(configFile);
  } catch (err) {
    throw new UsageError(
      `cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  // The config is written by whoever runs docops, like its command line: every variable may be interpolated.
  // The values read are kept: one that a secret field's value holds is a secret too (schema.ts registers it).
  const read = new Set<string>();
  const every = everyVariable(options.env);
  const parsed = parseYamlFile(file, text, { vars: { read: (name) => (read.add(name), every.read(name)) } });
  const secrets = { env: options.env, variables: [...read].map((n) => options.env[n]).filter((v) => v !== undefined) };
  const issues = [...parsed.issues];
  const doc = parsed.documents[0];
  if (parsed.documents.length > 1) {
    const extra = parsed.documents[1]!;
    issues.push({ ...extra.pos([]), message: 'the config file must hold one YAML document' });
  }
  let raw: RawConfig = {};
  let notify: NotifyTarget[] = [];
  let policy: ConfigPolicy = { issues: [] };
  let fleet: ReturnType<typeof fleetConfig> = { issues: [] };
  if (doc) {
    const schemaIssues = validateWithSchema(doc.value, configSchema(), doc.pos, '', doc.keyPos, secrets);
    issues.push(...schemaIssues);
    if (isRecord(doc.value)) {
      raw = doc.value;
      issues.push(...semanticIssues(raw, doc.pos, doc.keyPos));
      // Each part is checked further unless the schema refused that part: a problem elsewhere hides nothing.
      const refused = (pointer: string): boolean => schemaIssues.some((i) => isUnder(i.path, pointer));
      if (!refused('/notify')) {
        const found = notifyTargets(raw.notify, options.env, doc.pos);
        notify = found.targets;
        issues.push(...found.issues);
      }
      fleet = fleetConfig({
        raw,
        refused,
        base: dirname(configFile),
        env: options.env,
        at: doc.pos,
        atKey: doc.keyPos,
        cronProblem,
      });
      issues.push(...fleet.issues);
      // Checked with the rest of the config (every problem at once), without the parts whose shape the schema refused.
      const checked = policyParts(raw.policy, refused);
      policy = await configPolicy(checked, {
        file,
        text: text.toString('utf8'),
        pos: doc.pos,
        keyPos: doc.keyPos,
        base: dirname(configFile),
        partial: checked !== raw.policy,
        githubApiUrl: githubApiUrl(options.env),
      });
      issues.push(...policy.issues);
    }
  }
  const { values: fromEnv, problems } = envOverrides(options.env);
  if (!/^https?:\/\//.test(githubApiUrl(options.env)))
    problems.push(`DOCOPS_GITHUB_API_URL=${options.env.DOCOPS_GITHUB_API_URL}: must start with http:// or https://`);
  if (
    issues.length === 0 &&
    raw.manifests === undefined &&
    fromEnv.manifests === undefined &&
    fleet.organizations === undefined
  ) {
    issues.push({
      ...(doc ? doc.pos([]) : { file, line: 1, column: 1 }),
      message: 'manifests: required (the manifests directory; or set DOCOPS_MANIFESTS)',
    });
  }
  const secret =
    issues.length === 0 && doc ? await readSecret(raw, dirname(configFile), fromEnv, doc, issues) : undefined;
  const cliProblems =
    options.overrides?.listen !== undefined && !parseListen(options.overrides.listen)
      ? [`--listen ${options.overrides.listen}: must be HOST:PORT`]
      : [];
  issues.sort((a, b) => a.line - b.line || a.column - b.column);
  if (problems.length > 0 || cliProblems.length > 0) {
    throw new UsageError(
      ['invalid configuration:', ...issues.map(formatIssue), ...problems, ...cliProblems].join('\n'),
    );
  }
  if (issues.length > 0) throw new ValidationError(issues);

  const base = dirname(configFile);
  const cwd = options.cwd ?? process.cwd();
  const merged: RawConfig = { ...raw, ...fromEnv };
  const overrides = options.overrides ?? {};
  const str = (k: string): string | undefined => (typeof merged[k] === 'string' ? (merged[k] as string) : undefined);
  const apiUrl = overrides.apiUrl ?? str('apiUrl');
  const tokenFile = str('tokenFile');
  const allowEnv = merged.allowEnv as string[] | undefined;
  const schedule = str('schedule');
  const journalDir = str('journalDir');
  const retry = (raw.retry ?? {}) as { initialMs?: number; maxMs?: number };
  return {
    configFile,
    // A directory from the environment is relative to the working directory, one from the file to the file. With
    // organizations each has its own; this one is then the config's directory (nothing reads it as manifests).
    manifestsDir: fleet.organizations
      ? base
      : fromEnv.manifests !== undefined
        ? resolve(cwd, fromEnv.manifests as string)
        : resolve(base, raw.manifests as string),
    ...(allowEnv !== undefined ? { allowEnv } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(tokenFile !== undefined ? { tokenFile: resolve(base, tokenFile) } : {}),
    ...(raw.tokenFile !== undefined && doc ? { at: { tokenFile: doc.pos(['tokenFile']) } } : {}),
    concurrency: (merged.concurrency as number | undefined) ?? CONFIG_DEFAULTS.concurrency,
    ...(schedule !== undefined ? { schedule } : {}),
    mode: (merged.mode as DaemonMode | undefined) ?? CONFIG_DEFAULTS.mode,
    prune: (raw.prune as Record<string, boolean> | undefined) ?? {},
    kinds: (raw.kinds as Record<string, KindConfig> | undefined) ?? {},
    ...proposalsConfig(raw.proposals, dirname(configFile), doc, githubApiUrl(options.env)),
    invite: raw.invite === true,
    listen: parseListen(overrides.listen ?? str('listen') ?? CONFIG_DEFAULTS.listen)!,
    ...(secret !== undefined ? { reconcileSecret: secret } : {}),
    debounceMs: (raw.debounceMs as number | undefined) ?? CONFIG_DEFAULTS.debounceMs,
    retry: {
      initialMs: retry.initialMs ?? CONFIG_DEFAULTS.retry.initialMs,
      maxMs: retry.maxMs ?? CONFIG_DEFAULTS.retry.maxMs,
    },
    shutdownGraceMs: (raw.shutdownGraceMs as number | undefined) ?? CONFIG_DEFAULTS.shutdownGraceMs,
    ...(raw.safety !== undefined ? { safety: raw.safety as Record<string, unknown> } : {}),
    // Like the CLI's default (.docops/journal in the working directory) unless the file or the environment names one.
    journalDir:
      journalDir === undefined
        ? resolve(cwd, DEFAULT_JOURNAL_DIR)
        : resolve(fromEnv.journalDir !== undefined ? cwd : base, journalDir),
    logLevel: (raw.logLevel as DaemonConfig['logLevel'] | undefined) ?? CONFIG_DEFAULTS.logLevel,
    sandbox: overrides.sandbox === true,
    statusPage: raw.statusPage !== false,
    notify,
    ...haConfig(isRecord(fromEnv.ha) ? { ...(isRecord(raw.ha) ? raw.ha : {}), ...fromEnv.ha } : raw.ha),
    ...(policy.policy ? { policy: policy.policy } : {}),
    ...(policy.approvals ? { approvals: policy.approvals } : {}),
    informer: informerSettings(raw.informer),
    healthEveryMs: (typeof raw.healthMinutes === 'number' ? raw.healthMinutes : CONFIG_DEFAULTS.healthMinutes) * 60_000,
    listLagMs: (typeof raw.listLagSeconds === 'number' ? raw.listLagSeconds : CONFIG_DEFAULTS.listLagSeconds) * 1000,
    ...(fleet.organizations ? { organizations: fleet.organizations } : {}),
    ...(fleet.shard ? { shard: fleet.shard } : {}),
  };
}

function informerSettings(raw: unknown): InformerSettings {
  const d = CONFIG_DEFAULTS.informer;
  const r = isRecord(raw) ? raw : {};
  const num = (k: 'pollSeconds' | 'resyncMinutes' | 'overlapSeconds' | 'maxOverlapSeconds'): number =>
    typeof r[k] === 'number' ? r[k] : d[k];
  return {
    enabled: r.enabled !== false,
    pollMs: num('pollSeconds') * 1000,
    resyncMs: num('resyncMinutes') * 60_000,
    overlapMs: num('overlapSeconds') * 1000,
    maxOverlapMs: Math.max(num('overlapSeconds'), num('maxOverlapSeconds')) * 1000,
  };
}

/** `policy:` (src/policy, and the CEL library, loaded only when the config has one). */
async function configPolicy(raw: unknown, doc: ConfigDoc): Promise<ConfigPolicy> {
  if (!isRecord(raw)) return { issues: [] };
  return (await import('../policy/config.js')).policyFromConfig(raw, doc);
}

/** The reconcile secret (registered at once); a file that cannot be read or holds a short one is an issue at its field. */
async function readSecret(
  raw: RawConfig,
  base: string,
  fromEnv: Record<string, unknown>,
  doc: { pos: (path: string[]) => SourcePos },
  issues: ValidationIssue[],
): Promise<string | undefined> {
  if (typeof fromEnv.reconcileSecret === 'string') return fromEnv.reconcileSecret;
  if (typeof raw.reconcileSecret === 'string') return raw.reconcileSecret;
  if (typeof raw.reconcileSecretFile !== 'string') return undefined;
  const path = resolve(base, raw.reconcileSecretFile);
  const at = doc.pos(['reconcileSecretFile']);
  let secret: string;
  try {
    secret = (await readFile(path, 'utf8')).trim();
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    issues.push({ ...at, message: `reconcileSecretFile: cannot read ${path}: ${why}` });
    return undefined;
  }
  registerSecret(secret);
  if (secret.length < 16)
    issues.push({ ...at, message: 'reconcileSecretFile: the secret must be at least 16 characters' });
  return secret;
}

/** A JSON pointer at or below another. */
function isUnder(path: string | undefined, pointer: string): boolean {
  return path !== undefined && (path === pointer || path.startsWith(`${pointer}/`));
}

/** `policy:` without the fields the schema refused (their problems are reported already); itself when none was. */
function policyParts(raw: unknown, refused: (pointer: string) => boolean): unknown {
  if (!isRecord(raw) || !Object.keys(raw).some((k) => refused(`/policy/${k}`))) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !refused(`/policy/${k}`)));
}
