/**
 * Sites under Git Sync, end to end on the sandbox (docs/kinds.md, "Sites under Git Sync"): docops reads gitSync
 * from the sites list, never reads nor writes a synced site's structure, shows it as owned, blocks the structure
 * a manifest writes for it, and still manages the site's other settings. Export writes `gitSync` and no structure.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { renderMarkdown, renderText } from '../../src/render/index.js';
import { NO_CHANGES } from '../../src/render/values.js';
import { sites } from '../../packages/sandbox/src/site-records.js';
import type { RunningSandbox } from '@docops/sandbox';
import { exportOrganization } from '../../src/export/index.js';
import { loadDesired, planOnce, tempDir } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';

const start = sandboxPerTest('git-sync-e2e');

const site = (spec: string[]): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    'metadata: { organization: org-demo }',
    'spec:',
    ...spec.map((l) => `  ${l}`),
  ].join('\n') + '\n';

const WITH_STRUCTURE = [
  'title: Help',
  'visibility: public',
  'defaultSection: guides',
  'sections:',
  '  - path: guides',
  '    title: Guides',
  '    spaces: [sp-getting-started]',
  '  - path: api',
  '    title: API',
  '    spaces: [sp-api]',
];

/** Connect Git Sync to the site titled `title`, through the sandbox's admin surface. */
async function connectGitSync(sb: RunningSandbox, title: string, repoName = 'acme/help-docs'): Promise<string> {
  const id = sites(sb.store).where((s) => s.title === title)[0]!.id;
  const res = await fetch(`${sb.url.replace(/\/v1$/, '')}/_sandbox/sites/${id}/git-sync`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      installationId: 'inst-7',
      installationProvider: 'github',
      installationStatus: 'active',
      repoName,
    }),
  });
  expect(res.status).toBe(200);
  return id;
}

/** Requests below a site's structure (sections, groups, site spaces, the sort): none may be sent for a synced site. */
const structureRequests = (sb: RunningSandbox): string[] =>
  sb
    .stats()
    .requests.filter((r) => /\/sites\/[^/]+\/(sections|section-groups|site-spaces|structure)/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);

describe('a site under Git Sync', () => {
  it('converges with a docops Site manifest and zero structure requests; its structure shows as owned', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(join(dir, 'site.yaml'), site(WITH_STRUCTURE));
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    const id = await connectGitSync(sb, 'Help');

    // The team moved the structure to the repository: the manifest keeps the site's settings and says so.
    writeFileSync(
      join(dir, 'site.yaml'),
      site([
        'title: Help',
        'visibility: unlisted',
        'agentsContext: included',
        'gitSync: { repository: acme/help-docs }',
      ]),
    );
    sb.resetStats();
    const plan = await planOnce(client, await loadDesired(dir));
    expect(plan.blocked).toEqual([]);
    expect(plan.steps.map((s) => [s.id, s.after])).toEqual([
      ['Site/org-demo/Help#update', { visibility: 'unlisted', agentsContext: 'included' }],
    ]);
    expect(plan.owned).toEqual([
      {
        kind: 'Site',
        org: 'org-demo',
        key: 'Help',
        id,
        what: 'sections, section groups and site spaces',
        owner: 'Git Sync (repository acme/help-docs)',
      },
    ]);
    expect(renderText(plan)).toContain(
      'Site org-demo/Help: sections, section groups and site spaces owned by Git Sync (repository acme/help-docs)',
    );
    expect(renderMarkdown(plan)).toContain('Owned by another writer: 1 object docops leaves alone');
    expect((await applyPlan(client, plan)).failed).toEqual([]);

    const again = await planOnce(client, await loadDesired(dir));
    expect(again.steps).toEqual([]);
    expect(again.blocked).toEqual([]);
    expect(renderText(again)).toContain(NO_CHANGES);
    expect(renderText(again)).toContain('owned by Git Sync (repository acme/help-docs)');
    // Neither read nor written: Git Sync came with the sites list.
    expect(structureRequests(sb)).toEqual([]);
    expect(sites(sb.store).get(id)).toMatchObject({ visibility: 'unlisted', agentsContext: 'included' });
  });

  it('a manifest that still writes the structure is blocked at each structure field; the settings still apply', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(join(dir, 'site.yaml'), site(WITH_STRUCTURE));
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    await connectGitSync(sb, 'Help');

    // Someone reorders and renames in the repository; the manifest (unchanged structure, new visibility) would revert it.
    const live = sites(sb.store).where((s) => s.title === 'Help')[0]!;
    writeFileSync(
      join(dir, 'site.yaml'),
      site([
        ...WITH_STRUCTURE.map((l) => (l === 'visibility: public' ? 'visibility: unlisted' : l)),
        '  - path: extra',
        '    title: Extra',
        '    spaces: [sp-runbooks]',
      ]),
    );
    sb.resetStats();
    const plan = await planOnce(client, await loadDesired(dir));
    expect(plan.steps.map((s) => s.id)).toEqual(['Site/org-demo/Help#update']);
    // Where the manifest writes each structure field (its value: `sections:` on line 8, the list from line 9).
    expect(
      plan.blocked.map((b) => [b.kind, b.key, `${b.source?.line}:${b.source?.column}`, b.message.split(':')[0]]),
    ).toEqual([
      ['Site', 'Help', '9:5', 'sections'],
      ['Site', 'Help', '7:19', 'defaultSection'],
    ]);
    expect(plan.blocked[0]!.message).toMatch(
      /owned by Git Sync \(repository acme\/help-docs\); docops writes none of them/,
    );
    expect(renderText(plan)).toMatch(/Blocked: 2 manifest objects/);
    const report = await applyPlan(client, plan);
    expect(report.applied).toEqual(['Site/org-demo/Help#update']);
    expect(structureRequests(sb)).toEqual([]);
    expect(sites(sb.store).get(live.id)!.visibility).toBe('unlisted');
  });

  it('validate warns, offline, when a manifest says gitSync and writes structure', async () => {
    const { dir } = await start();
    writeFileSync(join(dir, 'site.yaml'), site([...WITH_STRUCTURE, 'gitSync: { repository: acme/help-docs }']));
    const { warnings } = await loadManifests(dir, KINDS, { env: {} });
    const mine = warnings.filter((w) => /Git Sync/.test(w.message));
    expect(mine.map((w) => `${w.line}:${w.column}: ${w.message}`)).toEqual([
      "7:19: defaultSection: this site's sections, section groups and site spaces are owned by Git Sync (repository acme/help-docs), as gitSync says: docops writes none of them, and plan blocks this field while Git Sync is connected",
      "9:5: sections: this site's sections, section groups and site spaces are owned by Git Sync (repository acme/help-docs), as gitSync says: docops writes none of them, and plan blocks this field while Git Sync is connected",
    ]);
  });

  it('plan warns when the manifest says gitSync and the site has none, or another repository', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(join(dir, 'site.yaml'), site(['title: Help', 'gitSync: { repository: acme/help-docs }']));
    const unsynced = await planOnce(client, await loadDesired(dir));
    expect(unsynced.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/has no Git Sync connected/));
    expect((await applyPlan(client, unsynced)).failed).toEqual([]);
    await connectGitSync(sb, 'Help', 'acme/other');
    const other = await planOnce(client, await loadDesired(dir));
    expect(other.warnings.map((w) => w.message)).toEqual([
      'gitSync.repository says acme/help-docs, but the site is synced from acme/other',
    ]);
  });

  it('export writes gitSync and no structure for a synced site, and its plan shows no changes', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(join(dir, 'site.yaml'), site(WITH_STRUCTURE));
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    await connectGitSync(sb, 'Help');
    const out = tempDir('git-sync-export');
    await exportOrganization(client, KINDS, 'org-demo', out);
    const { desired } = await loadManifests(out, KINDS, { env: {} });
    const [entry] = desired.get('Site')!;
    expect(entry!.doc.spec).toMatchObject({ title: 'Help', gitSync: { repository: 'acme/help-docs' } });
    for (const f of ['sections', 'sectionGroups', 'spaces', 'defaultSection', 'defaultSiteSpace'])
      expect(entry!.doc.spec).not.toHaveProperty(f);
    sb.resetStats();
    const plan = await planOnce(client, desired);
    expect(plan.steps).toEqual([]);
    expect(plan.blocked).toEqual([]);
    expect(plan.owned?.map((o) => o.key)).toEqual(['Help']);
    expect(structureRequests(sb)).toEqual([]);
    rmSync(out, { recursive: true, force: true });
  });
});
