/**
 * The kinds' journal snapshots and undo hooks against the sandbox: what each snapshot reads (everything the
 * delete takes along, never a secret), when a space can be restored, how recreated objects are named in the
 * documents of the others, and what each kind says does not come back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import { ApiError } from '../../src/model/errors.js';
import { createFetchContext } from '../../src/engine/fetch-context.js';
import type { KindDefinition, LiveObject, Snapshot, UndoFate } from '../../src/model/kind.js';
import { emptyPlan, type Step } from '../../src/model/plan.js';
import { fetchLive } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { DEMO_ORG_ID, startSandbox, type RunningSandbox } from '@docops/sandbox';
import { siteShareLinks, sites } from '../../packages/sandbox/src/site-records.js';
import { objectId, undoRecords, collectParts } from '../../src/safety/undo.js';
import { fastClient, loadDesired, planAndApply } from '../helpers/pipeline.js';
import { desiredFromFiles, filesYaml, undoFiles, withoutUnknownValues } from '../../src/undo/documents.js';
import type { JournalRecord } from '../../src/safety/journal.js';
import { field } from './helpers.js';

const ORG = DEMO_ORG_ID;
const kind = (name: string): KindDefinition => KINDS.find((k) => k.kind === name)!;

interface World {
  sb: RunningSandbox;
  client: ApiClient;
  clock: { now: Date };
}
const open: World[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) {
    await w.client.close();
    await w.sb.close();
  }
});

/** The demo org with the example manifests applied (a site with sections, a group, a share link, an adaptive schema). */
async function world(): Promise<World> {
  const clock = { now: new Date() };
  const sb = await startSandbox({ now: () => clock.now });
  const client = fastClient(sb);
  open.push({ sb, client, clock });
  const { report } = await planAndApply(client, await loadDesired('config.example/manifests'));
  expect(report.failed).toEqual([]);
  return { sb, client, clock };
}

/** A live object of `kind` as its fetch reads it for a plan that manages nothing of it. */
async function liveObject(w: World, kindName: string, key: string): Promise<LiveObject> {
  const live = await fetchLive(
    w.client,
    KINDS,
    new Map([[kindName, kind(kindName).toDesired(probeDoc(kindName), () => {})]]),
  );
  const o = live.get(`${kindName}\u0000${ORG}`)!.objects.find((x) => x.kind === kindName && x.key === key);
  if (!o) throw new Error(`no live ${kindName} ${key}`);
  return o;
}

/** A document of the kind that matches nothing (so the fetch reads the list only). */
function probeDoc(kindName: string) {
  const spec =
    kindName === 'Members' ? { members: [{ email: 'zz@nowhere.test', role: 'read' }] } : { title: 'zz no such object' };
  return {
    file: 'probe.yaml',
    index: 0,
    apiVersion: 'docops/v1',
    kind: kindName,
    metadata: { organization: ORG },
    spec,
    pos: () => ({ file: 'probe.yaml', line: 1, column: 1 }),
  };
}

const snapshot = (w: World, o: LiveObject): Promise<Snapshot> =>
  kind(o.kind).snapshot!(
    createFetchContext(w.client, () => false),
    o,
  );

const journaled = (o: LiveObject, state: Snapshot): JournalRecord => ({
  v: 2,
  time: '2030-01-01T00:00:00.000Z',
  stepId: `${o.kind}/${ORG}/${o.key}#delete`,
  phase: 'prune',
  action: 'delete',
  kind: o.kind,
  org: ORG,
  key: o.key,
  objectKey: o.key,
  id: o.id,
  fields: o.fields as JournalRecord['fields'],
  snapshot: 'complete',
  state,
});

describe('snapshots', () => {
  it('Team: its members with their team roles, although no manifest manages them', async () => {
    const w = await world();
    const team = await liveObject(w, 'Team', 'Platform');
    expect(field(team, 'members')).toBeUndefined();
    const s = await snapshot(w, team);
    expect(s['Team']!.objects).toEqual([
      {
        ...team,
        fields: {
          title: 'Platform',
          members: [
            { email: 'ada@acme.test', userId: 'u-ada', role: 'owner' },
            { email: 'bob@acme.test', userId: 'u-bob', role: 'member' },
            { email: 'carol@acme.test', userId: 'u-carol', role: 'member' },
          ],
        },
      },
    ]);
  });

  it('Members: role, SSO and the teams the removal takes along (GET …/members/{id}/teams)', async () => {
    const w = await world();
    const s = await snapshot(w, await liveObject(w, 'Members', 'heidi@acme.test'));
    expect(s['Members']!.objects.map((o) => o.fields)).toEqual([
      { email: 'heidi@acme.test', role: 'edit', sso: false },
    ]);
    expect(s['Members']!.aux).toEqual({
      teams: { 'u-heidi': [{ id: 'team-writers', title: 'Writers', role: 'owner' }] },
      spaces: { 'u-heidi': 0 },
    });
  });

  it('Collection: the nested collections and every space inside them, with their ids', async () => {
    const w = await world();
    const nested = (
      await w.client.request<{ id: string }>('POST', `/orgs/${ORG}/collections`, {
        body: { title: 'Nested', parent: 'col-product' },
      })
    ).body!.id;
    const inner = (
      await w.client.request<{ id: string }>('POST', `/orgs/${ORG}/spaces`, { body: { title: 'Deep', parent: nested } })
    ).body!.id;
    const s = await snapshot(w, await liveObject(w, 'Collection', 'Product docs'));
    expect(s['Collection']!.objects.map((o) => [o.key, o.id, field(o, 'parent')])).toEqual([
      ['Product docs', 'col-product', null],
      ['Nested', nested, 'col-product'],
    ]);
    expect(s['Space']!.objects.map((o) => [o.key, o.id, field(o, 'parent')])).toEqual([
      ['Getting Started', 'sp-getting-started', 'col-product'],
      ['API Reference', 'sp-api', 'col-product'],
      ['Deep', inner, nested],
    ]);
  });

  it('fails when the object is gone since the plan was made (the delete is then not sent)', async () => {
    const w = await world();
    const internal = await liveObject(w, 'Collection', 'Internal');
    const team = await liveObject(w, 'Team', 'Support');
    await w.client.request('DELETE', '/collections/col-internal');
    await w.client.request('DELETE', `/orgs/${ORG}/teams/team-support`);
    await expect(snapshot(w, internal)).rejects.toThrow(
      'collection col-internal is not in the collections list of org-demo',
    );
    await expect(snapshot(w, team)).rejects.toThrow(/404/);
  });

  it('Space: its fields (merge rules too), visibility and the sites that show it', async () => {
    const w = await world();
    const s = await snapshot(w, await liveObject(w, 'Space', 'Changelog'));
    expect(s['Space']!.objects.map((o) => o.fields)).toEqual([
      {
        title: 'Changelog',
        emoji: '📝',
        editMode: 'live',
        defaultLevel: null,
        parent: null,
        mergeRules: { type: 'inherit' },
      },
    ]);
    const siteId = sites(w.sb.store).all()[0]!.id;
    // Its grants too (none here): a recreated space gets them back through its access list.
    expect(s['Space']!.aux).toEqual({
      visibility: { 'sp-changelog': 'private' },
      shownBy: { 'sp-changelog': [{ siteId, siteTitle: 'Acme Help Center', path: 'whats-new' }] },
      access: { 'sp-changelog': [] },
    });
  });

  it('Site: settings, sections, groups, site spaces, share links (never their secret), the adaptive schema and the customization', async () => {
    const w = await world();
    const site = await liveObject(w, 'Site', 'Acme Help Center');
    await w.client.request('PATCH', `/orgs/${ORG}`, { body: { defaultContent: { type: 'site', site: site.id } } });
    const { updatedAt: _stamp, ...looks } = await w.client.get<Record<string, unknown>>(
      `/orgs/${ORG}/sites/${site.id}/customization`,
    );
    await w.client.request('PUT', `/orgs/${ORG}/sites/${site.id}/customization`, {
      body: { ...looks, title: 'Acme Docs' },
    });
    const s = await snapshot(w, site);
    expect(s['Site']!.objects).toEqual([site]);
    const aux = s['Site']!.aux as { structures: Record<string, Record<string, unknown>>; extras: unknown };
    const structure = aux.structures[site.id]!;
    expect((structure['sections'] as { path: string; group: string | null }[]).map((x) => x.path)).toEqual([
      'getting-started',
      'api',
      'operations',
    ]);
    expect((structure['groups'] as { title: string }[]).map((g) => g.title)).toEqual(['Developers']);
    expect(
      (structure['siteSpaces'] as { spaceId: string; path: string }[]).map((x) => `${x.spaceId}@${x.path}`),
    ).toEqual([
      'sp-getting-started@getting-started',
      'sp-changelog@whats-new',
      'sp-api@reference',
      'sp-runbooks@runbooks',
    ]);
    expect(structure['shareLinks']).toEqual([
      { id: siteShareLinks(w.sb.store).all()[0]!.id, name: 'partner-preview', active: true },
    ]);
    expect(structure['adaptiveSchema']).toMatchObject({ properties: { staff: { type: 'boolean' } } });
    expect(structure['customization']).toMatchObject({ title: 'Acme Docs' });
    // Undo's documents (the kind's export of the snapshot) bring the customization back.
    expect(kind('Site').export!(ORG, s['Site']!)).toMatchObject([{ spec: { customization: { title: 'Acme Docs' } } }]);
    expect(aux.extras).toEqual({
      [site.id]: { published: false, hostname: null, type: 'basic', defaultContent: true },
    });
    const secret = siteShareLinks(w.sb.store).all()[0]!.secret;
    expect(JSON.stringify(s)).not.toContain(secret);
  });
});

describe('restoring a deleted space', () => {
  const restore = async (w: World, o: LiveObject, state: Snapshot) =>
    kind('Space').undo!.restore!(
      createFetchContext(w.client, () => false),
      o,
      state['Space']!,
      new Date(),
    );

  it('is possible within the retention: the restore request, and how the API lists the space afterwards', async () => {
    const w = await world();
    const space = await liveObject(w, 'Space', 'Runbooks');
    const state = await snapshot(w, space);
    expect(await restore(w, space, state)).toEqual({ state: 'live' });
    await w.client.request('DELETE', '/spaces/sp-runbooks');
    const check = await restore(w, space, state);
    expect(check.state).toBe('restorable');
    if (check.state !== 'restorable') return;
    // After a lost answer the restore is found done when the space is listed again (a second one is refused).
    const recover = { path: `/orgs/${ORG}/spaces`, match: [{ field: 'id', value: 'sp-runbooks' }] };
    expect(check.restore.requests).toEqual([{ method: 'POST', path: '/spaces/sp-runbooks/restore', recover }]);
    expect(
      check.restore.listed.map((l) => [
        l.path,
        (l.item as { id: string; deletedAt?: string }).id,
        'deletedAt' in (l.item as object),
      ]),
    ).toEqual([[`/orgs/${ORG}/spaces`, 'sp-runbooks', false]]);
    expect(check.losses).toEqual([]); // the site still shows it

    // The restore processed, then its answer lost: apply finds the space listed and does not send it again.
    const lost: ApiClient = {
      ...w.client,
      request: async (method, path, options) => {
        if (!path.endsWith('/restore')) return w.client.request(method, path, options);
        await w.client.request(method, path, options);
        throw new ApiError(method, path, 502, 'bad gateway (answer lost)', { effect: 'maybe' });
      },
    };
    const step: Step = {
      id: 'restore',
      action: 'create',
      phase: 'create',
      kind: 'Space',
      org: ORG,
      key: 'Runbooks',
      wave: 26,
      before: null,
      after: {},
      dependsOn: [],
      requests: check.restore.requests,
    };
    const report = await applyPlan(lost, { ...emptyPlan(), steps: [step] });
    expect([report.applied, report.failed]).toEqual([['restore'], []]);
    expect(
      w.sb
        .stats()
        .requests.filter((r) => r.path.endsWith('/restore'))
        .map((r) => r.status),
    ).toEqual([200]);
  });

  it('says when a site that showed it no longer does', async () => {
    const w = await world();
    const space = await liveObject(w, 'Space', 'Changelog');
    const state = await snapshot(w, space);
    await w.client.request('DELETE', '/spaces/sp-changelog');
    const site = sites(w.sb.store).all()[0]!;
    const ss = (
      await w.client.listAll<{ id: string; space: { id: string } }>(`/orgs/${ORG}/sites/${site.id}/site-spaces`)
    ).find((x) => x.space.id === 'sp-changelog')!;
    await w.client.request('DELETE', `/orgs/${ORG}/sites/${site.id}/site-spaces/${ss.id}`);
    const check = await restore(w, space, state);
    expect(check.state === 'restorable' && check.losses).toEqual([
      `site "Acme Help Center" no longer shows it (it was at path "whats-new"): add it back in that site's manifest`,
    ]);
  });

  it('is not possible past the retention: the space is recreated, and undo says its content is lost', async () => {
    const w = await world();
    const space = await liveObject(w, 'Space', 'Runbooks');
    const state = await snapshot(w, space);
    await w.client.request('DELETE', '/spaces/sp-runbooks');
    w.clock.now = new Date(w.clock.now.getTime() + 8 * 24 * 3600 * 1000);
    const check = await restore(w, space, state);
    expect(check).toEqual({ state: 'gone', reason: 'it was removed for good (deleted spaces are kept 7 days)' });
    const fates = new Map<string, UndoFate>([
      [
        objectId('Space', ORG, 'sp-runbooks'),
        { state: 'recreate', reason: check.state === 'gone' ? check.reason : '' },
      ],
    ]);
    const result = undoRecords(collectParts([journaled(space, state)], KINDS), fates);
    expect(result.objects[0]!.losses).toEqual([
      'gets a new id (it was sp-runbooks): manifests, links or settings that name sp-runbooks must name the new one (or the title)',
      'cannot be restored (it was removed for good (deleted spaces are kept 7 days)): it is recreated as a new, empty space; its pages, files, comments and change requests are lost',
    ]);
  });
});

describe('what undo says does not come back', () => {
  it('Site: every share link secret, the sign-in key, custom hostname and type, the default-content pointer (its publication comes back)', async () => {
    const w = await world();
    const site = await liveObject(w, 'Site', 'Acme Help Center');
    const rec = sites(w.sb.store).all()[0]!;
    sites(w.sb.store).put({
      ...rec,
      published: true,
      hostname: 'docs.acme.test',
      type: 'premium',
      visibility: 'visitor-auth',
    });
    await w.client.request('PATCH', `/orgs/${ORG}`, { body: { defaultContent: { type: 'site', site: site.id } } });
    const result = undoRecords(collectParts([journaled(site, await snapshot(w, site))], KINDS));
    expect(result.objects[0]!.losses).toEqual([
      `gets a new id (it was ${site.id}): manifests, links or settings that name ${site.id} must name the new one (or the title)`,
      'share link "partner-preview" is recreated with a new secret URL: the old URL no longer works; share the new one (shown in the app)',
      'its visitor sign-in private key does not come back: the recreated site has a new one; give your sign-in backend the new key (and write it where the manifest reads privateKey)',
      'its custom hostname "docs.acme.test" cannot be set through the API; set it again in the app',
      'was a "premium" site; docops does not manage the site type, so it is recreated as "basic"',
      `was the organization's default content: the organization still names the old id; set defaultContent: { type: site, site: "Acme Help Center" } in its Organization manifest`,
    ]);
    expect(result.documents).toEqual([
      expect.objectContaining({
        kind: 'Site',
        spec: expect.objectContaining({ published: true, visibility: 'visitor-auth' }),
      }),
    ]);
  });

  it('Members: the invitation to accept, and the teams that survived without them', async () => {
    const w = await world();
    const bob = await liveObject(w, 'Members', 'bob@acme.test');
    const platform = await liveObject(w, 'Team', 'Platform');
    const records = [journaled(platform, await snapshot(w, platform)), journaled(bob, await snapshot(w, bob))];
    // Bob is also in a team that is not deleted.
    await w.client.request('PUT', `/orgs/${ORG}/teams/team-support/members`, { body: { add: ['u-bob'] } });
    records[1] = journaled(bob, await snapshot(w, bob));
    const result = undoRecords(collectParts(records, KINDS));
    expect(result.objects.find((o) => o.kind === 'Members')!.losses).toEqual([
      'is invited again by e-mail (with the same role): they are a member again only once they accept the invitation, and their membership starts over (joined date, activity)',
      'is no longer in team "Support" (was member): add them back in that team\'s manifest once they have accepted',
    ]);
    expect(result.objects.find((o) => o.kind === 'Team')!.losses).toEqual([
      'gets a new id (it was team-platform): manifests, links or settings that name team-platform must name the new one (or the title)',
    ]);
  });

  it('Translation: its languages', async () => {
    const w = await world();
    const tr = await liveObject(w, 'Translation', 'French docs');
    const result = undoRecords(collectParts([{ ...journaled(tr, {}), snapshot: 'live', state: undefined }], KINDS));
    expect(result.objects[0]!.losses).toContain(
      'its languages [fr] cannot be set through the API: it is recreated without them; set them again in the app',
    );
  });
});

describe('values docops does not know (a newer API), kept by the journal', () => {
  it('are left out of the documents (which then validate), said in the files and as losses', async () => {
    const w = await world();
    w.sb.setFaults('evolve=1,seed=1'); // bob's role "billing", Platform's memberships "maintainer"
    const bob = await liveObject(w, 'Members', 'bob@acme.test');
    const platform = await liveObject(w, 'Team', 'Platform');
    const raw = undoRecords(
      collectParts([journaled(platform, await snapshot(w, platform)), journaled(bob, await snapshot(w, bob))], KINDS),
    );
    // As written by the journal, the documents are ones docops's own schema refuses.
    expect(() => desiredFromFiles(undoFiles(raw.documents, KINDS), KINDS)).toThrow(/must be one of/);
    const result = withoutUnknownValues(raw, KINDS);
    const desired = desiredFromFiles(undoFiles(result.documents, KINDS), KINDS);
    expect(desired.get('Members')!.map((e) => e.spec)).toEqual([{ email: 'bob@acme.test', invite: true }]);
    expect(result.objects.find((o) => o.kind === 'Members')!.losses).toContain(
      'role is not restored: docops does not know role: "billing" (from a newer API); set it again in the app',
    );
    expect(result.objects.find((o) => o.kind === 'Team')!.losses).toContain(
      'members is not restored: docops does not know members[0].role: "maintainer" (from a newer API); set it again in the app',
    );
    const text = undoFiles(result.documents, KINDS)
      .map((f) => filesYaml('', f.documents))
      .join('\n');
    expect(text).toContain('# docops does not know role: "billing"');
  });
});

describe('documents name recreated objects so they come back connected', () => {
  it('a site names a space undo recreates by its title, and keeps the names of the others', async () => {
    const w = await world();
    const site = await liveObject(w, 'Site', 'Acme Help Center');
    const runbooks = await liveObject(w, 'Space', 'Runbooks');
    const records = [journaled(site, await snapshot(w, site)), journaled(runbooks, await snapshot(w, runbooks))];
    const fates = new Map<string, UndoFate>([
      [objectId('Space', ORG, 'sp-runbooks'), { state: 'recreate', reason: 'gone' }],
    ]);
    const docs = undoRecords(collectParts(records, KINDS), fates).documents as {
      kind: string;
      spec: { sections?: { path: string; spaces: unknown[] }[]; id?: string };
    }[];
    const siteDoc = docs.find((d) => d.kind === 'Site')!;
    expect(siteDoc.spec.id).toBeUndefined();
    expect(siteDoc.spec.sections!.map((s) => [s.path, s.spaces])).toEqual([
      ['getting-started', ['Getting Started', { space: 'Changelog', path: 'whats-new' }]],
      ['api', [{ space: 'API Reference', path: 'reference' }]],
      ['operations', ['Runbooks']],
    ]);
    expect(docs.find((d) => d.kind === 'Space')!.spec).toEqual({
      title: 'Runbooks',
      emoji: '🛠',
      parent: 'col-internal',
      access: [],
    });
  });
});
