/**
 * The API goes away in the middle of an apply. Apply must not grind through every remaining step with a full
 * retry budget each: the steps in flight finish (with their retries), every later step is not attempted ("API
 * unreachable"), the report says what was and was not applied, and `docops apply` exits 1. The rerun against
 * the API back with the same state converges. The API is taken away from an apply event (no sleeps).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { saveStateFile } from '../../packages/sandbox/src/state.js';
import { runCli } from '../cli/run-cli.js';
import { fastClient, loadDesired, planAndApply, planOnce, tempDir } from '../helpers/pipeline.js';
import { ADMIN_EMAIL, fillStore, readStore, worldManifests, writeManifests, type World } from '../helpers/world.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** 40 members (half change role), 10 stale teams, 12 translations. */
function liveWorld(): World {
  const members = Array.from({ length: 40 }, (_, i) => ({ email: `m${pad(i)}@acme.test`, role: 'read' as const }));
  const teams = Array.from({ length: 10 }, (_, i) => ({
    title: `Old team ${pad(i)}`,
    members: [{ email: `m${pad(i)}@acme.test`, role: 'member' as const }],
  }));
  return { members, teams, translations: Array.from({ length: 12 }, (_, i) => ({ title: `Old tr ${pad(i)}` })) };
}

/** Role changes, 10 invites, 30 new teams with members (some invited), new translations; the stale ones pruned. */
function desiredWorld(): World {
  const members = [
    { email: ADMIN_EMAIL, role: 'admin' as const },
    ...Array.from({ length: 40 }, (_, i) => ({
      email: `m${pad(i)}@acme.test`,
      role: i % 2 === 0 ? ('edit' as const) : ('read' as const),
    })),
    ...Array.from({ length: 10 }, (_, i) => ({ email: `n${pad(i)}@acme.test`, role: 'read' as const })),
  ];
  const teams = Array.from({ length: 30 }, (_, i) => ({
    title: `Team ${pad(i)}`,
    members: [
      { email: `m${pad(i)}@acme.test`, role: 'owner' as const },
      ...(i % 3 === 0 ? [{ email: `n${pad(i % 10)}@acme.test`, role: 'member' as const }] : []),
    ],
  }));
  return { members, teams, translations: Array.from({ length: 15 }, (_, i) => ({ title: `Tr ${pad(i)}` })) };
}

let sandbox: RunningSandbox | undefined;
let client: ApiClient | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  if (proxy?.listening) await new Promise<void>((resolve) => proxy!.close(() => resolve()));
  sandbox = client = proxy = undefined;
});

describe('the API goes away mid-apply', () => {
  it('finishes the steps in flight, does not attempt the rest, says so; the rerun against the restarted API converges', async () => {
    const dir = tempDir('gone');
    const stateFile = join(dir, 'state.json');
    sandbox = await startSandbox({ seed: 'empty', stateFile });
    fillStore(sandbox.store, liveWorld());
    saveStateFile(sandbox.store, stateFile);
    client = fastClient(sandbox);
    const manifests = join(dir, 'manifests');
    writeManifests(manifests, worldManifests(desiredWorld(), { prune: true, invite: true }));
    const desired = await loadDesired(manifests);
    const plan = await planOnce(client, desired, { prune: { Team: true, Translation: true } });
    expect(plan.steps.length).toBeGreaterThan(80);

    // The API goes away once a third of the steps are done: from an apply event, no timing involved.
    let done = 0;
    const gone = sandbox;
    const report = await applyPlan(client, plan, {
      concurrency: 8,
      onStep: (e) => {
        if (e.type === 'done' && ++done === Math.floor(plan.steps.length / 3)) void gone.close();
      },
    });

    expect(report.unreachable).toMatch(/ECONNREFUSED|other side closed|socket/i);
    expect(report.applied.length).toBeGreaterThanOrEqual(Math.floor(plan.steps.length / 3));
    // Only the steps in flight when the API went away were attempted and failed; nothing later was tried.
    expect(report.failed.length).toBeGreaterThan(0);
    expect(report.failed.length).toBeLessThanOrEqual(8);
    expect(report.skipped.length).toBeGreaterThan(plan.steps.length / 3);
    for (const id of report.skipped) expect(report.skipReasons[id], id).toBe('API unreachable');
    expect(report.applied.length + report.failed.length + report.skipped.length).toBe(plan.steps.length);

    // The API comes back with the same state: one apply converges, nothing was created twice.
    await client.close();
    sandbox = await startSandbox({ stateFile });
    client = fastClient(sandbox);
    const rerun = await planAndApply(client, desired, { prune: { Team: true, Translation: true } });
    expect(rerun.report.failed).toEqual([]);
    expect(await planOnce(client, desired, { prune: { Team: true, Translation: true } })).toMatchObject({ steps: [] });
    const live = readStore(sandbox.store);
    expect(Object.entries(live.teamIds).filter(([, ids]) => ids.length > 1)).toEqual([]);
    expect(live.teams.map((t) => t.title)).toEqual(desiredWorld().teams.map((t) => t.title));
    expect(live.translations.map((t) => t.title)).toEqual(desiredWorld().translations.map((t) => t.title));
  });

  it('`docops apply` exits 1 with what was applied, what failed and what was not attempted; the rerun converges', async () => {
    sandbox = await startSandbox({ seed: 'empty', token: 'gone-token' });
    fillStore(sandbox.store, liveWorld());
    const dir = tempDir('gone-cli');
    writeManifests(dir, worldManifests(desiredWorld(), { invite: true }));
    // A proxy in front of the sandbox that goes away (closes, refusing connections) after its 5th write answer.
    const target = sandbox.origin;
    let writes = 0;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const headers: Record<string, string> = { authorization: req.headers.authorization ?? '' };
        if (body) headers['content-type'] = 'application/json';
        fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) }).then(
          async (r) => {
            const text = await r.text();
            res.writeHead(r.status, { 'content-type': 'application/json' });
            res.end(text);
            if (req.method !== 'GET' && ++writes === 5) {
              server.close();
              server.closeAllConnections();
            }
          },
          () => res.destroy(),
        );
      });
    });
    proxy = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const args = ['apply', '-m', dir, '--log-level', 'silent', '--concurrency', '2', '--force'];

    const r = await runCli([...args, '--api-url', apiUrl], { DOCOPS_TOKEN: 'gone-token' });
    expect(r.code).toBe(1);
    const head = /^Apply stopped, the API is unreachable: (\d+) applied, (\d+) failed, (\d+) skipped\.$/m.exec(
      r.stdout,
    );
    expect(head, r.stdout).not.toBeNull();
    const [applied, failed, skipped] = [Number(head![1]), Number(head![2]), Number(head![3])];
    expect(applied).toBeGreaterThanOrEqual(5);
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThanOrEqual(2);
    expect(skipped).toBeGreaterThan(20);
    expect(r.stdout).toMatch(/^ {2}○ \S+.* \(not attempted: API unreachable\)$/m);
    expect(r.stderr).toMatch(/^Error: the API became unreachable, apply stopped: /m);

    const again = await runCli([...args, '--api-url', sandbox.url], { DOCOPS_TOKEN: 'gone-token' });
    expect(again.code, again.stderr).toBe(0);
    const plan = await runCli(
      ['plan', '-m', dir, '--log-level', 'silent', '--detailed-exitcode', '--api-url', sandbox.url],
      { DOCOPS_TOKEN: 'gone-token' },
    );
    expect(plan.code, plan.stdout).toBe(0);
  });
});
