/**
 * Whose token docops holds: GraphQL's `viewer { login }`, which answers for every kind of token — a workflow's
 * GITHUB_TOKEN (`github-actions[bot]`), an app's installation token (`<app-slug>[bot]`), a personal token (the
 * user) — where REST `GET /user` answers 403 to installation tokens. The login is the one REST shows as a
 * comment's `user.login`, `[bot]` suffix included, so the two compare as they are (case-insensitively, as GitHub
 * compares logins). Never guessed: without an answer, docops cannot tell its comment from another's.
 */
import { DocopsError } from '../model/errors.js';
import type { GitHub } from './client.js';

export async function tokenLogin(github: GitHub): Promise<string> {
  let answer: { viewer?: { login?: unknown } | null } | null;
  try {
    answer = await github.graphql<{ viewer?: { login?: unknown } | null } | null>('query { viewer { login } }');
  } catch (err) {
    throw unknownIdentity(err instanceof Error ? err.message : String(err), err);
  }
  const login = answer?.viewer?.login;
  if (typeof login !== 'string' || login === '') throw unknownIdentity('GraphQL answered no viewer login');
  return login;
}

/** Is `login` (a comment's `user.login`) the token's own account? */
export const isLogin = (login: string | undefined, own: string): boolean =>
  login !== undefined && login.toLowerCase() === own.toLowerCase();

function unknownIdentity(reason: string, cause?: unknown): DocopsError {
  return new DocopsError(
    `cannot tell which GitHub account the token belongs to (${reason.replace(/\s+/g, ' ').trim()}): docops edits only a plan comment its own account wrote, so it wrote nothing`,
    cause === undefined ? undefined : { cause },
  );
}
