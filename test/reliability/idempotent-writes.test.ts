/**
 * Writes that are POSTs but whose repetition leaves the state one send leaves (RequestSpec.idempotent): moving a
 * space or a collection, moving a site space to another section, sections joining a group, turning SSO on. The
 * client retries them like a PUT after a 5xx or a reset — also when the server had processed the attempt — so
 * one apply converges, where a POST's first ambiguous failure used to fail its step and cost another apply.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, loadDesired, planAndApply, planOnce, tempDir } from '../helpers/pipeline.js';

let sandbox: RunningSandbox | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  sandbox = client = undefined;
});

/** config.example, then: Runbooks into Product docs, Internal under Product docs, frank on SSO, Changelog to the API section, Getting started into the group. */
function changedManifests(): { before: string; after: string } {
  const before = tempDir('idempotent-before');
  cpSync('config.example/manifests', before, { recursive: true });
  const after = tempDir('idempotent-after');
  cpSync('config.example/manifests', after, { recursive: true });
  const edit = (file: string, from: string, to: string): void => {
    const text = readFileSync(join(after, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${file} has no ${from}`);
    writeFileSync(join(after, file), text.replace(from, to));
  };
  edit('spaces.yaml', '  emoji: 🛠\n  parent: Internal', '  emoji: 🛠\n  parent: Product docs');
  edit(
    'spaces.yaml',
    '  title: Internal\n  id: col-internal\n',
    '  title: Internal\n  id: col-internal\n  parent: Product docs\n',
  );
  edit(
    'members.yaml',
    '{ email: frank@acme.test, role: comment }',
    '{ email: frank@acme.test, role: comment, sso: true }',
  );
  edit('site.yaml', '        - { space: Changelog, path: whats-new }\n', '');
  edit(
    'site.yaml',
    '        - { space: API Reference, path: reference }\n',
    '        - { space: API Reference, path: reference }\n        - { space: Changelog, path: whats-new }\n',
  );
  edit('site.yaml', 'sections: [api, operations]', 'sections: [getting-started, api, operations]');
  return { before, after };
}

describe('idempotent POSTs', () => {
  it('are marked so, and retried through a 502 or a reset that came after the server processed them', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = fastClient(sandbox);
    const dirs = changedManifests();
    expect((await planAndApply(client, await loadDesired(dirs.before))).report.failed).toEqual([]);
    const desired = await loadDesired(dirs.after);
    const plan = await planOnce(client, desired);
    const posts = plan.steps.flatMap((s) =>
      s.requests
        .filter((r) => r.method === 'POST')
        .map((r) => ({ step: s.id, path: r.path, idempotent: r.idempotent, recover: r.recover !== undefined })),
    );
    // Every POST of the plan is a create (recovered by identity) or marked idempotent; here all five are moves and sets.
    expect(posts.filter((p) => p.idempotent !== true && !p.recover)).toEqual([]);
    expect(posts).toHaveLength(5);

    // The first attempt of each POST is processed, then answered 502 (every other one) or its connection reset.
    const sb = sandbox;
    let n = 0;
    const faulty: ApiClient = {
      ...client,
      request: async (method, path, options) => {
        if (method !== 'POST') return client!.request(method, path, options);
        sb.setFaults(n++ % 2 === 0 ? '5xxAfter=1,max=1' : 'resetAfter=1,max=1');
        try {
          return await client!.request(method, path, options);
        } finally {
          sb.setFaults(undefined);
        }
      },
    };
    const report = await applyPlan(faulty, plan, { concurrency: 1 });
    expect(report.failed).toEqual([]);
    const log = sandbox.stats().requests.filter((r) => r.method === 'POST');
    expect(
      log
        .filter((r) => r.fault !== undefined)
        .map((r) => r.path.slice('/v1'.length))
        .sort(),
    ).toEqual(posts.map((p) => p.path).sort());
    expect(new Set(log.map((r) => r.fault))).toEqual(new Set(['5xxAfter', 'resetAfter', undefined]));
    expect(await planOnce(client, desired)).toMatchObject({ steps: [], blocked: [] });
  });
});
