/**
 * Every kind's create carries the identity apply needs to find what it created (RequestSpec.recover): against the
 * sandbox, every create of a plan that makes objects of every kind (site, sections, site spaces, section group,
 * share link, collection, space, team, translation, OpenAPI spec, invites) fails once in a way that leaves open whether it
 * happened — once after the server processed it, once before it reached the server. Apply must find each
 * processed one (never sending it again) and send the others again; the next plan is empty and nothing exists
 * twice.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan, type ApplyEvent } from '../../src/core/apply.js';
import { ApiError } from '../../src/core/errors.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { fastClient, loadDesired, planOnce } from '../helpers/pipeline.js';

/** The example organization plus a new collection, space, translation and two invited members. */
function manifests(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docops-recover-kinds-'));
  cpSync('config.example/manifests', dir, { recursive: true });
  const members = join(dir, 'members.yaml');
  writeFileSync(members, readFileSync(members, 'utf8').replace('invite: false', 'invite: true') + '    - { email: Newcomer@acme.test, role: read }\n    - { email: other@acme.test, role: edit }\n');
  const doc = (kind: string, spec: string): string => `---\napiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;
  appendFileSync(join(dir, 'spaces.yaml'), doc('Collection', '  title: Field guides\n') + doc('Space', '  title: Field guide\n  parent: Field guides\n'));
  appendFileSync(join(dir, 'translations.yaml'), doc('Translation', '  title: Dutch docs\n'));
  return dir;
}

/** Creates (writes apply marks non-idempotent, and invites) fail once each: `after` the server ran them, or `before`. */
function losingCreates(client: ApiClient, when: 'before' | 'after'): ApiClient & { lost: string[] } {
  const seen = new Set<string>();
  const lost: string[] = [];
  return {
    ...client,
    lost,
    request: async (method, path, options = {}) => {
      const creates = options.idempotent === false || path.endsWith('/invites');
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
    expect([...kinds].sort()).toEqual(['Collection', 'Members', 'OpenAPISpec', 'Site', 'SiteSection', 'SiteSectionGroup', 'SiteShareLink', 'SiteSpace', 'Space', 'Team', 'Translation']);

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
    };
    for (const [table, identity] of Object.entries(identities)) {
      const keys = (tables[table] ?? []).map(identity);
      expect(keys.length, table).toBeGreaterThan(0);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i), table).toEqual([]);
    }
  });
});
