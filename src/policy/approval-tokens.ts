/**
 * The secrets approvals are taken with (daemon-approvals.ts): the approver token (POST /approve) and, for
 * pull-request approvals, the GitHub token and the approvers' team. Each from the first of its sources that has it
 * (an environment variable, the config, a file the config names), registered as a secret before anything can show
 * it, and refused at its field's place when it cannot be read or is too short.
 */
import { readFile } from 'node:fs/promises';
import { configProblem, type SourcePos } from '../model/errors.js';
import type { Env } from '../manifests/interpolate.js';
import { registerSecret } from '../secrets.js';
import { NO_APPROVERS, type ApprovalsConfig } from './config.js';
import type { LoadedPolicy } from './evaluate.js';

export const MIN_TOKEN = 16;

export interface GitHubSource {
  apiUrl: string;
  repository: string;
  team: string;
  token: string;
  pollMs: number;
}

/** Pull-request approvals: the approvers' team and the GitHub token. */
export async function githubToken(
  a: ApprovalsConfig,
  env: Env,
  policy: LoadedPolicy,
): Promise<GitHubSource | undefined> {
  if (!a.github) return undefined;
  const field = 'policy.approvals.github';
  const team = policy.approvers?.githubTeam;
  if (!team) throw configProblem(a.at?.github, NO_APPROVERS);
  const token = await secret(
    'GitHub token',
    [
      { from: 'DOCOPS_GITHUB_TOKEN', value: env.DOCOPS_GITHUB_TOKEN },
      { from: `${field}.tokenFile`, file: a.github.tokenFile, at: a.at?.githubTokenFile },
    ],
    1,
  );
  if (token === undefined)
    throw configProblem(a.at?.github, `${field}: no GitHub token (tokenFile, or DOCOPS_GITHUB_TOKEN)`);
  return {
    apiUrl: a.github.apiUrl,
    repository: a.github.repository,
    team,
    token: token.value,
    pollMs: a.github.pollMs,
  };
}

/** Where a secret may come from, first found first: an environment variable, a value in the config, a file it names. */
interface SecretSource {
  /** The variable or the config field, as messages name it. */
  from: string;
  value?: string | undefined;
  file?: string | undefined;
  /** The field's place in the config (none for a variable). */
  at?: SourcePos | undefined;
}

/** A secret from the environment, the config or a file; registered before anything can show it. */
export async function secret(
  what: string,
  sources: readonly SecretSource[],
  min = MIN_TOKEN,
): Promise<{ value: string; from: string; at?: SourcePos } | undefined> {
  for (const s of sources) {
    let value = s.value !== '' ? s.value : undefined;
    if (value === undefined && s.file !== undefined) {
      try {
        value = (await readFile(s.file, 'utf8')).trim();
      } catch (err) {
        throw configProblem(
          s.at,
          `${s.from}: cannot read the ${what} file ${s.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    }
    if (value === undefined) continue;
    registerSecret(value);
    if (value.length < min) throw configProblem(s.at, `${s.from}: the ${what} must be at least ${min} characters`);
    return { value, from: s.from, ...(s.at ? { at: s.at } : {}) };
  }
  return undefined;
}
