/**
 * Where a request goes (client.ts): its route, the path below /v1 without any query string (queries may carry
 * share keys, so logs and errors name the route), and the target sent, with the query appended.
 */
import { DocopsError } from '../model/errors.js';
import type { RequestOptions } from '../model/api-client.js';

export function requestTarget(
  basePath: string,
  method: string,
  path: string,
  query: RequestOptions['query'],
): { route: string; target: string } {
  if (!path.startsWith('/')) throw new TypeError(`API path must start with "/": ${path}`);
  const route = routeOf(path);
  // The last line of defence for ids in paths (kinds encode and check each one): a request never leaves the
  // resource it was planned for through an empty, `.` or `..` segment, encoded or not.
  if (route.split('/').some((segment, i) => i > 0 && (segment === '' || /^(\.|%2e){1,2}$/i.test(segment)))) {
    throw new DocopsError(`refusing to send ${method} ${route}: a path segment is empty, "." or ".."`);
  }
  const text = queryString(query);
  return { route, target: basePath + path + (path.includes('?') && text !== '' ? `&${text.slice(1)}` : text) };
}

/** The path below /v1 without any query string (queries may carry share keys). */
function routeOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

function queryString(query: RequestOptions['query']): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
