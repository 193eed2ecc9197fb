/**
 * Reads started before validation (src/core/prefetch.ts): every kind's prefetch is a read its fetch makes anyway
 * (never a read too many), a plan with them reads exactly what a plan without them reads, and only documents
 * that look like manifests start any.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { createFetchContext } from '../../src/core/fetch-context.js';
import { namedScopes, prefetchReads } from '../../src/core/prefetch.js';
import { computePlan } from '../../src/core/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/load.js';
import type { ParsedYamlDoc } from '../../src/manifests/parse-input.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { recordingClient, type ApiCall } from '../../src/scopes/needs.js';

const MANIFESTS = 'config.example/manifests';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function demo(): Promise<{ client: ApiClient; requests: () => number }> {
  const sandbox = await startSandbox({ seed: 'demo' });
  const client = createClient({ baseUrl: sandbox.url, token: sandbox.token, concurrency: 4 });
  closers.push(() => sandbox.close(), () => client.close());
  return { client, requests: () => sandbox.stats().total };
}

const keys = (calls: readonly ApiCall[]): string[] => calls.map((c) => `${c.method} ${c.path}`);

describe('each kind\'s prefetch', () => {
  for (const prune of [false, true]) {
    it(`is a subset of what its fetch reads (config.example's documents, prune ${prune})`, async () => {
      const { desired } = await loadManifests(MANIFESTS, KINDS, { env: {} });
      const { client } = await demo();
      let checked = 0;
      for (const kind of KINDS) {
        if (!kind.prefetch) continue;
        const entries = desired.get(kind.kind) ?? [];
        const org = entries[0]?.org ?? 'org-demo';
        // A kind config.example has no document of is read as a document without entries (what an empty one gives).
        if (kind.kind === 'Organization' && entries.length === 0) throw new Error('config.example must hold an Organization');
        const fetched: ApiCall[] = [];
        await kind.fetch(createFetchContext(recordingClient(client, fetched), () => prune), org, entries);
        const early: ApiCall[] = [];
        await Promise.all(prefetchReads(recordingClient(client, early), [{ kind, org }]).values());
        expect(early.length, kind.kind).toBeGreaterThan(0);
        expect(keys(fetched), kind.kind).toEqual(expect.arrayContaining(keys(early)));
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(8);
    });
  }
});

describe('a plan with prefetched reads', () => {
  it('reads exactly what a plan without them reads, each once', async () => {
    const { desired, documents } = await loadManifests(MANIFESTS, KINDS, { env: {} });
    const parsed = documents.map((d): ParsedYamlDoc => ({ file: d.file, index: d.index, value: { apiVersion: d.apiVersion, kind: d.kind, metadata: d.metadata, spec: d.spec }, pos: d.pos, keyPos: d.pos }));

    const plain = await demo();
    const plainReads: ApiCall[] = [];
    const without = await computePlan(recordingClient(plain.client, plainReads), KINDS, desired);

    const early = await demo();
    const earlyReads: ApiCall[] = [];
    const reading = recordingClient(early.client, earlyReads);
    const started = prefetchReads(reading, namedScopes(parsed, KINDS));
    // They go out on their own, before any plan is computed; the plan then reads none of them again.
    await Promise.all(started.values());
    const afterPrefetch = early.requests();
    const prefetched = started.size;
    const withReads = await computePlan(reading, KINDS, desired, { reads: started });

    expect(prefetched).toBeGreaterThan(3);
    expect(afterPrefetch).toBe(prefetched);
    expect(early.requests()).toBe(plain.requests());
    expect(keys(earlyReads).sort()).toEqual(keys(plainReads).sort());
    expect(new Set(keys(earlyReads)).size).toBe(earlyReads.length);
    expect(withReads.plan).toEqual(without.plan);
  });
});

describe('the loader', () => {
  it('hands over every file\'s documents as it is parsed, before validation fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docops-onparsed-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'a.yaml'), 'apiVersion: docops/v1\nkind: Members\nmetadata:\n  organization: org-1\nspec:\n  members: []\n');
    await writeFile(join(dir, 'b.yaml'), 'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-2\nspec:\n  title: 5\n');
    const handed: ParsedYamlDoc[] = [];
    await expect(loadManifests(dir, KINDS, { env: {}, onParsed: (docs) => handed.push(...docs) })).rejects.toThrow(/title/);
    expect(namedScopes(handed, KINDS).map((s) => `${s.kind.kind}/${s.org}`).sort()).toEqual(['Members/org-1', 'Team/org-2']);
  });
});

describe('namedScopes', () => {
  const parsed = (value: unknown): ParsedYamlDoc => ({ file: 'm.yaml', index: 0, value, pos: () => ({ file: 'm.yaml', line: 1, column: 1 }), keyPos: () => ({ file: 'm.yaml', line: 1, column: 1 }) });
  const m = (kind: unknown, org: unknown, apiVersion: unknown = 'docops/v1'): ParsedYamlDoc => parsed({ apiVersion, kind, metadata: { organization: org }, spec: {} });

  it('takes each (kind, organization) of manifest-like documents once, in the order first named', () => {
    const got = namedScopes([m('Team', 'org-a'), m('Members', 'org-a'), m('Team', 'org-a'), m('Team', 'org_b')], KINDS);
    expect(got.map((s) => `${s.kind.kind}/${s.org}`)).toEqual(['Team/org-a', 'Members/org-a', 'Team/org_b']);
  });

  it('ignores what is not a manifest: another apiVersion, an unknown kind, an organization that is no id, data files', () => {
    const got = namedScopes(
      [m('Team', 'org-a', 'v2'), m('Widget', 'org-a'), m('Team', '../admin'), m('Team', ''), m('Team', 42), m(7, 'org-a'), parsed({ openapi: '3.0.0', info: {} }), parsed(['a']), parsed(null)],
      KINDS,
    );
    expect(got).toEqual([]);
  });
});
