/**
 * A plan that creates objects of every kind, and one apply of it under injected faults, measured: the example
 * organization (demo seed) plus new teams (with owners and invitees), translations, invited members, collections
 * nested three deep, spaces in them and at the top level, a second site with sections, a group, site spaces and
 * a share link, access grants on a collection, a space and both sites, a SAML provider and a second OpenAPI spec.
 *
 * `convergeOnce(seed, faults)`: plan and apply under the faults (fast client retries), then plan again without
 * them. It converged when that plan is empty; whatever it did, it may not leave an identity twice in the sandbox
 * store nor send a DELETE that no plan step asked for.
 */
import { appendFileSync, copyFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan, type ApplyEvent } from '../../src/engine/apply.js';
import { type ApplyReport } from '../../src/model/apply-report.js';
import type { Plan } from '../../src/model/plan.js';
import { startSandbox, type SandboxStore } from '@docops/sandbox';
import { fastClient, loadDesired, planOnce, plannedDeletePaths, tempDir } from '../helpers/pipeline.js';

/** Issue 22's faults: 20 % 429, 10 % 5xx and 5 % resets (the plain 5xx and reset come before processing). */
export const ISSUE22_FAULTS = '429=0.2,retryAfter=0,5xx=0.1,reset=0.05';
/** The same rates, each 5xx and reset half before and half after the server processed the request. */
export const ISSUE22_FAULTS_AFTER = '429=0.2,retryAfter=0,5xx=0.05,5xxAfter=0.05,reset=0.025,resetAfter=0.025';

const doc = (kind: string, spec: string): string =>
  `---\napiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;
const NEW_TEAMS = ['Docs guild', 'Field team', 'Reviewers', 'Translators'];

/** The manifests directory (a fresh temporary one). */
export function everyKindManifests(): string {
  const dir = tempDir('every-kind');
  cpSync('config.example/manifests', dir, { recursive: true });
  copyFileSync(new URL('../fixtures/saml/idp-a.pem', import.meta.url), join(dir, 'idp.pem'));
  const members = join(dir, 'members.yaml');
  const invited = ['Newcomer@acme.test', 'other@acme.test', 'third@acme.test'];
  writeFileSync(
    members,
    readFileSync(members, 'utf8').replace('invite: false', 'invite: true') +
      invited.map((e) => `    - { email: ${e}, role: read }\n`).join(''),
  );

  const team = (title: string, i: number): string =>
    doc(
      'Team',
      `  title: ${title}\n  members:\n    - { email: grace@acme.test, role: owner }\n    - { email: ivan@acme.test }\n` +
        (i % 2 === 0 ? `    - { email: ${invited[i % invited.length]!.toLowerCase()} }\n` : ''),
    );
  appendFileSync(join(dir, 'teams.yaml'), NEW_TEAMS.map(team).join(''));
  appendFileSync(
    join(dir, 'translations.yaml'),
    ['Dutch docs', 'German docs', 'Italian docs'].map((t) => doc('Translation', `  title: ${t}\n`)).join(''),
  );

  const access =
    '  access:\n    - { team: Security, role: edit }\n    - { team: Docs guild, role: read }\n    - { email: dan@acme.test, role: comment }\n';
  const collections = [
    doc('Collection', `  title: Field guides\n  description: Guides from the field\n${access}`),
    doc('Collection', '  title: Regional\n  parent: Field guides\n'),
    doc('Collection', '  title: Local\n  parent: Regional\n  defaultLevel: read\n'),
    doc('Collection', '  title: Archive\n  parent: Internal\n'),
  ];
  const spaces = [
    doc('Space', `  title: Field guide\n  emoji: 🧭\n  parent: Field guides\n${access}`),
    doc('Space', '  title: Regional guide\n  parent: Regional\n'),
    doc('Space', '  title: Local guide\n  parent: Local\n  defaultLevel: read\n'),
    doc('Space', '  title: Old notes\n  parent: Archive\n'),
    doc('Space', '  title: Standalone\n  parent: null\n  editMode: locked\n'),
    doc('Space', '  title: Partner FAQ\n  parent: Product docs\n'),
  ];
  appendFileSync(join(dir, 'spaces.yaml'), collections.join('') + spaces.join(''));

  const siteAccess =
    '  access:\n    - { team: Support, role: read }\n    - { team: Field team, role: edit }\n    - { email: erin@acme.test, role: null }\n';
  appendFileSync(join(dir, 'site.yaml'), siteAccess);
  appendFileSync(
    join(dir, 'site.yaml'),
    doc(
      'Site',
      '  title: Partner Portal\n  visibility: share-link\n  basename: partners\n  defaultSection: guides\n' +
        '  sections:\n' +
        '    - { path: guides, title: Guides, spaces: [Field guide, { space: Regional guide, path: regional }] }\n' +
        '    - { path: faq, title: FAQ, spaces: [Partner FAQ] }\n' +
        '    - { path: local, title: Local, spaces: [Local guide, Standalone] }\n' +
        '  sectionGroups:\n    - { title: Reference, sections: [faq, local] }\n' +
        '  shareLinks:\n    - { name: acme-partners }\n    - { name: beta-partners }\n' +
        siteAccess,
    ),
  );
  appendFileSync(
    join(dir, 'saml.yaml'),
    doc(
      'SamlProvider',
      '  label: Okta\n  entityID: http://www.okta.com/exk1\n  ssoURL: https://acme.okta.com/app/sso\n  certificate: { file: idp.pem }\n  defaultTeam: Security\n  defaultRole: read\n',
    ),
  );
  appendFileSync(
    join(dir, 'openapi.yaml'),
    doc(
      'OpenAPISpec',
      '  slug: orders\n  source:\n    text: |\n      openapi: 3.1.0\n      info: { title: Orders, version: 1.0.0 }\n      paths: {}\n',
    ),
  );
  return dir;
}

/** Each table's identity: two rows with one are a duplicate (a create that ran twice). */
const IDENTITIES: Record<string, (r: Record<string, unknown>) => string> = {
  teams: (r) => `${r['orgId']}/${r['title']}`,
  translations: (r) => `${r['orgId']}/${r['title']}`,
  collections: (r) => `${r['orgId']}/${r['parent'] ?? ''}/${r['title']}`,
  spaces: (r) => `${r['orgId']}/${r['title']}`,
  sites: (r) => `${r['orgId']}/${r['title']}`,
  siteSections: (r) => `${r['siteId']}/${r['path']}`,
  siteSectionGroups: (r) => `${r['siteId']}/${r['title']}`,
  siteSpaces: (r) => `${r['siteId']}/${r['section']}/${r['spaceId']}`,
  siteShareLinks: (r) => `${r['siteId']}/${r['name']}`,
  members: (r) => `${r['orgId']}/${r['userId']}`,
  samlProviders: (r) => `${r['orgId']}/${r['label']}`,
  openApiSpecs: (r) => `${r['orgId']}/${r['slug']}`,
  contentGrants: (r) => `${r['targetType']}:${r['targetId']}/${r['principalType']}:${r['principalId']}`,
};

/** `table: identity` for every identity the store holds more than once (soft-deleted rows included). */
export function duplicateIdentities(store: SandboxStore): string[] {
  const { tables } = store.snapshot() as { tables: Record<string, Record<string, unknown>[]> };
  const out: string[] = [];
  for (const [table, identity] of Object.entries(IDENTITIES)) {
    const keys = (tables[table] ?? []).map(identity);
    out.push(...keys.filter((k, i) => keys.indexOf(k) !== i).map((k) => `${table}: ${k}`));
  }
  return out;
}

export interface SeedOutcome {
  seed: number;
  converged: boolean;
  steps: number;
  /** The kinds the plan creates objects of (its create steps), sorted. */
  createKinds: string[];
  /** The steps of the plan after the apply (empty when converged). */
  left: string[];
  failed: ApplyReport['failed'];
  duplicates: string[];
  unplannedDeletes: string[];
  recovered: Record<string, number>;
  /** Faults the sandbox injected during plan and apply. */
  faults: number;
}

/** Plan and apply the every-kind manifests once under `faults` with `seed`; the plan after it without faults. */
export async function convergeOnce(
  seed: number,
  faults = ISSUE22_FAULTS,
  dir = everyKindManifests(),
): Promise<SeedOutcome> {
  const sandbox = await startSandbox({ seed: 'demo' });
  const client: ApiClient = fastClient(sandbox);
  try {
    const desired = await loadDesired(dir);
    sandbox.setFaults(`${faults},seed=${seed}`);
    const plan: Plan = await planOnce(client, desired);
    const recovered: Record<string, number> = {};
    const onStep = (e: ApplyEvent): void => {
      if (e.type === 'recovered') recovered[e.outcome] = (recovered[e.outcome] ?? 0) + 1;
    };
    const report = await applyPlan(client, plan, { concurrency: 8, onStep, sleep: async () => {} });
    sandbox.setFaults(undefined);
    const stats = sandbox.stats();
    const next = await planOnce(client, desired);
    const allowed = plannedDeletePaths([plan]);
    return {
      seed,
      converged: next.steps.length === 0 && next.blocked.length === 0,
      steps: plan.steps.length,
      createKinds: [...new Set(plan.steps.filter((s) => s.action === 'create').map((s) => s.kind))].sort(),
      left: next.steps.map((s) => s.id),
      failed: report.failed,
      duplicates: duplicateIdentities(sandbox.store),
      unplannedDeletes: stats.requests
        .filter((r) => r.method === 'DELETE' && !allowed.has(r.path))
        .map((r) => `${r.path} (${r.status})`),
      recovered,
      faults: stats.requests.filter((r) => r.fault !== undefined).length,
    };
  } finally {
    await client.close();
    await sandbox.close();
  }
}
