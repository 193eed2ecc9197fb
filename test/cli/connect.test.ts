/**
 * Connecting a token (issue 23, part 2): `docops whoami` says whose token it is and what it may do — from reads
 * only, naming the scope of every read the API refuses — and `docops orgs` lists the organizations it sees,
 * every page. Both run against the sandbox as against the real API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memberKey, members, orgs, startSandbox, TOKEN_USER_ID, type RunningSandbox } from '@docops/sandbox';
import { tokenNeeds } from '../../src/scopes/needs.js';
import { documentedScopes } from './docs-scopes.js';
import { runCli } from './run-cli.js';
import { liveCli } from './safety-cli-helpers.js';

const ADMIN = 'admin-secret-token';
const READ = 'read-secret-token';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((fn) => fn()));
});

async function sandboxWithReadToken(): Promise<RunningSandbox> {
  const sb = await startSandbox({ token: ADMIN, readToken: READ });
  closers.push(() => sb.close());
  return sb;
}

const cli = (sb: RunningSandbox, token: string, argv: string[]) =>
  runCli([...argv, '--api-url', sb.url, '--log-level', 'silent'], { DOCOPS_TOKEN: token });

interface Report {
  user: { id: string; email?: string };
  orgs: { id: string; title: string; admin: boolean; role: string | null }[];
  refused: { request: string; scopes: string[] }[];
}

describe('docops whoami', () => {
  it("names the token's user and its role and admin right in each organization, sending only GETs", async () => {
    const live = await liveCli();
    live.sb.resetStats();
    const text = await live.run(['whoami']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Token of Ada Admin <ada@acme\.test> \(user u-ada\)/);
    expect(text.stdout).toMatch(/^ {2}org-demo +Acme Docs +role admin +admin: plan, export and apply$/m);
    expect(text.stdout).toMatch(/^May: write/m);
    // What the API does not tell is said, not guessed.
    expect(text.stdout).toContain('the API does not say which OAuth scopes a token carries');
    expect(text.stdout).not.toContain(live.sb.token);
    const json = JSON.parse((await live.run(['whoami', '--format', 'json'])).stdout) as Report;
    expect(json.user).toMatchObject({ id: TOKEN_USER_ID, email: 'ada@acme.test' });
    expect(json.orgs).toEqual([{ id: 'org-demo', title: 'Acme Docs', admin: true, role: 'admin' }]);
    expect(json.refused).toEqual([]);
    expect(Object.keys(live.sb.stats().byMethod)).toEqual(['GET']);
  });

  it('the read-only token: its own user, a read member, not an admin — read only', async () => {
    const sb = await sandboxWithReadToken();
    const r = await cli(sb, READ, ['whoami']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\(user u-readonly\)/);
    expect(r.stdout).toMatch(
      /^ {2}org-demo +Acme Docs +role read +not an admin: plan and export \(apply needs an admin\)$/m,
    );
    expect(r.stdout).toMatch(/^May: read only/m);
    const json = JSON.parse((await cli(sb, READ, ['whoami', '--format', 'json'])).stdout) as Report;
    expect(json.orgs[0]).toMatchObject({ admin: false, role: 'read' });
  });

  it('--org narrows to one organization, and names one the token does not see as an error', async () => {
    const live = await liveCli();
    const one = JSON.parse((await live.run(['whoami', '--org', 'org-demo', '--format', 'json'])).stdout) as Report;
    expect(one.orgs.map((o) => o.id)).toEqual(['org-demo']);
    const unknown = await live.run(['whoami', '--org', 'org-nowhere']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'Error: --org org-nowhere: the token does not see organization "org-nowhere" (`docops orgs` lists those it sees)\n',
    );
  });

  it('a read the API refuses (403) is listed with the scope the spec gives it, the rest still reported, exit 1', async () => {
    // An API where the token may read its user but not list organizations (an OAuth token without organization:read).
    const server: Server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/user')
        return void res.end(
          JSON.stringify({ object: 'user', id: 'u-bot', displayName: 'Bot', urls: { location: 'x' } }),
        );
      res.statusCode = 403;
      res.end(JSON.stringify({ error: { code: 403, message: 'missing scope' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => void server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const r = await runCli(['whoami', '--api-url', url, '--log-level', 'silent'], { DOCOPS_TOKEN: 'some-token' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('(user u-bot)');
    expect(r.stdout).toContain('Organizations: not readable (GET /orgs refused, below).');
    expect(r.stdout).toMatch(/^ {2}GET \/orgs: needs organization:read — missing scope$/m);
  });
});

describe('the scopes docs/getting-started.md names', () => {
  it.each(['whoami', 'orgs'])('%s: the scopes of the requests it sends', async (command) => {
    const live = await liveCli();
    live.sb.resetStats();
    expect((await live.run([command])).code).toBe(0);
    const needs = tokenNeeds(live.sb.stats().requests.map((q) => ({ method: q.method, path: q.path })));
    expect(needs.personalTokenOnly).toEqual([]);
    expect(documentedScopes(command)).toEqual(needs.scopes);
  });
});

describe('docops orgs', () => {
  it('lists id and title of every organization the token sees, across pages, and none it does not', async () => {
    const live = await liveCli();
    const extra = 1001; // past one page of the API's largest limit (1000)
    const base = orgs(live.sb.store).get('org-demo')!;
    for (let i = 0; i < extra; i++) {
      const id = `org-${String(i).padStart(4, '0')}`;
      orgs(live.sb.store).put({ ...base, id, title: `Org ${i}` });
      members(live.sb.store).put({
        id: memberKey(id, TOKEN_USER_ID),
        orgId: id,
        userId: TOKEN_USER_ID,
        role: i % 2 === 0 ? 'admin' : 'read',
        disabled: false,
        joinedAt: base.createdAt,
        sso: false,
      });
    }
    orgs(live.sb.store).put({ ...base, id: 'org-elsewhere', title: 'Not a member' });
    live.sb.resetStats();
    const r = await live.run(['orgs', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as { id: string; title: string }[];
    expect(listed).toHaveLength(extra + 1);
    expect(listed).toContainEqual({ id: 'org-demo', title: 'Acme Docs' });
    expect(listed).toContainEqual({ id: 'org-1000', title: 'Org 1000' });
    expect(listed.map((o) => o.id)).not.toContain('org-elsewhere');
    expect(live.sb.stats().requests.filter((q) => q.path === '/v1/orgs')).toHaveLength(2);
  });

  it('prints aligned ID and TITLE columns', async () => {
    const sb = await sandboxWithReadToken();
    const r = await cli(sb, READ, ['orgs']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ID        TITLE\norg-demo  Acme Docs\n');
  });

  it('--sandbox works without a token, and the help names what init and export take', async () => {
    const r = await runCli(['orgs', '--sandbox', '--log-level', 'silent']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('org-demo');
    const help = await runCli(['orgs', '--help']);
    expect(help.stdout).toContain('docops init --org ID');
  });
});
