/**
 * The token of an organization whose `tokenEnv` names its variable (docs/daemon.md, "Many organizations"): read by
 * the fleet's daemons and by `plan`/`apply --config`, alike. Its own module so the CLI loads nothing else of the
 * daemon for it.
 */
import { UsageError } from '../model/errors.js';
import type { Env } from '../manifests/interpolate.js';

/**
 * The token (undefined without a tokenEnv). Unset or empty is an error that does not quote the name: a field
 * marked secret is never shown, and a token of letters, digits and `_` written there by mistake reads as a name.
 */
export function tokenFromEnv(env: Env, org: { id: string; tokenEnv?: string }): string | undefined {
  if (org.tokenEnv === undefined) return undefined;
  const token = env[org.tokenEnv];
  if (token === undefined || token.trim() === '')
    throw new UsageError(`organizations: ${org.id}: the variable its tokenEnv names is not set`);
  return token.trim();
}
