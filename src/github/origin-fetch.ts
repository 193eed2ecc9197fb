/**
 * The fetch every GitHub request of docops goes through: it sends to the GitHub API's own origin only.
 *  - A request for another origin is not sent (a pagination `Link` header could name one, and octokit would
 *    send the token there).
 *  - Redirects are followed by hand (`redirect: 'manual'`), within that origin only: GitHub answers a renamed or
 *    moved repository with 301 (reads) or 307 (writes) to the same origin. One to another origin fails the
 *    request with its status — fetch would have re-sent the plan there and trusted the answer (it drops only the
 *    Authorization header) — and so does a chain of more than MAX_REDIRECTS.
 * Method and body change as fetch changes them (a 303, or a 301/302 after a POST, becomes a GET without a body).
 */
import { isRedirect } from '../api/response.js';
import { ApiError } from '../model/errors.js';

export const MAX_REDIRECTS = 5;

export function originBoundFetch(origin: string, send: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : input);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers = new Headers(init.headers);
    for (let redirects = 0; ; redirects++) {
      if (url.origin !== origin)
        throw new ApiError(
          method,
          url.pathname,
          undefined,
          `not sent: ${url.origin} is not the GitHub API's origin (${origin}), and the token goes nowhere else`,
        );
      const res = await send(url, { ...init, method, body, headers, redirect: 'manual' });
      if (!isRedirect(res.status)) return res;
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (location === null)
        throw new ApiError(method, url.pathname, res.status, 'answered a redirect without a Location');
      const next = new URL(location, url);
      if (next.origin !== origin) {
        throw new ApiError(
          method,
          url.pathname,
          res.status,
          `answered a redirect to another origin (${next.origin}), which docops does not follow: the token and the plan go only to ${origin}`,
        );
      }
      if (redirects === MAX_REDIRECTS)
        throw new ApiError(method, url.pathname, res.status, `redirected more than ${MAX_REDIRECTS} times`);
      if (
        (res.status === 303 && method !== 'HEAD') ||
        ((res.status === 301 || res.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      url = next;
    }
  };
}
