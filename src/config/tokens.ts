/**
 * The API tokens docops.yaml names, read when the daemon starts (and by `plan`/`apply --config` for each
 * organization): a token file, or an organization's `tokenEnv`. Each is registered as a secret the moment it is
 * read; a problem names the place of the field that named it (every config problem does: docs/daemon.md). The
 * daemon and `plan`/`apply --config` read tokens through this module alone.
 */
import { readFileSync } from 'node:fs';
import { configProblem, type SourcePos } from '../model/errors.js';
import type { Env } from '../manifests/interpolate.js';
import { registerSecret } from '../secrets.js';

/** The token a file holds; `field` names the config field (`tokenFile`, `organizations[0].tokenFile`) at `at`. */
export function readTokenFile(path: string, field: string, at: SourcePos | undefined): string {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw configProblem(
      at,
      `${field}: cannot read token file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  registerSecret(token);
  if (token === '') throw configProblem(at, `${field}: the file is empty (${path})`);
  return token;
}

/** What the token of one organization is read from. */
export interface OrgTokenSource {
  id: string;
  tokenFile?: string;
  tokenEnv?: string;
  at?: { tokenFile?: SourcePos; tokenEnv?: SourcePos };
}

/**
 * The token of organization `index` (of `organizations:`) when its `tokenEnv` names its variable (undefined with a
 * tokenFile). Unset or empty is an error that does not quote the name: a field marked secret is never shown, and a
 * token of letters, digits and `_` written there by mistake reads as a name.
 */
export function tokenFromEnv(env: Env, org: OrgTokenSource, index: number): string | undefined {
  if (org.tokenEnv === undefined) return undefined;
  const token = env[org.tokenEnv];
  if (token === undefined || token.trim() === '')
    throw configProblem(
      org.at?.tokenEnv,
      `organizations[${index}].tokenEnv: the variable it names is not set (organization ${org.id})`,
    );
  registerSecret(token);
  return token.trim();
}

/** The token of organization `index`, from its file or its variable, registered at once (no message may show it). */
export function orgToken(env: Env, org: OrgTokenSource, index: number): string {
  if (org.tokenFile !== undefined)
    return readTokenFile(org.tokenFile, `organizations[${index}].tokenFile`, org.at?.tokenFile);
  const token = tokenFromEnv(env, org, index);
  if (token === undefined)
    throw configProblem(undefined, `organizations[${index}]: give tokenFile or tokenEnv (organization ${org.id})`);
  return token;
}
