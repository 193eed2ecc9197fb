/**
 * The GitHub client of `docops pr-comment`: @octokit/core with its paginate plugin (imported here, on first use,
 * so only that command loads them), sending through originBoundFetch (the API's origin only, redirects within
 * it), and failing with ApiError: `METHOD /path failed with STATUS: GitHub's message`, never octokit's
 * RequestError (which carries the request, body included).
 */
import type { Octokit } from '@octokit/core';
import type { PaginateInterface } from '@octokit/plugin-paginate-rest';
import { ApiError, DocopsError } from '../model/errors.js';
import { originBoundFetch } from './origin-fetch.js';

export type GitHub = Octokit & { paginate: PaginateInterface };

export async function createGitHub(apiUrl: string, token: string): Promise<GitHub> {
  const [{ Octokit }, { paginateRest }] = await Promise.all([
    import('@octokit/core'),
    import('@octokit/plugin-paginate-rest'),
  ]);
  const baseUrl = apiUrl.replace(/\/+$/, '');
  const GitHubClient = Octokit.plugin(paginateRest);
  const github = new GitHubClient({
    auth: token,
    baseUrl,
    userAgent: 'docops',
    request: { fetch: originBoundFetch(new URL(baseUrl).origin) },
  });
  github.hook.error('request', (error) => {
    throw asTypedError(error);
  });
  return github;
}

interface RequestErrorShape {
  status: number;
  message: string;
  request: { method: string; url: string };
  response?: unknown;
  cause?: unknown;
}

const isRequestError = (e: unknown): e is RequestErrorShape =>
  e instanceof Error &&
  typeof (e as Partial<RequestErrorShape>).status === 'number' &&
  typeof (e as Partial<RequestErrorShape>).request?.url === 'string';

function asTypedError(error: unknown): unknown {
  // octokit wraps what its fetch throws (originBoundFetch's refusals) in a RequestError: unwrap ours.
  if (error instanceof Error && error.cause instanceof DocopsError) return error.cause;
  if (!isRequestError(error)) return error;
  // Without a response the status is octokit's 500 for a failed fetch: no answer arrived.
  const status = error.response === undefined ? undefined : error.status;
  return new ApiError(error.request.method, new URL(error.request.url).pathname, status, error.message);
}
