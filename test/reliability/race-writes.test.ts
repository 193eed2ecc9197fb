/**
 * Issue 33, `race`: between a plan and its apply another actor changes what the plan read (a field docops does not
 * change, an item of a list). Every write docops sends must leave that change alone: a PATCH carries only the
 * fields its step changes, a list is written item by item or as a delta over what is read at apply time, and a
 * value the API takes only whole is built from a read taken right before it is sent, never from the plan's read.
 * One test per write that must hold; race-world.ts's raceBetween applies "before", plans "after", lets the actor
 * (u-grace, through the API) make its change, then applies the plan.
 */
import { describe, expect, it } from 'vitest';
import { raceBetween, copyManifests, edit, type ActorApi } from './race-world.js';

const SITE_YAML = 'site.yaml';

type Json = Record<string, unknown>;
const items = (body: unknown): Json[] => ((body as { items?: Json[] }).items ?? []) as Json[];

/** config.example's manifests with `before` edits, and a copy of them with `after` edits. */
function worlds(before: [string, string, string][], after: [string, string, string][]): [string, string] {
  const a = copyManifests();
  for (const [file, from, to] of before) edit(a, file, from, to);
  const b = copyManifests(a);
  for (const [file, from, to] of after) edit(b, file, from, to);
  return [a, b];
}

const FAVICON = '    favicon: { emoji: "📘" }\n';

async function siteId(api: ActorApi): Promise<string> {
  const sites = items(await api.call('GET', '/orgs/org-demo/sites'));
  const help = sites.find((s) => s['title'] === 'Acme Help Center');
  if (!help) throw new Error('no help center');
  return String(help['id']);
}

describe('a write of docops leaves alone what another actor changed after the plan', () => {
  it("a redirect's update keeps the captureWildcard another actor set (it is not written)", async () => {
    const [before, after] = worlds(
      [
        [
          SITE_YAML,
          FAVICON,
          `${FAVICON}  redirects:\n    - { source: /old-start, destination: { section: getting-started } }\n`,
        ],
      ],
      [[SITE_YAML, 'destination: { section: getting-started } }', 'destination: { section: api } }']],
    );
    const r = await raceBetween(before, after, async (api) => {
      const id = await siteId(api);
      const rule = items(await api.call('GET', `/orgs/org-demo/sites/${id}/redirects`))[0]!;
      await api.call('PATCH', `/orgs/org-demo/sites/${id}/redirects/${String(rule['id'])}`, { captureWildcard: true });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const id = await siteId(r.api);
      const [rule] = items(await r.api.call('GET', `/orgs/org-demo/sites/${id}/redirects`));
      const api = items(await r.api.call('GET', `/orgs/org-demo/sites/${id}/sections`)).find(
        (s) => s['path'] === 'api',
      );
      expect(rule).toMatchObject({
        captureWildcard: true,
        destination: { kind: 'site-section', siteSectionId: api!['id'] },
      });
    } finally {
      await r.close();
    }
  });

  it('visitor sign-in: a fallback URL change keeps the backend another actor set (it is not written)', async () => {
    const [before, after] = worlds(
      [[SITE_YAML, FAVICON, `${FAVICON}  publishingAuth: { fallbackURL: "https://acme.test/failed" }\n`]],
      [[SITE_YAML, 'https://acme.test/failed"', 'https://acme.test/failed-again"']],
    );
    const r = await raceBetween(before, after, async (api) => {
      await api.call('PATCH', `/orgs/org-demo/sites/${await siteId(api)}/publishing/auth`, { backend: 'integration' });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const auth = await r.api.call('GET', `/orgs/org-demo/sites/${await siteId(r.api)}/publishing/auth`);
      expect(auth).toMatchObject({ backend: 'integration', fallbackURL: 'https://acme.test/failed-again' });
    } finally {
      await r.close();
    }
  });

  it('e-mail domains: the plan adds and removes its own, and keeps a domain another actor added', async () => {
    const [before, after] = worlds(
      [['organization.yaml', 'emailDomains: [acme.test]', 'emailDomains: [acme.test, old.acme.test]']],
      [['organization.yaml', 'emailDomains: [acme.test, old.acme.test]', 'emailDomains: [acme.test, new.acme.test]']],
    );
    const r = await raceBetween(before, after, async (api) => {
      const org = (await api.call('GET', '/orgs/org-demo')) as { emailDomains: string[] };
      await api.call('PATCH', '/orgs/org-demo', { emailDomains: [...org.emailDomains, 'partner.test'] });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const org = (await r.api.call('GET', '/orgs/org-demo')) as { emailDomains: string[] };
      expect([...org.emailDomains].sort()).toEqual(['acme.test', 'new.acme.test', 'partner.test']);
    } finally {
      await r.close();
    }
  });

  it('merge rules (organization and space): a changed set of rules keeps a rule another actor added', async () => {
    const one = 'mergeRules: { type: rules, rules: [{ rule: require_at_least_one_review }] }';
    const two =
      'mergeRules: { type: rules, rules: [{ rule: require_at_least_one_review }, { rule: require_specific_reviewers, users: [grace@acme.test] }] }';
    const [before, after] = worlds(
      [
        ['organization.yaml', '  ai: true\n', `  ai: true\n  ${one}\n`],
        ['spaces.yaml', '  emoji: 🚀\n', `  emoji: 🚀\n  ${one}\n`],
      ],
      [
        ['organization.yaml', one, two],
        ['spaces.yaml', one, two],
      ],
    );
    const added = { rule: 'custom', expression: 'changeRequest.subject != ""', message: 'Write a subject' };
    const r = await raceBetween(before, after, async (api) => {
      for (const path of ['/orgs/org-demo', '/spaces/sp-getting-started']) {
        const { mergeRules } = (await api.call('GET', path)) as { mergeRules: { rules: Json[] } };
        await api.call('PATCH', path, { mergeRules: { type: 'rules', rules: [...mergeRules.rules, added] } });
      }
    });
    try {
      expect(r.report.failed).toEqual([]);
      for (const path of ['/orgs/org-demo', '/spaces/sp-getting-started']) {
        const { mergeRules } = (await r.api.call('GET', path)) as { mergeRules: { rules: Json[] } };
        expect(mergeRules.rules, path).toEqual([
          { rule: 'require_at_least_one_review' },
          added,
          { rule: 'require_specific_reviewers', users: ['u-grace'] },
        ]);
      }
    } finally {
      await r.close();
    }
  });

  it('adaptive schema: a change of one claim keeps a claim another actor added', async () => {
    const [before, after] = worlds(
      [],
      [
        [
          SITE_YAML,
          'staff: { type: boolean, description: Visitor is an Acme employee }',
          'staff: { type: boolean, description: Visitor works at Acme }',
        ],
      ],
    );
    const r = await raceBetween(before, after, async (api) => {
      const path = `/orgs/org-demo/sites/${await siteId(api)}/adaptive-schema`;
      const { jsonSchema } = (await api.call('GET', path)) as { jsonSchema: Json & { properties: Json } };
      const properties = { ...jsonSchema.properties, partner: { type: 'boolean', description: 'Added in the app' } };
      await api.call('PUT', path, { jsonSchema: { ...jsonSchema, properties } });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const path = `/orgs/org-demo/sites/${await siteId(r.api)}/adaptive-schema`;
      const { jsonSchema } = (await r.api.call('GET', path)) as { jsonSchema: { properties: Json } };
      expect(jsonSchema.properties['partner']).toEqual({ type: 'boolean', description: 'Added in the app' });
      expect(jsonSchema.properties['staff']).toEqual({ type: 'boolean', description: 'Visitor works at Acme' });
    } finally {
      await r.close();
    }
  });

  it('customization: a change of one member keeps a member another actor changed (read right before the PUT)', async () => {
    const [before, after] = worlds(
      [],
      [[SITE_YAML, 'primaryColor: { light: "#FF6600" }', 'primaryColor: { light: "#0066FF" }']],
    );
    const r = await raceBetween(before, after, async (api) => {
      const path = `/orgs/org-demo/sites/${await siteId(api)}/customization`;
      const { updatedAt: _u, ...settings } = (await api.call('GET', path)) as Json;
      await api.call('PUT', path, { ...settings, feedback: { enabled: true } });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const c = (await r.api.call('GET', `/orgs/org-demo/sites/${await siteId(r.api)}/customization`)) as Json;
      expect(c).toMatchObject({ feedback: { enabled: true }, styling: { primaryColor: { light: '#0066FF' } } });
    } finally {
      await r.close();
    }
  });

  it("an OpenAPI spec's new version is published when another actor changed the spec and the PUT's answer was lost", async () => {
    const [before, after] = worlds([], [['petstore.openapi.yaml', 'version: 1.0.0', 'version: 1.0.1']]);
    // The first request of the apply (the PUT: the plan's only step) fails before the server processes it.
    const r = await raceBetween(
      before,
      after,
      async (api) => void (await api.call('PATCH', '/orgs/org-demo/openapi/petstore', { visibility: 'public' })),
      '5xx=1,max=1',
    );
    try {
      expect(r.plan.steps.map((s) => s.id)).toEqual(['OpenAPISpec/org-demo/petstore#update']);
      expect(r.report.failed).toEqual([]);
      const res = await fetch(`${r.sandbox.url}/orgs/org-demo/openapi/petstore/versions/latest/content/raw`, {
        headers: { authorization: `Bearer ${r.sandbox.token}` },
      });
      expect(await res.text()).toContain('version: 1.0.1');
      // Sent, refused before processing, looked up (nothing published since the plan's read), sent again.
      const puts = r.sandbox.stats().requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/openapi/petstore'));
      expect(puts.map((q) => q.status)).toEqual([503, 200]);
    } finally {
      await r.close();
    }
  });

  it("a team's member-list change keeps a member another actor added (sent as a delta)", async () => {
    const [before, after] = worlds([], [['teams.yaml', '    - { email: dan@acme.test }   # new\n', '']]);
    const r = await raceBetween(before, after, async (api) => {
      await api.call('PUT', '/orgs/org-demo/teams/team-writers/members/u-ivan', { role: 'member' });
    });
    try {
      expect(r.report.failed).toEqual([]);
      const members = items(await r.api.call('GET', '/orgs/org-demo/teams/team-writers/members'));
      const ids = members.map((m) => String((m['organization'] as Json)['id'])).sort();
      expect(ids).toEqual(['u-erin', 'u-heidi', 'u-ivan', 'u-judy']);
    } finally {
      await r.close();
    }
  });
});
