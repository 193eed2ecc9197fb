/**
 * A second actor's changes for the randomized drift test: one random write on an object of any kind, chosen from
 * what the sandbox holds now (its store, read directly). Many are refused (a title taken, a move the API does not
 * allow): a refused write changes nothing, which is fine.
 */
import type { RunningSandbox } from '@docops/sandbox';
import { collections, members, spaces, teamMembers, teams, translations } from '@docops/sandbox';
import { openApiSpecs } from '../../../packages/sandbox/src/openapi-records.js';
import { siteExternalLinks } from '../../../packages/sandbox/src/site-external-links.js';
import { siteRedirects } from '../../../packages/sandbox/src/site-redirects.js';
import { siteSectionGroups, siteSections, siteShareLinks, sites } from '../../../packages/sandbox/src/site-records.js';
import { samlProviders } from '../../../packages/sandbox/src/sso-records.js';

export type Rng = () => number;

/** mulberry32: a small seeded PRNG, so a failing seed can be run again. */
export function rngOf(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
type Op = { method: string; path: string; body?: unknown };

const ORG = 'org-demo';
const PROTECTED = new Set(['u-ada', 'u-carol']); // the token's user and the actor
const ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'];

export function randomChange(sb: RunningSandbox, rng: Rng, n: number): Op | undefined {
  const pick = <T>(xs: readonly T[]): T | undefined =>
    xs.length === 0 ? undefined : xs[Math.floor(rng() * xs.length)];
  const name = (what: string): string => `${what} ${n}`;
  const s = sb.store;
  const member = pick(members(s).where((m) => m.orgId === ORG && !PROTECTED.has(m.userId)));
  const anyMember = pick(members(s).where((m) => m.orgId === ORG));
  const team = pick(teams(s).where((t) => t.orgId === ORG));
  const space = pick(spaces(s).where((x) => x.orgId === ORG && x.deletedAt === undefined));
  const binned = pick(spaces(s).where((x) => x.orgId === ORG && x.deletedAt !== undefined));
  const collection = pick(collections(s).where((c) => c.orgId === ORG));
  const site = pick(sites(s).where((x) => x.orgId === ORG));
  const section = site ? pick(siteSections(s).where((x) => x.siteId === site.id)) : undefined;
  const link = site ? pick(siteShareLinks(s).where((x) => x.siteId === site.id)) : undefined;
  const redirect = site ? pick(siteRedirects(s).where((x) => x.siteId === site.id)) : undefined;
  const external = site ? pick(siteExternalLinks(s).where((x) => x.siteId === site.id)) : undefined;
  const group = site ? pick(siteSectionGroups(s).where((x) => x.siteId === site.id)) : undefined;
  const translation = pick(translations(s).where((t) => t.orgId === ORG));
  const saml = pick(samlProviders(s).where((p) => p.orgId === ORG));
  const spec = pick(openApiSpecs(s).where((p) => p.orgId === ORG));
  const grantTarget = pick(
    [
      space && `/spaces/${space.id}`,
      collection && `/collections/${collection.id}`,
      site && `/orgs/${ORG}/sites/${site.id}`,
    ].filter((x): x is string => x !== undefined),
  );
  const ops: (() => Op | false | '' | undefined)[] = [
    () => member && { method: 'PATCH', path: `/orgs/${ORG}/members/${member.userId}`, body: { role: pick(ROLES) } },
    () => ({ method: 'POST', path: `/orgs/${ORG}/invites`, body: { emails: [`rnd${n}@acme.test`] } }),
    () => member && rng() < 0.5 && { method: 'DELETE', path: `/orgs/${ORG}/members/${member.userId}` },
    () => ({
      method: 'PUT',
      path: `/orgs/${ORG}/teams`,
      body: { title: name('Team'), members: anyMember ? [anyMember.userId] : [] },
    }),
    () => team && { method: 'PATCH', path: `/orgs/${ORG}/teams/${team.id}`, body: { title: name('Team') } },
    () => team && rng() < 0.5 && { method: 'DELETE', path: `/orgs/${ORG}/teams/${team.id}` },
    () =>
      team &&
      anyMember && {
        method: 'PUT',
        path: `/orgs/${ORG}/teams/${team.id}/members/${anyMember.userId}`,
        body: { role: pick(['owner', 'member']) },
      },
    () => {
      const tm = team && pick(teamMembers(s).where((x) => x.teamId === team.id));
      return tm && { method: 'DELETE', path: `/orgs/${ORG}/teams/${tm.teamId}/members/${tm.userId}` };
    },
    () => ({ method: 'POST', path: `/orgs/${ORG}/translations`, body: { title: name('Translation') } }),
    () =>
      translation && {
        method: rng() < 0.7 ? 'PUT' : 'DELETE',
        path: `/orgs/${ORG}/translations/${translation.id}`,
        body: { title: name('Translation') },
      },
    () => ({ method: 'POST', path: `/orgs/${ORG}/collections`, body: { title: name('Collection') } }),
    () => collection && { method: 'PATCH', path: `/collections/${collection.id}`, body: { title: name('Collection') } },
    () => collection && rng() < 0.3 && { method: 'DELETE', path: `/collections/${collection.id}` },
    () => ({
      method: 'POST',
      path: `/orgs/${ORG}/spaces`,
      body: { title: name('Space'), ...(collection && rng() < 0.5 ? { parent: collection.id } : {}) },
    }),
    () => space && { method: 'PATCH', path: `/spaces/${space.id}`, body: { title: name('Space') } },
    () => space && rng() < 0.4 && { method: 'DELETE', path: `/spaces/${space.id}` },
    () => binned && { method: 'POST', path: `/spaces/${binned.id}/restore` },
    () =>
      space && {
        method: 'POST',
        path: `/spaces/${space.id}/move`,
        body: { parent: collection && rng() < 0.6 ? collection.id : null },
      },
    () =>
      grantTarget &&
      team && { method: 'POST', path: `${grantTarget}/permissions`, body: { role: pick(ROLES), teams: [team.id] } },
    () =>
      grantTarget &&
      anyMember && {
        method: 'POST',
        path: `${grantTarget}/permissions`,
        body: { role: pick(ROLES), users: [anyMember.userId] },
      },
    () =>
      grantTarget &&
      team && {
        method: rng() < 0.5 ? 'PATCH' : 'DELETE',
        path: `${grantTarget}/permissions/teams/${team.id}`,
        body: { role: pick(ROLES) },
      },
    () =>
      grantTarget &&
      anyMember && {
        method: rng() < 0.5 ? 'PATCH' : 'DELETE',
        path: `${grantTarget}/permissions/users/${anyMember.userId}`,
        body: { role: pick(ROLES) },
      },
    () =>
      site && {
        method: 'PATCH',
        path: `/orgs/${ORG}/sites/${site.id}`,
        body: rng() < 0.5 ? { title: name('Site') } : { visibility: pick(['public', 'unlisted']) },
      },
    () =>
      site &&
      section && {
        method: 'PATCH',
        path: `/orgs/${ORG}/sites/${site.id}/sections/${section.id}`,
        body: { title: name('Section') },
      },
    () =>
      site &&
      section &&
      rng() < 0.3 && { method: 'DELETE', path: `/orgs/${ORG}/sites/${site.id}/sections/${section.id}` },
    () =>
      site &&
      space && {
        method: 'POST',
        path: `/orgs/${ORG}/sites/${site.id}/sections`,
        body: { spaceId: space.id, title: name('Section') },
      },
    () => site && { method: 'POST', path: `/orgs/${ORG}/sites/${site.id}/share-links`, body: { name: name('link') } },
    () =>
      site &&
      link && {
        method: rng() < 0.5 ? 'PATCH' : 'DELETE',
        path: `/orgs/${ORG}/sites/${site.id}/share-links/${link.id}`,
        body: { active: rng() < 0.5 },
      },
    () =>
      site && {
        method: 'PUT',
        path: `/orgs/${ORG}/sites/${site.id}/adaptive-schema`,
        body: {
          jsonSchema: {
            type: 'object',
            properties: { [`claim${n}`]: { type: 'boolean', description: 'random' } },
            additionalProperties: false,
          },
        },
      },
    // Issue 29: redirects (bulk), external links, visitor sign-in, publication, merge rules.
    () =>
      site && {
        method: 'PUT',
        path: `/orgs/${ORG}/sites/${site.id}/redirects`,
        body: {
          redirects: [
            { source: `/rnd/${n}`, intent: 'live', destination: { kind: 'external', url: `https://acme.test/${n}` } },
          ],
        },
      },
    () =>
      site &&
      redirect && {
        method: 'PUT',
        path: `/orgs/${ORG}/sites/${site.id}/redirects`,
        body: {
          redirects: [
            {
              source: redirect.source,
              intent: redirect.draft ? 'draft' : 'live',
              destination: rng() < 0.5 ? null : { kind: 'external', url: `https://acme.test/moved/${n}` },
            },
          ],
        },
      },
    () =>
      site && {
        method: 'POST',
        path: `/orgs/${ORG}/sites/${site.id}/external-links`,
        body: {
          title: name('Link'),
          url: `https://acme.test/l/${n}`,
          ...(group && rng() < 0.5 ? { parent: group.id } : {}),
        },
      },
    () =>
      site &&
      external && {
        method: rng() < 0.6 ? 'PATCH' : 'DELETE',
        path: `/orgs/${ORG}/sites/${site.id}/external-links/${external.id}`,
        body: { url: `https://acme.test/x/${n}`, parent: group && rng() < 0.5 ? group.id : null },
      },
    () =>
      site &&
      group &&
      rng() < 0.3 && { method: 'DELETE', path: `/orgs/${ORG}/sites/${site.id}/section-groups/${group.id}` },
    () =>
      site && {
        method: 'PATCH',
        path: `/orgs/${ORG}/sites/${site.id}/publishing/auth`,
        body: { backend: 'custom', logoutURL: `https://acme.test/out/${n}` },
      },
    () => site && rng() < 0.3 && { method: 'POST', path: `/orgs/${ORG}/sites/${site.id}/publishing/auth/regenerate` },
    () => site && { method: 'POST', path: `/orgs/${ORG}/sites/${site.id}/${rng() < 0.5 ? 'publish' : 'unpublish'}` },
    () =>
      anyMember && {
        method: 'PATCH',
        path: `/orgs/${ORG}`,
        body: {
          mergeRules:
            rng() < 0.3
              ? { type: 'none' }
              : { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [anyMember.userId] }] },
        },
      },
    () =>
      space &&
      anyMember && {
        method: 'PATCH',
        path: `/spaces/${space.id}`,
        body: {
          mergeRules:
            rng() < 0.3
              ? { type: 'inherit' }
              : { type: 'rules', rules: [{ rule: 'allow_bypass', users: [anyMember.userId] }] },
        },
      },
    () => ({ method: 'POST', path: `/orgs/${ORG}/saml`, body: { label: name('IdP').slice(0, 30) } }),
    () =>
      saml && {
        method: rng() < 0.7 ? 'PATCH' : 'DELETE',
        path: `/orgs/${ORG}/saml/${saml.id}`,
        body: { defaultRole: pick(ROLES), ...(team ? { defaultTeam: team.id } : {}) },
      },
    () => ({
      method: 'POST',
      path: `/orgs/${ORG}/openapi`,
      body: { slug: `api-${n}`, source: { url: `https://example.test/api-${n}.json` } },
    }),
    () =>
      spec && {
        method: rng() < 0.6 ? 'PUT' : 'DELETE',
        path: `/orgs/${ORG}/openapi/${spec.slug}`,
        body: { source: { url: `https://example.test/v${n}.json` } },
      },
    () => ({
      method: 'PATCH',
      path: `/orgs/${ORG}`,
      body: rng() < 0.5 ? { title: name('Acme') } : { defaultRole: pick(ROLES) },
    }),
  ];
  const op = pick(ops)!();
  if (!op) return undefined;
  return op.method === 'DELETE' || op.method === 'GET' || (op.method === 'POST' && op.path.endsWith('/restore'))
    ? { method: op.method, path: op.path }
    : op;
}

/** The site's customization with another primary colour (a read-modify-write, as the app does). */
export async function recolor(sb: RunningSandbox, call: Call, rng: Rng): Promise<void> {
  const site = sites(sb.store).where((x) => x.orgId === ORG)[0];
  if (!site) return;
  const path = `/orgs/${ORG}/sites/${site.id}/customization`;
  const current = await call('GET', path);
  if (current.status !== 200 || typeof current.body !== 'object' || current.body === null) return;
  const { updatedAt: _, ...settings } = current.body as Record<string, unknown> & { styling?: Record<string, unknown> };
  const color = `#${Math.floor(rng() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
  await call('PUT', path, {
    ...settings,
    styling: { ...(settings['styling'] as object), primaryColor: { light: color, dark: color } },
  });
}
