/**
 * The `policy:` of docops.yaml: rules from `path` (a file or folder, relative to the config) and/or inline `rules`,
 * `approvers`, and the daemon's `approvals` (how it takes them: daemon-approvals.ts). Problems are issues at their
 * file:line:column, reported with the config's own.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { ValidationError, type SourcePos, type ValidationIssue } from '../model/errors.js';
import type { Locate } from '../manifests/schema.js';
import type { LoadedPolicy } from './evaluate.js';
import { combinePolicy, inlinePolicyPart, policyPathPart } from './load.js';

/** `policy.approvals`, paths resolved; the tokens are read when the daemon starts. */
export interface ApprovalsConfig {
  token?: string;
  tokenFile?: string;
  github?: { repository: string; apiUrl: string; tokenFile?: string; pollMs: number };
  /**
   * Where the fields are written, for the problems found when the daemon starts and reads the tokens (every
   * config problem names its place); absent for settings built in code.
   */
  at?: { token?: SourcePos; tokenFile?: SourcePos; github?: SourcePos; githubTokenFile?: SourcePos };
}

export interface ConfigPolicy {
  policy?: LoadedPolicy;
  approvals?: ApprovalsConfig;
  issues: ValidationIssue[];
}

export interface ConfigDoc {
  file: string;
  text: string;
  pos: Locate;
  keyPos: Locate;
  /** The config file's directory. */
  base: string;
  /** Some fields were left out (the schema refused them): a policy without rules is then not said to load none. */
  partial?: boolean;
  /** GitHub's API when `approvals.github.apiUrl` names none (the daemon's DOCOPS_GITHUB_API_URL); default github.com's. */
  githubApiUrl?: string;
}

const DEFAULT_POLL_MS = 60_000;

export async function policyFromConfig(raw: Record<string, unknown>, doc: ConfigDoc): Promise<ConfigPolicy> {
  const parts = [];
  const issues: ValidationIssue[] = [];
  if (typeof raw.path === 'string') {
    const full = resolve(doc.base, raw.path);
    const rel = relative(process.cwd(), full);
    try {
      parts.push(await policyPathPart(rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : full));
    } catch (err) {
      issues.push({ ...doc.pos(['policy', 'path']), message: `policy.path: ${(err as Error).message}` });
    }
  }
  if (raw.rules !== undefined || raw.approvers !== undefined) {
    parts.push(
      await inlinePolicyPart({
        file: doc.file,
        text: doc.text,
        rules: raw.rules ?? [],
        at: ['policy', 'rules'],
        pos: doc.pos,
        keyPos: doc.keyPos,
        ...(raw.approvers !== undefined ? { approvers: { value: raw.approvers, at: ['policy', 'approvers'] } } : {}),
      }),
    );
  }
  const approvals = approvalsConfig(raw.approvals, doc);
  // Every problem at once: a path that cannot be read does not hide the inline rules' problems (nor is "no rule"
  // said of a policy whose rules could not be read).
  const nothing: SourcePos | undefined = issues.length > 0 || doc.partial ? undefined : doc.keyPos(['policy']);
  let policy: LoadedPolicy | undefined;
  try {
    policy = combinePolicy(parts, doc.file, nothing);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    issues.push(...err.issues);
  }
  if (policy && approvals?.github && !policy.approvers)
    issues.push({ ...doc.keyPos(['policy', 'approvals', 'github']), message: NO_APPROVERS });
  if (issues.length > 0 || !policy) return { issues };
  return { policy, ...(approvals ? { approvals } : {}), issues: [] };
}

/** Pull-request approvals need a team whose members' comments approve. */
export const NO_APPROVERS =
  'policy.approvals.github: the policy names no approvers (approvers: {githubTeam: ORG/TEAM-SLUG}), so no comment could approve';

function approvalsConfig(raw: unknown, doc: ConfigDoc): ApprovalsConfig | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const base = doc.base;
  const a = raw as Record<string, unknown>;
  const gh = typeof a.github === 'object' && a.github !== null ? (a.github as Record<string, unknown>) : undefined;
  const here = ['policy', 'approvals'];
  const at: NonNullable<ApprovalsConfig['at']> = {
    ...(a.token !== undefined ? { token: doc.pos([...here, 'token']) } : {}),
    ...(a.tokenFile !== undefined ? { tokenFile: doc.pos([...here, 'tokenFile']) } : {}),
    ...(gh ? { github: doc.keyPos([...here, 'github']) } : {}),
    ...(gh?.tokenFile !== undefined ? { githubTokenFile: doc.pos([...here, 'github', 'tokenFile']) } : {}),
  };
  return {
    at,
    ...(typeof a.token === 'string' ? { token: a.token } : {}),
    ...(typeof a.tokenFile === 'string' ? { tokenFile: resolve(base, a.tokenFile) } : {}),
    ...(gh && typeof gh.repository === 'string'
      ? {
          github: {
            repository: gh.repository,
            apiUrl: typeof gh.apiUrl === 'string' ? gh.apiUrl : (doc.githubApiUrl ?? 'https://api.github.com'),
            ...(typeof gh.tokenFile === 'string' ? { tokenFile: resolve(base, gh.tokenFile) } : {}),
            pollMs: typeof gh.pollSeconds === 'number' ? gh.pollSeconds * 1000 : DEFAULT_POLL_MS,
          },
        }
      : {}),
  };
}
