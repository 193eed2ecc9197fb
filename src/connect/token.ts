/**
 * What a token is and may do, as far as the API tells it without writing anything (`docops whoami`):
 * - its user: `GET /user`;
 * - the organizations it sees and whether its user is an admin of each: `GET /orgs` (the Organization's
 *   `permissions.admin`), and its member role there: `GET /orgs/{id}/members/{userId}`;
 * - the OAuth scopes it lacks, where the API says so: a read answered 403 names the scope the official spec
 *   gives that operation (src/scopes/operations.ts).
 * What the API does not tell is kept apart, never guessed: which scopes a token carries (no operation returns
 * them) and so whether an admin's token may write — only a write would show that, and whoami never writes.
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError, UsageError } from '../model/errors.js';
import { pathSegment } from '../model/refs.js';
import { matchOperation } from '../scopes/operations.js';
import { listOrgs, type VisibleOrg } from './orgs.js';
import { isRecord } from '../model/json.js';

/** A read the API refused (403): the request and the OAuth scopes the spec gives its operation. */
export interface Refusal {
  request: string;
  scopes: string[];
  message: string;
}

export interface TokenUser {
  id: string;
  displayName?: string;
  email?: string;
}

export interface OrgAccess extends VisibleOrg {
  /** The user's member role (`null`: a guest); undefined when it could not be read. */
  role?: string | null;
}

export interface TokenReport {
  apiUrl: string;
  user?: TokenUser;
  /** Undefined when GET /orgs was refused. */
  orgs?: OrgAccess[];
  /** Reads answered 403, in the order they were made. */
  refused: Refusal[];
}

/** The value of `read`, or the refusal when the API answered 403 (any other failure propagates). */
async function orRefused<T>(
  method: string,
  path: string,
  read: () => Promise<T>,
  refused: Refusal[],
): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 403) throw err;
    const op = matchOperation(method, path);
    refused.push({ request: `${method} ${op?.path ?? path}`, scopes: op?.scopes ?? [], message: err.apiMessage });
    return undefined;
  }
}

function userOf(body: unknown): TokenUser {
  const rec = isRecord(body) ? body : {};
  if (typeof rec.id !== 'string' || rec.id === '')
    throw new ApiError('GET', '/user', undefined, 'the answer names no user id');
  return {
    id: rec.id,
    ...(typeof rec.displayName === 'string' && rec.displayName !== '' ? { displayName: rec.displayName } : {}),
    ...(typeof rec.email === 'string' && rec.email !== '' ? { email: rec.email } : {}),
  };
}

export interface InspectOptions {
  /** Only this organization (an error when the token does not see it). */
  org?: string;
}

export async function inspectToken(client: ApiClient, options: InspectOptions = {}): Promise<TokenReport> {
  const refused: Refusal[] = [];
  const user = await orRefused('GET', '/user', async () => userOf(await client.get<unknown>('/user')), refused);
  let orgs = await orRefused('GET', '/orgs', () => listOrgs(client), refused);
  if (orgs && options.org !== undefined) {
    orgs = orgs.filter((o) => o.id === options.org);
    // The list answered: the mistake is the flag's value, not a failed request.
    if (orgs.length === 0)
      throw new UsageError(
        `--org ${options.org}: the token does not see organization "${options.org}" (\`docops orgs\` lists those it sees)`,
      );
  }
  const report: TokenReport = { apiUrl: client.baseUrl, refused, ...(user ? { user } : {}) };
  if (!orgs) return report;
  report.orgs = [];
  for (const org of orgs) {
    const access: OrgAccess = { ...org };
    if (user) {
      const path = `/orgs/${pathSegment(org.id)}/members/${pathSegment(user.id)}`;
      const member = await orRefused('GET', path, () => client.get<unknown>(path), refused);
      if (isRecord(member) && (typeof member.role === 'string' || member.role === null)) access.role = member.role;
    }
    report.orgs.push(access);
  }
  return report;
}

/** What the token may do in the organizations it sees: write where its user is an admin, else read. */
export function tokenAccess(report: TokenReport): 'write' | 'read-only' | 'unknown' {
  if (!report.orgs || report.orgs.some((o) => o.admin === undefined)) return 'unknown';
  return report.orgs.some((o) => o.admin === true) ? 'write' : 'read-only';
}
