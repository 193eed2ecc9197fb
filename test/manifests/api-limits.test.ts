/**
 * Validation and the API agree on every limit the API enforces (management-api.md, and the official spec where it
 * is stricter): a value validation accepts is accepted by the sandbox in the request docops sends it in, and a
 * value the sandbox refuses is a validation error — so an apply never half-creates an object (a site created,
 * then its PATCH refused). Each case is checked on both sides with the same values.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/model/errors.js';
import { KINDS } from '../../src/kinds/index.js';
import { officialAdaptiveSchema } from '../../src/kinds/site/adaptive-schema.js';
import { validateParsedFiles } from '../../src/manifests/load.js';
import { parseYamlFile } from '../../src/manifests/parse.js';
import { sandbox, type Client } from '../sandbox/helpers.js';

const ORG = '/orgs/org-demo';
const s = (n: number, ch = 'a'): string => ch.repeat(n);
const uri = (n: number): string => 'https://x.test/' + s(n - 'https://x.test/'.length);

interface Ids {
  site: string;
  section: string;
  siteSpace: string;
}

interface Limit {
  name: string;
  kind: string;
  /** The manifest spec writing `v` in the field under test. */
  spec: (v: unknown) => Record<string, unknown>;
  /** The request docops sends `v` in. */
  request: (v: unknown, ids: Ids) => [method: string, path: string, body: unknown];
  ok: unknown[];
  bad: unknown[];
}

const SITE = (ids: Ids): string => `${ORG}/sites/${ids.site}`;
const site = (extra: Record<string, unknown>) => ({ title: 'Limits', ...extra });
const section = (extra: Record<string, unknown>) => site({ sections: [{ path: 'p', spaces: ['sp-api'], ...extra }] });

const LIMITS: Limit[] = [
  {
    name: 'organization title 2..255, \\S.*\\S',
    kind: 'Organization',
    spec: (v) => ({ title: v }),
    request: (v) => ['PATCH', ORG, { title: v }],
    ok: ['ab', s(255)],
    bad: ['a', s(256), '  ', 5],
  },
  {
    name: 'organization hostname 3..32, subdomain pattern',
    kind: 'Organization',
    spec: (v) => ({ hostname: v }),
    request: (v) => ['PATCH', ORG, { hostname: v }],
    ok: ['abc', `a${s(30, '-')}b`],
    bad: ['ab', s(33), 'Acme_Docs', '-abc', 'abc-'],
  },
  {
    name: 'organization logo URI ≤2048 or null',
    kind: 'Organization',
    spec: (v) => ({ logo: v }),
    request: (v) => ['PATCH', ORG, { logo: v }],
    ok: [uri(2048), null],
    bad: [uri(2049), 'logo.png'],
  },
  {
    name: 'organization defaultRole',
    kind: 'Organization',
    spec: (v) => ({ defaultRole: v }),
    request: (v) => ['PATCH', ORG, { defaultRole: v }],
    ok: ['edit', null],
    bad: ['owner', 'guest'],
  },
  {
    name: 'member role',
    kind: 'Members',
    spec: (v) => ({ members: [{ email: 'bob@acme.test', role: v }] }),
    request: (v) => ['PATCH', `${ORG}/members/u-bob`, { role: v }],
    ok: ['review', null],
    bad: ['owner', 'guest'],
  },
  {
    name: 'team title 1..64',
    kind: 'Team',
    spec: (v) => ({ title: v }),
    request: (v) => ['PUT', `${ORG}/teams`, { title: v }],
    ok: ['a', s(64)],
    bad: ['', s(65)],
  },
  {
    name: 'translation title 1..100',
    kind: 'Translation',
    spec: (v) => ({ title: v }),
    request: (v) => ['POST', `${ORG}/translations`, { title: v }],
    ok: ['a', s(100)],
    bad: ['', s(101)],
  },
  {
    name: 'collection title ≤50',
    kind: 'Collection',
    spec: (v) => ({ title: v }),
    request: (v) => ['PATCH', '/collections/col-internal', { title: v }],
    ok: ['a', s(50)],
    bad: [s(51)],
  },
  {
    name: 'collection description ≤100',
    kind: 'Collection',
    spec: (v) => ({ title: 'C', description: v }),
    request: (v) => ['PATCH', '/collections/col-internal', { description: v }],
    ok: ['', s(100)],
    bad: [s(101), null],
  },
  {
    name: 'collection defaultLevel',
    kind: 'Collection',
    spec: (v) => ({ title: 'C', defaultLevel: v }),
    request: (v) => ['PATCH', '/collections/col-internal', { defaultLevel: v }],
    // The API also takes the spec's "inherit" (docs/dev/api-differences.md §1.1); manifests do not offer it.
    ok: ['admin', null],
    bad: ['guest'],
  },
  {
    name: 'space title ≤50',
    kind: 'Space',
    spec: (v) => ({ title: v }),
    request: (v) => ['PATCH', '/spaces/sp-runbooks', { title: v }],
    ok: ['a', s(50)],
    bad: [s(51)],
  },
  {
    name: 'space emoji ≤50 code points',
    kind: 'Space',
    spec: (v) => ({ title: 'S', emoji: v }),
    request: (v) => ['POST', `${ORG}/spaces`, { title: 'S', emoji: v }],
    ok: [s(50, '🚀')],
    bad: [s(51, '🚀'), null],
  },
  {
    name: 'space editMode',
    kind: 'Space',
    spec: (v) => ({ title: 'S', editMode: v }),
    request: (v) => ['POST', `${ORG}/spaces`, { title: 'S', editMode: v }],
    ok: ['live', 'locked'],
    bad: ['frozen'],
  },
  {
    name: 'space defaultLevel',
    kind: 'Space',
    spec: (v) => ({ title: 'S', defaultLevel: v }),
    request: (v) => ['PATCH', '/spaces/sp-runbooks', { defaultLevel: v }],
    // The API also takes the spec's "inherit" (docs/dev/api-differences.md §1.1); manifests do not offer it.
    ok: ['read', null],
    bad: ['guest'],
  },
  {
    name: 'site title 2..128',
    kind: 'Site',
    spec: (v) => ({ title: v }),
    request: (v, ids) => ['PATCH', SITE(ids), { title: v }],
    ok: ['ab', s(128)],
    bad: ['a', s(129)],
  },
  {
    name: 'site basename 1..100',
    kind: 'Site',
    spec: (v) => site({ basename: v }),
    request: (v, ids) => ['PATCH', SITE(ids), { basename: v }],
    ok: ['a', s(100)],
    bad: ['', s(101), null],
  },
  {
    name: 'site proxy: host and path, ≤512, or null',
    kind: 'Site',
    spec: (v) => site({ proxy: v }),
    request: (v, ids) => ['PATCH', SITE(ids), { proxy: v }],
    ok: ['acme.com/docs', 'www.acme.co.uk/dev/docs', `a.io/${s(507)}`, null],
    bad: ['https://acme.com/docs', 'acme.com', 'acme.com/', 'acme.com/docs/', 'acme/docs', `a.io/${s(508)}`, ''],
  },
  {
    name: 'site visibility',
    kind: 'Site',
    spec: (v) => site({ visibility: v }),
    request: (v, ids) => ['PATCH', SITE(ids), { visibility: v }],
    ok: ['unlisted', 'visitor-auth'],
    bad: ['private'],
  },
  {
    name: 'site agentsContext',
    kind: 'Site',
    spec: (v) => site({ agentsContext: v }),
    request: (v, ids) => ['PATCH', SITE(ids), { agentsContext: v }],
    ok: ['included'],
    bad: ['yes'],
  },
  {
    name: 'section title 2..128',
    kind: 'Site',
    spec: (v) => section({ title: v }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/sections/${ids.section}`, { title: v }],
    ok: ['ab', s(128)],
    bad: ['a', s(129)],
  },
  {
    name: 'section path 1..100',
    kind: 'Site',
    spec: (v) => section({ path: v }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/sections/${ids.section}`, { path: v }],
    ok: ['p', s(100)],
    bad: ['', s(101)],
  },
  {
    name: 'section description ≤256 or null',
    kind: 'Site',
    spec: (v) => section({ description: v }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/sections/${ids.section}`, { description: v }],
    ok: ['', s(256), null],
    bad: [s(257)],
  },
  {
    name: 'section icon ≤50 or null',
    kind: 'Site',
    spec: (v) => section({ icon: v }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/sections/${ids.section}`, { icon: v }],
    ok: [s(50), null],
    bad: [s(51)],
  },
  {
    name: 'section condition 1..1024 or null',
    kind: 'Site',
    spec: (v) => section({ condition: v }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/sections/${ids.section}`, { condition: v }],
    ok: ['x', s(1024), null],
    bad: ['', s(1025)],
  },
  {
    name: 'site space path 1..100 and condition 1..1024',
    kind: 'Site',
    spec: (v) => section({ spaces: [{ space: 'sp-api', path: v }] }),
    request: (v, ids) => ['PATCH', `${SITE(ids)}/site-spaces/${ids.siteSpace}`, { path: v }],
    ok: ['q', s(100)],
    bad: ['', s(101)],
  },
  {
    name: 'section group title 1..100',
    kind: 'Site',
    spec: (v) => ({ ...section({}), sectionGroups: [{ title: v, sections: ['p'] }] }),
    request: (v, ids) => ['POST', `${SITE(ids)}/section-groups`, { title: v, sections: [ids.section] }],
    ok: ['a', s(100)],
    bad: ['', s(101)],
  },
  {
    name: 'section group icon ≤50 or null',
    kind: 'Site',
    spec: (v) => ({ ...section({}), sectionGroups: [{ title: 'G', icon: v, sections: ['p'] }] }),
    request: (v, ids) => ['POST', `${SITE(ids)}/section-groups`, { title: 'G', icon: v }],
    ok: [s(50), null],
    bad: [s(51)],
  },
  {
    name: 'share link name ≤50',
    kind: 'Site',
    spec: (v) => site({ shareLinks: [{ name: v }] }),
    request: (v, ids) => ['POST', `${SITE(ids)}/share-links`, { name: v }],
    ok: ['a', s(50)],
    bad: [s(51)],
  },
  {
    name: 'adaptive schema: named boolean claims only',
    kind: 'Site',
    spec: (v) => site({ adaptiveSchema: v }),
    // docops sends the official form: the descriptions a manifest leaves out filled in.
    request: (v, ids) => [
      'PUT',
      `${SITE(ids)}/adaptive-schema`,
      { jsonSchema: officialAdaptiveSchema(v as Record<string, unknown>) },
    ],
    ok: [
      { type: 'object', additionalProperties: false, properties: { beta: { type: 'boolean', description: 'Beta' } } },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          unsigned: { type: 'object', additionalProperties: false, properties: { x: { type: 'boolean' } } },
        },
      },
    ],
    bad: [
      { type: 'object', additionalProperties: false, properties: { '': { type: 'boolean' } } },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          unsigned: { type: 'object', additionalProperties: false, properties: { '': { type: 'boolean' } } },
        },
      },
      { type: 'object', additionalProperties: false, properties: { plan: { type: 'string' } } },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          unsigned: { type: 'object', description: 'Unsigned', additionalProperties: false, properties: {} },
        },
      },
    ],
  },
];

/** The validation issues of one document of `kind` with `spec`. */
function validationIssues(kind: string, spec: Record<string, unknown>): string[] {
  const doc = { apiVersion: 'docops/v1', kind, metadata: { organization: 'org-demo' }, spec };
  const parsed = parseYamlFile('limits.yaml', JSON.stringify(doc), {});
  return validateParsedFiles([parsed], KINDS).issues.map(formatIssue);
}

async function prepare(call: Client['call']): Promise<Ids> {
  const created = await call('POST', `${ORG}/sites`, { title: 'Limits' });
  const sec = await call('POST', `${ORG}/sites/${created.body.id}/sections`, { spaceId: 'sp-api', title: 'Sec' });
  return { site: created.body.id, section: sec.body.id, siteSpace: sec.body.siteSpaces[0].id };
}

const shown = (v: unknown): string => JSON.stringify(v)?.slice(0, 50) ?? String(v);

describe('validation refuses exactly what the API refuses', () => {
  it.each(LIMITS)('$name', async (limit) => {
    const { call } = await sandbox({ seed: 'demo' });
    const ids = await prepare(call);
    for (const v of limit.ok) {
      expect(validationIssues(limit.kind, limit.spec(v)), `validation should accept ${shown(v)}`).toEqual([]);
      const [method, path, body] = limit.request(v, ids);
      const res = await call(method, path, body);
      expect(res.status, `the sandbox should accept ${shown(v)}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    for (const v of limit.bad) {
      expect(
        validationIssues(limit.kind, limit.spec(v)).length,
        `validation should refuse ${shown(v)}`,
      ).toBeGreaterThan(0);
      const [method, path, body] = limit.request(v, ids);
      expect((await call(method, path, body)).status, `the sandbox should refuse ${shown(v)}`).toBe(400);
    }
  });
});
