/**
 * Envelope rules that keep manifests honest at the edges: a flag that means nothing for a kind is an error (read
 * from the kind's definition, never from its name), and ids that go into request paths look like the API's ids.
 */
import { describe, expect, test } from 'vitest';
import type { KindDefinition } from '../../src/model/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import { ENTITY_ID } from '../../src/manifests/envelope.js';
import { parseYamlFile } from '../../src/manifests/parse.js';
import { validateParsedFiles } from '../../src/manifests/load.js';
import { formatIssue } from '../../src/model/errors.js';
import { SandboxStore } from '../../packages/sandbox/src/store.js';
import { applySeed, addReadOnlyUser } from '../../packages/sandbox/src/seed.js';
import { seedLargeOrg } from '../../packages/sandbox/src/seed-large.js';
import { collections, orgs, spaces, teams, translations, users } from '../../packages/sandbox/src/records.js';
import {
  siteSectionGroups,
  siteSections,
  siteShareLinks,
  siteSpaces,
  sites,
} from '../../packages/sandbox/src/site-records.js';
import { fakeTeamKind } from './fake-kinds.js';

const doc = (kind: string, org: string, rest = ''): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: "${org}"\n${rest}spec:\n  title: T\n`;

function issues(text: string, kinds: readonly KindDefinition[]): string[] {
  const parsed = parseYamlFile('m.yaml', text, {});
  return validateParsedFiles([parsed], kinds).issues.map(formatIssue);
}

describe('prune on a kind that is never pruned', () => {
  const fixed: KindDefinition = { ...fakeTeamKind(), kind: 'Fixed', prunable: false };

  test('prune: true is an error at the flag; prune: false and other kinds are fine', () => {
    expect(issues(doc('Fixed', 'o', 'prune: true\n'), [fixed])).toEqual([
      'm.yaml:5:1: prune: Fixed objects are never deleted by docops, so prune means nothing here (remove it)',
    ]);
    expect(issues(doc('Fixed', 'o', 'prune: false\n'), [fixed])).toEqual([]);
    expect(issues(doc('Team', 'o', 'prune: true\n'), [fakeTeamKind()])).toEqual([]);
  });

  test('the real Organization kind says so (prunable: false)', () => {
    const org =
      'apiVersion: docops/v1\nkind: Organization\nmetadata: { organization: org-demo }\nprune: true\nspec: { title: Acme }\n';
    expect(issues(org, KINDS)).toEqual([
      'm.yaml:4:1: prune: Organization objects are never deleted by docops, so prune means nothing here (remove it)',
    ]);
  });
});

describe('allowEmpty', () => {
  const withLists: KindDefinition = { ...fakeTeamKind(), lists: ['members'] };

  test('is an error at the flag on a kind that writes no list, and must be boolean', () => {
    expect(issues(doc('Team', 'o', 'allowEmpty: true\n'), [fakeTeamKind()])).toEqual([
      "m.yaml:5:1: allowEmpty: Team documents write no list of an object's sub-objects, so allowEmpty means nothing here (remove it)",
    ]);
    expect(issues(doc('Team', 'o', 'allowEmpty: 1\n'), [withLists])).toEqual([
      'm.yaml:5:13: allowEmpty: must be boolean (got integer 1)',
    ]);
    expect(issues(doc('Team', 'o', 'allowEmpty: true\n'), [withLists])).toEqual([]);
    expect(issues(doc('Team', 'o', 'allowEmpty: false\n'), [fakeTeamKind()])).toEqual([]);
  });

  test('the real kinds: allowed exactly where a kind declares lists', () => {
    expect(KINDS.filter((k) => (k.lists ?? []).length > 0).map((k) => k.kind)).toEqual([
      'Team',
      'Collection',
      'Space',
      'Site',
    ]);
    const members =
      'apiVersion: docops/v1\nkind: Members\nmetadata: { organization: org-demo }\nallowEmpty: true\nspec: { members: [] }\n';
    expect(issues(members, KINDS)).toEqual([
      "m.yaml:4:1: allowEmpty: Members documents write no list of an object's sub-objects, so allowEmpty means nothing here (remove it)",
    ]);
  });
});

describe('ids that go into request paths', () => {
  test.each(['..', '.', 'a/b', 'a%2Fb', '%2e%2e', 'org demo', 'org\u00e9', 'a?b', 'a#b', ' org'])(
    'metadata.organization %j is an error at the value',
    (org) => {
      expect(issues(doc('Team', org), [fakeTeamKind()])).toEqual([
        `m.yaml:4:17: metadata.organization: must be an organization id, matching ^[a-zA-Z0-9_-]+$ (got ${JSON.stringify(org)})`,
      ]);
    },
  );

  test('ordinary ids pass', () => {
    for (const org of ['org-demo', 'ABC_123', 'x']) expect(issues(doc('Team', org), [fakeTeamKind()])).toEqual([]);
  });

  test('every kind schema that takes a pinned id restricts it to the API id pattern', () => {
    const withId = KINDS.filter(
      (k) => (k.schema as { properties: Record<string, unknown> }).properties['id'] !== undefined,
    );
    expect(withId.map((k) => k.kind)).toEqual(['Team', 'Translation', 'SamlProvider', 'Collection', 'Space', 'Site']);
    for (const k of withId)
      expect((k.schema as { properties: { id: { pattern?: string } } }).properties.id.pattern, k.kind).toBe(
        ENTITY_ID.source,
      );
    const site =
      'apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\nspec: { title: Help, id: "../x" }\n';
    expect(issues(site, KINDS)).toEqual(['m.yaml:4:26: spec.id: must match the pattern ^[a-zA-Z0-9_-]+$ (got "../x")']);
  });

  test('the sandbox hands out only ids of that pattern (so valid manifests can pin them)', () => {
    const store = new SandboxStore();
    applySeed(store, 'demo');
    addReadOnlyUser(store);
    seedLargeOrg(store, { members: 20, teams: 5, memberships: 20, spaces: 6, sites: 2, sectionsPerSite: 2 });
    const tables = [
      orgs,
      users,
      teams,
      translations,
      collections,
      spaces,
      sites,
      siteSections,
      siteSectionGroups,
      siteSpaces,
      siteShareLinks,
    ];
    const ids = tables.flatMap((t) =>
      t(store)
        .all()
        .map((r) => r.id),
    );
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id) => !ENTITY_ID.test(id))).toEqual([]);
  });
});

describe('mode (ownership)', () => {
  test('takes authoritative, additive or observe; anything else is an error at the value', () => {
    expect(issues(doc('Team', 'o', 'mode: additive\n'), [fakeTeamKind()])).toEqual([]);
    expect(issues(doc('Team', 'o', 'mode: observe\n'), [fakeTeamKind()])).toEqual([]);
    expect(issues(doc('Team', 'o', 'mode: readonly\n'), [fakeTeamKind()])).toEqual([
      'm.yaml:5:7: mode: must be one of authoritative, additive, observe (got string "readonly")',
    ]);
  });

  test('prune: true contradicts additive and observe (they never delete what no manifest writes)', () => {
    expect(issues(doc('Team', 'o', 'mode: additive\nprune: true\n'), [fakeTeamKind()])).toEqual([
      'm.yaml:6:1: prune: a document in mode additive never deletes what no manifest writes, so prune: true contradicts it (remove one of them)',
    ]);
    expect(issues(doc('Team', 'o', 'mode: observe\nprune: true\n'), [fakeTeamKind()])).toHaveLength(1);
    expect(issues(doc('Team', 'o', 'mode: authoritative\nprune: true\n'), [fakeTeamKind()])).toEqual([]);
  });

  test('the loaded document carries it', () => {
    const parsed = parseYamlFile('m.yaml', doc('Team', 'o', 'mode: observe\n'), {});
    expect(validateParsedFiles([parsed], [fakeTeamKind()]).documents.map((d) => d.mode)).toEqual(['observe']);
  });
});
