/**
 * A stand-in for the GitHub REST API on 127.0.0.1: an issue's comments (listed a few per page with a `Link`
 * header, as GitHub paginates), creating and editing one. Only what `docops pr-comment` calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  /** `METHOD path` of every request. */
  requests: string[];
  /** When each of `requests` arrived (performance.now()), for timings. */
  requestTimes: number[];
  close(): Promise<void>;
}

export async function startFakeGitHub(options: { token: string; owner: string; repo: string; issue: number; perPage?: number }): Promise<FakeGitHub> {
  const perPage = options.perPage ?? 2;
  const comments: FakeComment[] = [];
  const requests: string[] = [];
  const requestTimes: number[] = [];
  let nextId = 1000;
  let url = '';
  const base = `/repos/${options.owner}/${options.repo}/issues`;
  const shown = (c: FakeComment): object => ({ ...c, html_url: `https://github.test/${options.owner}/${options.repo}/pull/${options.issue}#issuecomment-${c.id}` });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = new URL(req.url ?? '/', 'http://x');
      requests.push(`${req.method} ${at.pathname}`);
      requestTimes.push(performance.now());
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `token ${options.token}` && req.headers.authorization !== `bearer ${options.token}`) return send(401, { message: 'Bad credentials' });
      const input = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body?: unknown }) : {};
      if (at.pathname === `${base}/${options.issue}/comments` && req.method === 'GET') {
        const page = Number(at.searchParams.get('page') ?? '1');
        const slice = comments.slice((page - 1) * perPage, page * perPage);
        const last = Math.max(1, Math.ceil(comments.length / perPage));
        const link: Record<string, string> = page < last ? { link: `<${url}${at.pathname}?per_page=100&page=${page + 1}>; rel="next", <${url}${at.pathname}?per_page=100&page=${last}>; rel="last"` } : {};
        return send(200, slice.map(shown), link);
      }
      if (at.pathname === `${base}/${options.issue}/comments` && req.method === 'POST') {
        if (typeof input.body !== 'string' || input.body.length > 65_536) return send(422, { message: 'Validation Failed' });
        const c = { id: nextId++, body: input.body, user: { login: 'github-actions[bot]', type: 'Bot' } };
        comments.push(c);
        return send(201, shown(c));
      }
      const edit = new RegExp(`^${base}/comments/(\\d+)$`).exec(at.pathname);
      if (edit && req.method === 'PATCH') {
        const c = comments.find((x) => x.id === Number(edit[1]));
        if (!c) return send(404, { message: 'Not Found' });
        if (typeof input.body !== 'string' || input.body.length > 65_536) return send(422, { message: 'Validation Failed' });
        c.body = input.body;
        return send(200, shown(c));
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    comments,
    requests,
    requestTimes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
