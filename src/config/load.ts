/**
 * docops.yaml → DocopsConfig. The file is parsed like a manifest (positions, `${VAR}` interpolation) and
 * validated against schemas/config.schema.json; every problem is reported at once as file:line:column.
 * Then environment variables (DOCOPS_*) and command-line flags override single fields, in that order.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, ValidationError, formatIssue, type SourcePos, type ValidationIssue } from '../model/errors.js';
import { everyVariable, type Env } from '../manifests/interpolate.js';
import { parseYamlFile, type ParsedYamlDoc } from '../manifests/parse.js';
import { validateWithSchema } from '../manifests/schema.js';
import { registerSecret } from '../secrets.js';
import { DEFAULT_JOURNAL_DIR } from '../safety/journal-dir.js';
import type { ConfigDoc, ConfigPolicy } from '../policy/config.js';
import {
  CONFIG_DEFAULTS,
  type DaemonMode,
  type DocopsConfig,
  type InformerSettings,
  type KindConfig,
} from './config.js';
import { notifyTargets, type NotifyTarget } from './notify.js';
import { configSchema } from './schema.js';
import { githubApiUrl, proposalsConfig } from './ownership.js';
import { haConfig } from './ha.js';
import { fleetConfig } from './organizations.js';
import { cronProblem, parseListen, semanticIssues } from './checks.js';
import { envOverrides, type ConfigOverrides } from './overrides.js';
import { isRecord } from '../model/json.js';

type RawConfig = Record<string, unknown>;

export interface LoadOptions {
  env: Env;
  overrides?: ConfigOverrides;
  cwd?: string;
}

/** What the file says, part by part, with every problem found in it. */
interface FileParts {
  doc: ParsedYamlDoc | undefined;
  raw: RawConfig;
  notify: NotifyTarget[];
  policy: ConfigPolicy;
  fleet: ReturnType<typeof fleetConfig>;
  issues: ValidationIssue[];
}

export async function loadConfig(file: string, options: LoadOptions): Promise<DocopsConfig> {
  const configFile = resolve(options.cwd ?? process.cwd(), file);
  const text = await readConfigFile(file, configFile);
  const parts = await readParts(file, configFile, text, options.env);
  const { doc, raw, fleet, issues } = parts;
  const { values: fromEnv, problems } = envOverrides(options.env);
  if (!/^https?:\/\//.test(githubApiUrl(options.env)))
    problems.push(`DOCOPS_GITHUB_API_URL=${options.env.DOCOPS_GITHUB_API_URL}: must start with http:// or https://`);
  if (issues.length === 0 && raw.manifests === undefined && fromEnv.manifests === undefined && !fleet.organizations) {
    issues.push({
      ...(doc ? doc.pos([]) : { file, line: 1, column: 1 }),
      message: 'manifests: required (the manifests directory; or set DOCOPS_MANIFESTS)',
    });
  }
  const secret =
    issues.length === 0 && doc ? await readSecret(raw, dirname(configFile), fromEnv, doc, issues) : undefined;
  const listen = options.overrides?.listen;
  if (listen !== undefined && !parseListen(listen)) problems.push(`--listen ${listen}: must be HOST:PORT`);
  throwProblems(issues, problems);
  return configOf(parts, { configFile, fromEnv, secret, options });
}

async function readConfigFile(file: string, configFile: string): Promise<Buffer> {
  try {
    return await readFile(configFile);
  } catch (err) {
    throw new UsageError(
      `cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** The file parsed and checked: its one document, its schema, then each part the schema did not refuse. */
async function readParts(file: string, configFile: string, text: Buffer, env: Env): Promise<FileParts> {
  // The config is written by whoever runs docops, like its command line: every variable may be interpolated.
  // The values read are kept: one that a secret field's value holds is a secret too (schema.ts registers it).
  const read = new Set<string>();
  const every = everyVariable(env);
  const parsed = parseYamlFile(file, text, { vars: { read: (name) => (read.add(name), every.read(name)) } });
  const secrets = { env, variables: [...read].map((n) => env[n]).filter((v) => v !== undefined) };
  const issues = [...parsed.issues];
  const doc = parsed.documents[0];
  if (parsed.documents.length > 1) {
    const extra = parsed.documents[1]!;
    issues.push({ ...extra.pos([]), message: 'the config file must hold one YAML document' });
  }
  const parts: FileParts = { doc, raw: {}, notify: [], policy: { issues: [] }, fleet: { issues: [] }, issues };
  if (!doc) return parts;
  const schemaIssues = validateWithSchema(doc.value, configSchema(), doc.pos, '', doc.keyPos, secrets);
  issues.push(...schemaIssues);
  if (!isRecord(doc.value)) return parts;
  // Each part is checked further unless the schema refused that part: a problem elsewhere hides nothing.
  const refused = (pointer: string): boolean => schemaIssues.some((i) => isUnder(i.path, pointer));
  return checkedParts({ ...parts, raw: doc.value }, doc, refused, {
    file,
    text: text.toString('utf8'),
    pos: doc.pos,
    keyPos: doc.keyPos,
    base: dirname(configFile),
    githubApiUrl: githubApiUrl(env),
    env,
  });
}

/** The checks JSON Schema cannot make, part by part (notify, organizations and shard, policy), issues in that order. */
async function checkedParts(
  parts: FileParts,
  doc: ParsedYamlDoc,
  refused: (pointer: string) => boolean,
  ctx: Omit<ConfigDoc, 'partial'> & { env: Env },
): Promise<FileParts> {
  const { raw, issues } = parts;
  issues.push(...semanticIssues(raw, doc.pos, doc.keyPos));
  if (!refused('/notify')) {
    const found = notifyTargets(raw.notify, ctx.env, doc.pos);
    parts.notify = found.targets;
    issues.push(...found.issues);
  }
  const { env, ...policyDoc } = ctx;
  parts.fleet = fleetConfig({ raw, refused, base: ctx.base, env, at: doc.pos, atKey: doc.keyPos, cronProblem });
  issues.push(...parts.fleet.issues);
  // Checked with the rest of the config (every problem at once), without the parts whose shape the schema refused.
  const checked = policyParts(raw.policy, refused);
  parts.policy = await configPolicy(checked, { ...policyDoc, partial: checked !== raw.policy });
  issues.push(...parts.policy.issues);
  return parts;
}

/** Problems without a place (the environment's, the flags') make a usage error that lists the file's too. */
function throwProblems(issues: ValidationIssue[], problems: string[]): void {
  issues.sort((a, b) => a.line - b.line || a.column - b.column);
  if (problems.length > 0)
    throw new UsageError(['invalid configuration:', ...issues.map(formatIssue), ...problems].join('\n'));
  if (issues.length > 0) throw new ValidationError(issues);
}

interface Overlaid {
  configFile: string;
  fromEnv: Record<string, unknown>;
  secret: string | undefined;
  options: LoadOptions;
}

/** The file's values under the environment's and the flags', with the defaults for what none of them gives. */
function configOf({ doc, raw, notify, policy, fleet }: FileParts, o: Overlaid): DocopsConfig {
  const { configFile, fromEnv, secret } = o;
  const base = dirname(configFile);
  const cwd = o.options.cwd ?? process.cwd();
  const merged: RawConfig = { ...raw, ...fromEnv };
  const overrides = o.options.overrides ?? {};
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
    ...proposalsConfig(raw.proposals, base, doc, githubApiUrl(o.options.env)),
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
    logLevel: (raw.logLevel as DocopsConfig['logLevel'] | undefined) ?? CONFIG_DEFAULTS.logLevel,
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
