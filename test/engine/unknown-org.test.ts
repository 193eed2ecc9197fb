/**
 * How fetchLive learns that an organization is unknown (src/engine/unknown-org.ts): only from a 404 of the
 * organization's own GET or of one of its lists, confirmed by the organization's GET; any other failure fails the
 * read as before.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { ApiError } from '../../src/model/errors.js';
import type { DesiredEntry, KindDefinition } from '../../src/model/kind.js';
import { diffAll, fetchLive } from '../../src/engine/reconcile.js';
import { desiredState } from '../../src/model/state.js';
import type { ManifestDocument } from '../../src/model/document.js';
import { fakeDoc } from '../kinds/helpers.js';

/** A client whose answers are 404 for the paths `missing` says, an empty list or object otherwise. */
function client(missing: (path: string) => boolean): ApiClient & { gets: string[] } {
  const fail = (path: string): never => {
    throw new ApiError('GET', path, 404, 'not found');
  };
  const self = {
    baseUrl: 'memory://',
    gets: [] as string[],
    request: () => Promise.reject(new Error('no writes here')),
    async get<T>(path: string): Promise<T> {
      self.gets.push(path);
      return missing(path) ? fail(path) : ({} as T);
    },
    async *paginate<T>(): AsyncIterable<T> {},
    async listAll<T>(path: string): Promise<T[]> {
      self.gets.push(path);
      return missing(path) ? fail(path) : [];
    },
    async close() {},
  };
  return self;
}

/** A kind whose fetch reads `read(org)` (a list), and plans nothing. */
const kind = (name: string, read: (org: string) => string): KindDefinition => ({
  kind: name,
  identity: 'by name',
  schema: {},
  depth: 0,
  toDesired: () => [],
  fetch: async (ctx, org) => ({ objects: [], aux: await ctx.list(read(org)) }),
  diff: () => ({ steps: [], unmanaged: [], warnings: [], blocked: [] }),
});

const docs = new Map<DesiredEntry, ManifestDocument>();
const entry = (k: string, org: string, key: string, file: string): DesiredEntry => {
  const doc = fakeDoc(k, org, { title: key }, file);
  const e = { kind: k, org, key, spec: {}, source: doc.pos(['spec']), doc };
  docs.set(e, doc);
  return e;
};

const TEAMS = kind('Team', (org) => `/orgs/${org}/teams`);
const SECTIONS = kind('Site', (org) => `/orgs/${org}/sites/site-1/sections`);
const desired = (...entries: DesiredEntry[]) => {
  const byKind = new Map<string, DesiredEntry[]>();
  for (const e of entries) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
  return desiredState(
    byKind,
    entries.map((e) => docs.get(e)!),
  );
};

describe('an unknown organization, in fetchLive', () => {
  it('a 404 of its list confirmed by a 404 of its GET blocks its documents; the other organization plans', async () => {
    const api = client((p) => p.startsWith('/orgs/org-x'));
    const state = desired(entry('Team', 'org-x', 'A', 'x.yaml'), entry('Team', 'org-ok', 'B', 'ok.yaml'));
    const live = await fetchLive(api, [TEAMS], state);
    expect(api.gets.sort()).toEqual(['/orgs/org-ok/teams', '/orgs/org-x', '/orgs/org-x/teams']);
    const plan = diffAll([TEAMS], state, live);
    expect(plan.blocked).toEqual([
      expect.objectContaining({
        kind: 'Team',
        org: 'org-x',
        key: 'A',
        source: expect.objectContaining({ file: 'x.yaml' }),
        message: expect.stringContaining('organization "org-x" was not found'),
      }),
    ]);
  });

  it('a 404 of a list of an organization whose GET answers is the error it was', async () => {
    const api = client((p) => p === '/orgs/org-x/teams');
    await expect(fetchLive(api, [TEAMS], desired(entry('Team', 'org-x', 'A', 'x.yaml')))).rejects.toThrow(
      'GET /orgs/org-x/teams failed with 404',
    );
    expect(api.gets).toContain('/orgs/org-x');
  });

  it('a 404 below one of its objects is about that object: thrown, the organization not asked about', async () => {
    const api = client(() => true);
    await expect(fetchLive(api, [SECTIONS], desired(entry('Site', 'org-x', 'S', 's.yaml')))).rejects.toThrow(
      'GET /orgs/org-x/sites/site-1/sections failed with 404',
    );
    expect(api.gets).toEqual(['/orgs/org-x/sites/site-1/sections']);
  });
});
