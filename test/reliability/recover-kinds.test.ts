/**
 * Every kind's create carries the identity apply needs to find what it created (RequestSpec.recover): against the
 * sandbox, every create of a plan that makes objects of every kind (site, sections, site spaces, section group,
 * share link, collection, space, team, translation, OpenAPI spec, SAML provider, invites, access grants) fails
 * once in a way that leaves open whether it happened — once after the server processed it, once before it reached
 * the server. Apply must find each processed one (never sending it again) and send the others again; the next plan
 * is empty and nothing exists twice. A space or collection is found by title and parent: one of that title that
 * someone else made elsewhere meanwhile is not adopted.
 */
import { appendFileSync, copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan, type ApplyEvent } from '../../src/engine/apply.js';
import { ApiError } from '../../src/model/errors.js';
import { collections, spaces, startSandbox, type RunningSandbox, type SandboxStore } from '@docops/sandbox';
import { fastClient, loadDesired, planOnce } from '../helpers/pipeline.js';

/**
 * The example organization plus a new collection with a nested one, a space, a translation, two invited members,
 * a SAML provider and access lists on a new collection, a new space and the new site.
 */
function manifests(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docops-recover-kinds-'));
  cpSync('config.example/manifests', dir, { recursive: true });
  copyFileSync(new URL('../fixtures/saml/idp-a.pem', import.meta.url), join(dir, 'idp.pem'));
  const members = join(dir, 'members.yaml');
  writeFileSync(
    members,
    readFileSync(members, 'utf8').replace('invite: false', 'invite: true') +
      '    - { email: Newcomer@acme.test, role: read }\n    - { email: other@acme.test, role: edit }\n',
  );
  const doc = (kind: string, spec: string): string =>
    `---\napiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;
  const access =
    '  access:\n    - { team: Security, role: edit }\n    - { email: dan@acme.test, role: edit }\n    - { team: Support, role: read }\n';
  appendFileSync(
    join(dir, 'spaces.yaml'),
    doc('Collection', `  title: Field guides\n${access}`) +
      doc('Collection', '  title: Regional\n  parent: Field guides\n') +
      doc('Space', `  title: Field guide\n  parent: Field guides\n${access}`),
  );
  appendFileSync(
    join(dir, 'site.yaml'),
    '  access:\n    - { team: Support, role: read }\n    - { email: erin@acme.test, role: null }\n',
  );
  appendFileSync(join(dir, 'translations.yaml'), doc('Translation', '  title: Dutch docs\n'));
  appendFileSync(
    join(dir, 'saml.yaml'),
    doc('SamlProvider', '  label: Okta\n  certificate: { file: idp.pem }\n  defaultTeam: Security\n'),
  );
  return dir;
}

/**
 * Every write the client would not send again after an ambiguous failure (creates, which apply marks
 * non-idempotent, and any POST the plan does not mark idempotent) fails once: `after` the server ran it, or `before`.
 */
function losingCreates(client: ApiClient, when: 'before' | 'after'): ApiClient & { lost: string[] } {
  const seen = new Set<string>();
  const lost: string[] = [];
  return {
    ...client,
    lost,
    request: async (method, path, options = {}) => {
      const creates = options.idempotent === false || (method === 'POST' && options.idempotent !== true);
      const key = `${method} ${path} ${JSON.stringify(options.body)}`;
      if (!creates || seen.has(key)) return client.request(method, path, options);
      seen.add(key);
      lost.push(`${method} ${path}`);
      if (when === 'after') await client.request(method, path, options);
      throw new ApiError(method, path, 502, 'bad gateway (answer lost)', { effect: 'maybe' });
    },
  };
}

let sandbox: RunningSandbox | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  sandbox = client = undefined;
});

describe('recovering creates of every kind', () => {
  it.each(['after', 'before'] as const)('finds or re-sends each create that failed %s processing', async (when) => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = fastClient(sandbox);
    const desired = await loadDesired(manifests());
    const plan = await planOnce(client, desired);
    const kinds = new Set(plan.steps.filter((s) => s.requests.some((r) => r.recover)).map((s) => s.kind));
    expect([...kinds].sort()).toEqual([
      'Collection',
      'CollectionAccess',
      'Members',
      'OpenAPISpec',
      'SamlProvider',
      'Site',
      'SiteAccess',
      'SiteSection',
      'SiteSectionGroup',
      'SiteShareLink',
      'SiteSpace',
      'Space',
      'SpaceAccess',
      'Team',
      'Translation',
    ]);

    const losing = losingCreates(client, when);
    const recovered: string[] = [];
    const onStep = (e: ApplyEvent): void => {
      if (e.type === 'recovered') recovered.push(`${e.step.kind}:${e.outcome}`);
    };
    const report = await applyPlan(losing, plan, { onStep });
    expect(report.failed).toEqual([]);
    // Every create was lost once and looked up: found when it had happened, absent (sent again) when not.
    expect(recovered).toHaveLength(losing.lost.length);
    expect(new Set(recovered)).toEqual(new Set([...kinds].map((k) => `${k}:${when === 'after' ? 'found' : 'absent'}`)));
    const writes = sandbox.stats().requests.filter((r) => r.method !== 'GET' && r.status < 300);
    const creates = writes.filter((w) => losing.lost.includes(`${w.method} ${w.path.slice('/v1'.length)}`));
    // Processed exactly once per lost create, whether it was found or sent again.
    expect(creates.length).toBe(losing.lost.length);

    expect(await planOnce(client, desired)).toMatchObject({ steps: [], blocked: [] });
    // Nothing twice, by each kind's identity.
    const { tables } = sandbox.store.snapshot() as { tables: Record<string, Record<string, unknown>[]> };
    const identities: Record<string, (r: Record<string, unknown>) => string> = {
      teams: (r) => `${r['orgId']}/${r['title']}`,
      translations: (r) => `${r['orgId']}/${r['title']}`,
      collections: (r) => `${r['orgId']}/${r['title']}`,
      spaces: (r) => `${r['orgId']}/${r['title']}`,
      sites: (r) => `${r['orgId']}/${r['title']}`,
      siteSections: (r) => `${r['siteId']}/${r['path']}`,
      siteSectionGroups: (r) => `${r['siteId']}/${r['title']}`,
      siteSpaces: (r) => `${r['siteId']}/${r['section']}/${r['spaceId']}`,
      siteShareLinks: (r) => `${r['siteId']}/${r['name']}`,
      members: (r) => `${r['orgId']}/${r['userId']}`,
      openApiSpecs: (r) => `${r['orgId']}/${r['slug']}`,
      samlProviders: (r) => `${r['orgId']}/${r['label']}`,
      contentGrants: (r) => `${r['targetType']}:${r['targetId']}/${r['principalType']}:${r['principalId']}`,
    };
    for (const [table, identity] of Object.entries(identities)) {
      const keys = (tables[table] ?? []).map(identity);
      expect(keys.length, table).toBeGreaterThan(0);
      expect(
        keys.filter((k, i) => keys.indexOf(k) !== i),
        table,
      ).toEqual([]);
    }
  });
});

/** The example organization plus a space in "Product docs" and a collection in "Internal", both new. */
function nestedManifests(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docops-recover-identity-'));
  cpSync('config.example/manifests', dir, { recursive: true });
  const doc = (kind: string, spec: string): string =>
    `---\napiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;
  appendFileSync(
    join(dir, 'spaces.yaml'),
    doc('Space', '  title: Handbook\n  parent: Product docs\n') +
      doc('Collection', '  title: Archive\n  parent: Internal\n'),
  );
  return dir;
}

/** Someone else's space or collection with a title this plan creates, made between the plan and the apply. */
function theirs(
  store: SandboxStore,
  what: 'space' | 'collection',
  id: string,
  title: string,
  parent: string | undefined,
): void {
  if (what === 'space') {
    const { parent: _p, ...base } = spaces(store).get('sp-runbooks')!;
    spaces(store).put({ ...base, id, title, ...(parent !== undefined ? { parent } : {}) });
  } else {
    const { parent: _p, ...base } = collections(store).get('col-internal')!;
    collections(store).put({ ...base, id, title, ...(parent !== undefined ? { parent } : {}) });
  }
}

/** The first create of each title in `made` fails before the server saw it, right after `made` put someone else's objects in. */
function racedCreates(client: ApiClient, made: Record<string, () => void>): ApiClient {
  const done = new Set<string>();
  return {
    ...client,
    request: async (method, path, options = {}) => {
      const title = (options.body as { title?: unknown } | undefined)?.title;
      const race =
        typeof title === 'string' && options.idempotent === false && !done.has(title) ? made[title] : undefined;
      if (!race) return client.request(method, path, options);
      done.add(String(title));
      race();
      throw new ApiError(method, path, 503, 'unavailable (answer lost)', { effect: 'maybe' });
    },
  };
}

describe('recovering a space or collection create by title and parent', () => {
  it("does not adopt an object of that title in another collection that was not in the plan's live read: it creates its own", async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = fastClient(sandbox);
    const store = sandbox.store;
    const desired = await loadDesired(nestedManifests());
    const plan = await planOnce(client, desired);
    const raced = racedCreates(client, {
      Handbook: () => theirs(store, 'space', 'sp-theirs', 'Handbook', 'col-internal'),
      Archive: () => theirs(store, 'collection', 'col-theirs', 'Archive', undefined),
    });
    const report = await applyPlan(raced, plan);
    expect(report.failed).toEqual([]);
    const space = report.outputs['Space/org-demo/Handbook#create']?.['id'];
    const collection = report.outputs['Collection/org-demo/Archive#create']?.['id'];
    expect(space).toBeDefined();
    expect(space).not.toBe('sp-theirs');
    expect(collection).not.toBe('col-theirs');
    expect(spaces(store).get(space!)?.parent).toBe('col-product');
    expect(collections(store).get(collection!)?.parent).toBe('col-internal');
    // Theirs are left as they were.
    expect(spaces(store).get('sp-theirs')?.parent).toBe('col-internal');
    expect(collections(store).get('col-theirs')?.parent).toBeUndefined();
  });

  it('never guesses between two of that title in the same collection: the step fails naming both', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = fastClient(sandbox);
    const store = sandbox.store;
    const plan = await planOnce(client, await loadDesired(nestedManifests()));
    const raced = racedCreates(client, {
      Handbook: () => {
        theirs(store, 'space', 'sp-a', 'Handbook', 'col-product');
        theirs(store, 'space', 'sp-b', 'Handbook', 'col-product');
      },
    });
    const report = await applyPlan(raced, plan);
    const failed = report.failed.find((f) => f.stepId === 'Space/org-demo/Handbook#create');
    expect(failed?.message).toContain('2 listed objects match what it creates (sp-a, sp-b)');
    expect(
      spaces(store)
        .all()
        .filter((s) => s.title === 'Handbook'),
    ).toHaveLength(2);
  });
});

describe("recovering an OpenAPI spec's new version", () => {
  it.each([
    ['after', 'resetAfter=1,max=1', 'found'],
    ['before', 'reset=1,max=1', 'absent'],
  ] as const)('publishes one version when the PUT was lost %s processing (%s)', async (_when, fault, outcome) => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = fastClient(sandbox);
    const dir = mkdtempSync(join(tmpdir(), 'docops-recover-openapi-'));
    cpSync('config.example/manifests', dir, { recursive: true });
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    appendFileSync(
      join(dir, 'petstore.openapi.yaml'),
      '  /owners:\n    get:\n      summary: List the owners\n      responses:\n        "200":\n          description: The owners\n',
    );
    const desired = await loadDesired(dir);
    const plan = await planOnce(client, desired);
    expect(plan.steps.map((s) => `${s.id} ${s.requests.map((r) => r.method).join(',')}`)).toEqual([
      'OpenAPISpec/org-demo/petstore#update PUT',
    ]);

    const sb = sandbox;
    let armed = false;
    const faulty: ApiClient = {
      ...client,
      request: async (method, path, options) => {
        // Only the first PUT meets the fault: a PUT sent again goes through.
        if (method !== 'PUT' || armed) return client!.request(method, path, options);
        armed = true;
        sb.setFaults(fault);
        try {
          return await client!.request(method, path, options);
        } finally {
          sb.setFaults(undefined);
        }
      },
    };
    const recovered: string[] = [];
    const report = await applyPlan(faulty, plan, {
      onStep: (e) => void (e.type === 'recovered' && recovered.push(e.outcome)),
    });
    expect(report.failed).toEqual([]);
    expect(recovered).toEqual([outcome]);
    // The create's version and exactly one more: a PUT the server processed is not sent again.
    const { tables } = sandbox.store.snapshot() as { tables: Record<string, Record<string, unknown>[]> };
    const spec = (tables['openApiSpecs'] ?? []).find((s) => s['slug'] === 'petstore');
    expect((tables['openApiVersions'] ?? []).filter((v) => v['specId'] === spec?.['id'])).toHaveLength(2);
    expect(await planOnce(client, desired)).toMatchObject({ steps: [], blocked: [] });
  });
});
