/**
 * A stand-in for the GitHub API on 127.0.0.1: an issue's comments (listed a few per page with a `Link` header, as
 * GitHub paginates), creating and editing one, and `POST /graphql` answering `query { viewer { login } }`. Only
 * what `docops pr-comment` calls.
 *
 * Each token is an account, and answers are GitHub's: a comment's REST `user.login` is the account's login, bots
 * included (`github-actions[bot]` for a workflow's GITHUB_TOKEN, `<app-slug>[bot]` for an app's installation
 * token), and GraphQL's `viewer.login` for the same token is that same login, `[bot]` suffix and all (GraphQL's
 * `author.login` on a comment drops the suffix; docops does not read it). Another account (`accounts`) can post
 * comments through the same API: the spoofer of the tests.
 *
 * For approvals read by the daemon (src/github/approvals.ts): the pull requests of a commit
 * (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`, from `pulls`) and team memberships
 * (`GET /orgs/{org}/teams/{team_slug}/memberships/{username}`, from `teams`: 404 for a non-member, as GitHub answers).
 *
 * For drift proposals (src/github/drift-pr.ts): a repository's branches, files, commits and pull requests, from
 * `repository` (fake-repo.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeRepo } from './fake-repo.js';

export interface Account {
  login: string;
  type: 'Bot' | 'User';
}

export interface FakeComment {
  id: number;
  body: string;
  user: Account;
}

/** A test's own answer to a request, before the fake's routes: e.g. a redirect. */
export type Intercept = (request: {
  method: string;
  pathname: string;
  base: string;
}) => { status: number; headers?: Record<string, string> } | undefined;

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  /** `METHOD path` of every request. */
  requests: string[];
  /** Answers before the routes when it returns something (set it at any time). */
  intercept: Intercept | undefined;
  /** Post a comment as the account of `token` through the API, as anyone who can comment on the pull request can. */
  postAs(token: string, body: string): Promise<FakeComment>;
  /** When each of `requests` arrived (performance.now()), for timings. */
  requestTimes: number[];
  close(): Promise<void>;
}

export const ACTIONS_BOT: Account = { login: 'github-actions[bot]', type: 'Bot' };

export interface FakeGitHubOptions {
  /** docops's token. */
  token: string;
  /** Whom `token` authenticates (default github-actions[bot], GITHUB_TOKEN's account). */
  account?: Account;
  /** Other tokens and their accounts. */
  accounts?: Record<string, Account>;
  owner: string;
  repo: string;
  issue: number;
  perPage?: number;
  /** When set, GraphQL answers 200 with these errors and no data, as it does for a token lacking access. */
  graphqlErrors?: string[];
  /** Where the `Link` header's page URLs point (default: this server). */
  linkBase?: string;
  /** Commit sha → the numbers of its pull requests. */
  pulls?: Record<string, number[]>;
  /** `org/team-slug` → login → membership state. */
  teams?: Record<string, Record<string, 'active' | 'pending'>>;
  /** A repository whose git and pull-request routes the fake answers (drift proposals). */
  repository?: FakeRepo;
}

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const perPage = options.perPage ?? 2;
  const accounts = new Map<string, Account>([
    ...Object.entries(options.accounts ?? {}),
    [options.token, options.account ?? ACTIONS_BOT],
  ]);
  const comments: FakeComment[] = [];
  const requests: string[] = [];
  const requestTimes: number[] = [];
  let nextId = 1000;
  let url = '';
  const base = `/repos/${options.owner}/${options.repo}/issues`;
  const shown = (c: FakeComment): object => ({
    ...c,
    html_url: `https://github.test/${options.owner}/${options.repo}/pull/${options.issue}#issuecomment-${c.id}`,
  });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      requests.push(`${method} ${at.pathname}`);
      requestTimes.push(performance.now());
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      const own = fake.intercept?.({ method, pathname: at.pathname, base });
      if (own) return void res.writeHead(own.status, { 'content-length': '0', ...own.headers }).end();
      const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const account = token === undefined ? undefined : accounts.get(token);
      if (!account) return send(401, { message: 'Bad credentials' });
      const input =
        chunks.length > 0
          ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body?: unknown; query?: unknown })
          : {};
      const inRepo = options.repository?.handle(method, at.pathname, at.searchParams, input as Record<string, unknown>);
      if (inRepo) return inRepo.status === 204 ? void res.writeHead(204).end() : send(inRepo.status, inRepo.body);
      if (at.pathname === '/graphql' && method === 'POST') {
        if (options.graphqlErrors)
          return send(200, {
            data: null,
            errors: options.graphqlErrors.map((message) => ({ type: 'FORBIDDEN', message })),
          });
        if (typeof input.query !== 'string' || !/\bviewer\s*\{\s*login\s*\}/.test(input.query))
          return send(200, { errors: [{ message: 'the fake answers only viewer { login }' }] });
        return send(200, { data: { viewer: { login: account.login } } });
      }
      if (at.pathname === `${base}/${options.issue}/comments` && method === 'GET') {
        const page = Number(at.searchParams.get('page') ?? '1');
        const slice = comments.slice((page - 1) * perPage, page * perPage);
        const last = Math.max(1, Math.ceil(comments.length / perPage));
        const pages = options.linkBase ?? url;
        const link: Record<string, string> =
          page < last
            ? {
                link: `<${pages}${at.pathname}?per_page=100&page=${page + 1}>; rel="next", <${pages}${at.pathname}?per_page=100&page=${last}>; rel="last"`,
              }
            : {};
        return send(200, slice.map(shown), link);
      }
      if (at.pathname === `${base}/${options.issue}/comments` && method === 'POST') {
        if (typeof input.body !== 'string' || input.body.length > 65_536)
          return send(422, { message: 'Validation Failed' });
        const c = { id: nextId++, body: input.body, user: account };
        comments.push(c);
        return send(201, shown(c));
      }
      const commitPulls = new RegExp(`^/repos/${options.owner}/${options.repo}/commits/([0-9a-f]{40})/pulls$`).exec(
        at.pathname,
      );
      if (commitPulls && method === 'GET')
        return send(
          200,
          (options.pulls?.[commitPulls[1]!] ?? []).map((number) => ({ number, state: 'closed' })),
        );
      const membership = /^\/orgs\/([^/]+)\/teams\/([^/]+)\/memberships\/([^/]+)$/.exec(at.pathname);
      if (membership && method === 'GET') {
        const state = options.teams?.[`${membership[1]}/${membership[2]}`]?.[decodeURIComponent(membership[3]!)];
        return state ? send(200, { state, role: 'member' }) : send(404, { message: 'Not Found' });
      }
      const edit = new RegExp(`^${base}/comments/(\\d+)$`).exec(at.pathname);
      if (edit && method === 'PATCH') {
        const c = comments.find((x) => x.id === Number(edit[1]));
        if (!c) return send(404, { message: 'Not Found' });
        // As on GitHub, a token with write access to the repository may edit anyone's comment: what makes a
        // spoofed marker dangerous (docops would write into a comment its author can edit again later).
        if (typeof input.body !== 'string' || input.body.length > 65_536)
          return send(422, { message: 'Validation Failed' });
        c.body = input.body;
        return send(200, shown(c));
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeGitHub = {
    url,
    comments,
    requests,
    requestTimes,
    intercept: undefined,
    async postAs(token, body) {
      const res = await fetch(`${url}${base}/${options.issue}/comments`, {
        method: 'POST',
        headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body }),
      });
      if (res.status !== 201) throw new Error(`the fake GitHub refused the comment: ${res.status}`);
      return comments.at(-1)!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
