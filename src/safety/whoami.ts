/**
 * The token's own user: GET /user (getAuthenticatedUser in the official spec). The member guards use it so
 * a plan never removes or demotes the user docops runs as. A missing id is an error: the gate must not run
 * without knowing who it protects.
 */
import type { ApiClient } from '../model/api-client.js';
import { DocopsError } from '../model/errors.js';
import type { Whoami } from './gate.js';

export async function fetchWhoami(client: ApiClient): Promise<Whoami> {
  const user = await client.get<unknown>('/user');
  const rec = typeof user === 'object' && user !== null ? (user as Record<string, unknown>) : {};
  const id = rec['id'];
  if (typeof id !== 'string' || id === '')
    throw new DocopsError('GET /user returned no user id; cannot tell which user the token belongs to');
  const email = rec['email'];
  return typeof email === 'string' && email !== '' ? { id, email } : { id };
}
