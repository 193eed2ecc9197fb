/**
 * Approvals in the daemon: a plan a require-approval rule fires on waits (status page, notifications) until it is
 * approved — by POST /approve with the approver token, or by a pull-request comment `/docops approve CHECKSUM` from
 * an active member of the approvers' GitHub team — and an approval applies only the plan it names: a change to the
 * manifests or to the live objects between approval and apply voids it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DocopsConfig } from '../../src/config/config.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { loadManifests } from '../../src/manifests/index.js';
import { loadPolicyPath } from '../../src/policy/load.js';
import { ORG, SUPPORT, startTestDaemon, teamYaml, writes, type TestDaemon } from '../daemon/helpers.js';
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js';
import { tempDir } from './helpers.js';

const APPROVER = 'approver-token-0123456789';
const tmp = tempDir('docops-approvals-');
afterAll(() => tmp.remove());

const POLICY = `approvers: { githubTeam: acme/security }
rules:
  - name: auditors-team
    when: change.kind == "Team" && change.key == "Auditors"
    outcome: require-approval
    message: The Auditors team is changed only with the security team's approval
`;

let current: TestDaemon | undefined;
let github: FakeGitHub | undefined;
afterEach(async () => {
  await current?.stop();
  await github?.close();
  current = undefined;
  github = undefined;
});

/** A hook the test sets to change something after an approval, before the run it starts reads anything. */
let beforeLoad: (() => Promise<void>) | undefined;

async function start(
  config: Partial<DocopsConfig> = {},
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): Promise<TestDaemon> {
  const policy = await loadPolicyPath(tmp.write(`policy-${Math.random().toString(36).slice(2)}.yaml`, POLICY));
  current = await startTestDaemon({
    files: { 'support.yaml': SUPPORT, 'auditors.yaml': teamYaml('Auditors', ['ada@acme.test']), ...files },
    config: { policy, approvals: { token: APPROVER }, reconcileSecret: 'reconcile-secret-0123456789', ...config },
    deps: {
      env: { ...env },
      loadManifests: async (dir, kinds, options) => {
        const hook = beforeLoad;
        beforeLoad = undefined;
        await hook?.();
        return loadManifests(dir, kinds, options);
      },
    },
  });
  return current;
}

async function api(d: TestDaemon, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${d.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${d.sandbox.token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

async function auditorsMembers(d: TestDaemon): Promise<string[] | undefined> {
  const teams = (await api(d, 'GET', `/orgs/${ORG}/teams?limit=1000`)) as { items: { id: string; title: string }[] };
  const team = teams.items.find((t) => t.title === 'Auditors');
  if (!team) return undefined;
  const members = (await api(d, 'GET', `/orgs/${ORG}/teams/${team.id}/members?limit=1000`)) as {
    items: { organization: { user: { email: string } } }[];
  };
  return members.items.map((m) => m.organization.user.email).sort();
}

async function approve(
  d: TestDaemon,
  body: unknown,
  token = APPROVER,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${d.daemon.url}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const waitingChecksum = (r: RunRecord): string => {
  expect(r.result).toBe('refused');
  expect(r.approval?.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
  return r.approval!.checksum;
};

describe('approvals in the daemon', () => {
  it('a plan that requires approval waits, visible on the status page; POST /approve of its checksum applies it', async () => {
    const d = await start();
    const first = d.daemon.runs.at(-1)!;
    const checksum = waitingChecksum(first);
    expect(first.violations).toEqual([expect.objectContaining({ rule: 'policy auditors-team' })]);
    expect(await auditorsMembers(d)).toBeUndefined(); // nothing written
    const writesBefore = writes(d.sandbox);

    expect(JSON.parse((await d.get('/readyz')).text)).toMatchObject({
      lastRun: { result: 'refused', approval: { checksum } },
    });
    const status = JSON.parse((await d.get('/api/status')).text) as {
      approval: { waiting: { checksum: string; rules: { rule: string }[] } };
    };
    expect(status.approval.waiting.checksum).toBe(checksum);
    expect(status.approval.waiting.rules.map((r) => r.rule)).toEqual(['auditors-team']);
    expect((await d.get('/')).text).toContain(`/docops approve ${checksum}`);

    // Only the approver token approves, and only the waiting plan's checksum.
    expect((await approve(d, { checksum }, 'reconcile-secret-0123456789')).status).toBe(401);
    const other = await approve(d, { checksum: 'sha256:' + '0'.repeat(64) });
    expect(other).toMatchObject({ status: 409, json: { waiting: checksum } });
    expect((await approve(d, { checksum: 'nope' })).status).toBe(400);
    expect(writes(d.sandbox)).toBe(writesBefore);

    const applied = d.nextRun();
    expect(await approve(d, { checksum, approver: 'ada' })).toMatchObject({
      status: 202,
      json: { approved: true, by: 'token:ada' },
    });
    const run = await applied;
    expect(run.result).toBe('success');
    expect(run.reasons).toContain('approval');
    expect(await auditorsMembers(d)).toEqual(['ada@acme.test']);
    const after = JSON.parse((await d.get('/api/status')).text) as {
      approval: { waiting: unknown; lastApplied: { checksum: string; by: string } };
    };
    expect(after.approval).toMatchObject({ waiting: null, lastApplied: { checksum, by: 'token:ada' } });
  });

  it('a change to the live objects between approval and apply voids the approval: nothing applied, the new plan waits', async () => {
    const d = await start();
    const approved = waitingChecksum(d.daemon.runs.at(-1)!);
    // After the approval, before the run it starts reads: someone creates the Auditors team by hand.
    beforeLoad = async () => void (await api(d, 'PUT', `/orgs/${ORG}/teams`, { title: 'Auditors' }));
    const next = d.nextRun();
    expect((await approve(d, { checksum: approved })).status).toBe(202);
    const run = await next;
    const now = waitingChecksum(run);
    expect(now).not.toBe(approved);
    expect(await auditorsMembers(d)).toEqual([]); // the team as created by hand: the approved plan's members step never ran
    // The new plan is approved on its own, then applied.
    const applied = d.nextRun();
    expect((await approve(d, { checksum: now })).status).toBe(202);
    expect((await applied).result).toBe('success');
    expect(await auditorsMembers(d)).toEqual(['ada@acme.test']);
  });

  it('a change to the manifests between approval and apply voids it too', async () => {
    const d = await start();
    const approved = waitingChecksum(d.daemon.runs.at(-1)!);
    beforeLoad = async () => d.write('auditors.yaml', teamYaml('Auditors', ['ada@acme.test', 'bob@acme.test']));
    const next = d.nextRun((r) => r.reasons.includes('approval'));
    expect((await approve(d, { checksum: approved })).status).toBe(202);
    const now = waitingChecksum(await next);
    expect(now).not.toBe(approved);
    expect(await auditorsMembers(d)).toBeUndefined();
  });

  it('a pull-request comment approves when its author is an active member of the team, and only for the checksum it names', async () => {
    const commit = 'c0ffee'.padEnd(40, '0');
    github = await startFakeGitHub({
      token: 'ghs_daemon_token_0123456789',
      accounts: {
        'tok-alice': { login: 'alice', type: 'User' },
        'tok-mallory': { login: 'mallory', type: 'User' },
        'tok-pat': { login: 'pat', type: 'User' },
      },
      owner: 'acme',
      repo: 'docs-org',
      issue: 12,
      pulls: { [commit]: [12] },
      teams: { 'acme/security': { alice: 'active', pat: 'pending' } },
    });
    // The manifests are a git checkout at `commit` (the commit the merged pull request made).
    const gitFiles = { 'support.yaml': SUPPORT };
    const d = await start(
      { approvals: { github: { repository: 'acme/docs-org', apiUrl: github.url, pollMs: 3_600_000 } } },
      { DOCOPS_GITHUB_TOKEN: 'ghs_daemon_token_0123456789' },
      gitFiles,
    );
    mkdirSync(join(d.dir, '.git'));
    writeFileSync(join(d.dir, '.git', 'HEAD'), `${commit}\n`);
    const checksum = waitingChecksum(d.daemon.runs.at(-1)!);
    const approvals = d.daemon.approvals!;

    await github.postAs('tok-mallory', `/docops approve ${checksum}`); // not a member
    await github.postAs('tok-pat', `/docops approve ${checksum}`); // invited, not active
    await github.postAs('tok-alice', `/docops approve sha256:${'1'.repeat(64)}`); // another plan
    await github.postAs('tok-alice', `LGTM /docops approve ${checksum}`); // not the command
    await approvals.check();
    expect(approvals.view().waiting?.checksum).toBe(checksum);
    expect(await auditorsMembers(d)).toBeUndefined();
    expect(github.requests).toContain('GET /orgs/acme/teams/security/memberships/mallory');

    await github.postAs('tok-alice', `/docops approve ${checksum}\nthe security team agrees`);
    const applied = d.nextRun();
    await approvals.check();
    const run = await applied;
    expect(run.result).toBe('success');
    expect(await auditorsMembers(d)).toEqual(['ada@acme.test']);
    expect(approvals.view().lastApplied).toMatchObject({
      checksum,
      by: 'github:alice',
      url: expect.stringContaining('#issuecomment-'),
    });
  });
});
