/**
 * What the race habit's other actor (race.ts) changes, object by object: a field docops's manifests seldom write
 * (one the app edits: an organization's logo, a space's language, a section's description …) or an item of a
 * list (an e-mail domain, a member invited, a team member, a grant for another principal, a share link, an
 * adaptive-schema claim). The actor reads through the API as itself and writes one request through the API;
 * `watch` says where the value it set is read back, so what later writes do to it can be told.
 */
import { MEMBER_ROLES } from './records.js';

/** What the other actor works with: GETs as itself (the answer's body, undefined unless 200), and choices. */
export interface RaceTools {
  get(path: string): unknown;
  /** The race's number (names: race-N). */
  n: number;
  /** One of the options, fixed by the seed and the object (undefined when there are none). */
  pick<T>(options: readonly T[]): T | undefined;
}

export interface RaceChange {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body: unknown;
  /** The field changed (a dotted path in the object's GET answer), or the list item added or changed. */
  field?: string;
  item?: string;
  /** The item's identity as requests name it (a user id, an e-mail address, a name). */
  key?: string;
  /** Where what it set is read back: a GET path, and the part of its answer that is the change. */
  watch: { path: string; pick: (body: unknown) => unknown };
}

export interface RaceTarget {
  /** What the object is, for the log. */
  name: string;
  /** The object's path, as a route pattern (`:name` segments). */
  object: string;
  /** Paths below the object whose GET reads it (a list read in parts: a target's team and user grants). */
  readBy?: string[];
  /** A list whose answer holds objects of this target: its pattern, and an item's object path. */
  list?: { pattern: string; item: (params: Record<string, string>, item: Record<string, unknown>) => string };
  change(params: Record<string, string>, path: string, t: RaceTools): RaceChange | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (v: unknown, name: string): unknown => (isRecord(v) ? v[name] : undefined);
const itemsOf = (v: unknown): Record<string, unknown>[] => {
  const items = field(v, 'items');
  return Array.isArray(items) ? items.filter(isRecord) : [];
};
const ALL = '?limit=1000';
const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** The other values of an enum-like field (the current one left out). */
const others = <T>(all: readonly T[], current: unknown): T[] => all.filter((v) => v !== current);

/**
 * A plain field of the object set to `value` by PATCH, read back from the object's GET (or, for an object without
 * one, from its list: `list`, the item with the object's id).
 */
function patchField(path: string, name: string, value: unknown, list?: string): RaceChange {
  const id = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  const watch = list
    ? {
        path: list + ALL,
        pick: (b: unknown) =>
          field(
            itemsOf(b).find((i) => i['id'] === id),
            name,
          ),
      }
    : { path, pick: (b: unknown) => field(b, name) };
  return { method: 'PATCH', path, body: { [name]: value }, field: name, watch };
}

/** The user ids of the organization's members (enabled ones). */
function memberIds(t: RaceTools, org: unknown): string[] {
  if (typeof org !== 'string') return [];
  return itemsOf(t.get(`/v1/orgs/${encodeURIComponent(org)}/members${ALL}`))
    .filter((m) => m['disabled'] !== true)
    .map((m) => String(m['id']));
}

/** A user grant for a member holding none on the target: the grants read through `path`/users. */
function grantChange(path: string, org: unknown, t: RaceTools): RaceChange | undefined {
  const users = `${path}/users${ALL}`;
  const granted = new Set(itemsOf(t.get(users)).map((g) => String(field(g['user'], 'id'))));
  const user = t.pick(memberIds(t, org).filter((id) => !granted.has(id)));
  if (user === undefined) return undefined;
  return {
    method: 'POST',
    path,
    body: { role: 'read', users: [user] },
    item: `the grant of user ${user}`,
    key: user,
    watch: { path: users, pick: (b) => itemsOf(b).find((g) => field(g['user'], 'id') === user)?.['permission'] },
  };
}

const byId = (prefix: string) => (_p: Record<string, string>, item: Record<string, unknown>) =>
  `${prefix}/${encodeURIComponent(String(item['id']))}`;
const inOrg = (p: Record<string, string>, rest: string): string =>
  `/v1/orgs/${encodeURIComponent(p['organizationId'] ?? '')}${rest}`;
const inSite = (p: Record<string, string>, rest: string): string =>
  inOrg(p, `/sites/${encodeURIComponent(p['siteId'] ?? '')}${rest}`);

export const RACE_TARGETS: readonly RaceTarget[] = [
  {
    name: 'organization',
    object: '/v1/orgs/:organizationId',
    change: (_p, path, t) => {
      const domains = field(t.get(path), 'emailDomains');
      if (t.pick(['logo', 'domain']) === 'logo' || !Array.isArray(domains)) {
        const logo = `https://race.sandbox.test/${t.n}/logo.png`;
        return { ...patchField(path, 'logo', logo), watch: { path, pick: (b) => field(field(b, 'urls'), 'logo') } };
      }
      const domain = `race-${t.n}.sandbox.test`;
      return {
        method: 'PATCH',
        path,
        body: { emailDomains: [...domains, domain] },
        item: `the e-mail domain ${domain}`,
        key: domain,
        watch: { path, pick: (b) => (field(b, 'emailDomains') as unknown[] | undefined)?.includes(domain) },
      };
    },
  },
  {
    name: 'members of an organization',
    object: '/v1/orgs/:organizationId/members',
    change: (p, path, t) => {
      const email = `race-${t.n}@race.sandbox.test`;
      return {
        method: 'POST',
        path: inOrg(p, '/invites'),
        body: { emails: [{ email, role: 'read' }] },
        item: `the member ${email}`,
        key: email,
        watch: { path: path + ALL, pick: (b) => itemsOf(b).find((m) => field(m['user'], 'email') === email)?.['role'] },
      };
    },
  },
  {
    name: 'members of a team',
    object: '/v1/orgs/:organizationId/teams/:teamId/members',
    change: (p, path, t) => {
      const inTeam = new Set(itemsOf(t.get(path + ALL)).map((m) => String(field(m['organization'], 'id'))));
      const user = t.pick(memberIds(t, p['organizationId']).filter((id) => !inTeam.has(id)));
      if (user === undefined) return undefined;
      const roleOf = (b: unknown): unknown =>
        field(
          itemsOf(b).find((m) => field(m['organization'], 'id') === user),
          'team',
        );
      return {
        method: 'PUT',
        path: `${path}/${encodeURIComponent(user)}`,
        body: { role: 'member' },
        item: `the team member ${user}`,
        key: user,
        watch: { path: path + ALL, pick: (b) => field(roleOf(b), 'role') },
      };
    },
  },
  {
    name: 'collection',
    object: '/v1/collections/:collectionId',
    list: { pattern: '/v1/orgs/:organizationId/collections', item: byId('/v1/collections') },
    change: (_p, path, t) => {
      const level = t.pick(others(['read', 'comment', 'edit'], field(t.get(path), 'defaultLevel')));
      return level === undefined ? undefined : patchField(path, 'defaultLevel', level);
    },
  },
  {
    name: 'space',
    object: '/v1/spaces/:spaceId',
    list: { pattern: '/v1/orgs/:organizationId/spaces', item: byId('/v1/spaces') },
    change: (_p, path, t) => {
      const language = t.pick(others(['fr', 'de', 'ja', 'es'], field(t.get(path), 'language')));
      return language === undefined ? undefined : patchField(path, 'language', language);
    },
  },
  {
    name: 'site',
    object: SITE,
    list: {
      pattern: '/v1/orgs/:organizationId/sites',
      item: (p, item) => inSite({ ...p, siteId: String(item['id']) }, ''),
    },
    change: (_p, path, t) => {
      const level = t.pick(others(['read', 'comment'], field(t.get(path), 'defaultLevel')));
      return level === undefined ? undefined : patchField(path, 'defaultLevel', level);
    },
  },
  {
    name: 'site section',
    object: `${SITE}/sections/:siteSectionId`,
    list: { pattern: `${SITE}/sections`, item: (p, item) => inSite(p, `/sections/${String(item['id'])}`) },
    change: (p, path, t) => patchField(path, 'description', `Edited in the app (race ${t.n})`, inSite(p, '/sections')),
  },
  {
    name: 'site section group',
    object: `${SITE}/section-groups/:siteSectionGroupId`,
    list: { pattern: `${SITE}/section-groups`, item: (p, item) => inSite(p, `/section-groups/${String(item['id'])}`) },
    change: (p, path, t) => patchField(path, 'localizedTitle', { fr: `Course ${t.n}` }, inSite(p, '/section-groups')),
  },
  {
    name: 'share links of a site',
    object: `${SITE}/share-links`,
    change: (_p, path, t) => {
      const name = `race-${t.n}`;
      return {
        method: 'POST',
        path,
        body: { name },
        item: `the share link ${name}`,
        key: name,
        watch: { path: path + ALL, pick: (b) => itemsOf(b).find((l) => l['name'] === name)?.['active'] },
      };
    },
  },
  {
    name: 'redirect',
    object: `${SITE}/redirects/:siteRedirectId`,
    list: { pattern: `${SITE}/redirects`, item: (p, item) => inSite(p, `/redirects/${String(item['id'])}`) },
    change: (p, path, t) => {
      const list = inSite(p, '/redirects');
      const have = itemsOf(t.get(list + ALL)).find((r) => r['id'] === p['siteRedirectId']);
      return have && patchField(path, 'captureWildcard', have['captureWildcard'] !== true, list);
    },
  },
  ...['/v1/collections/:collectionId', '/v1/spaces/:spaceId'].map((object): RaceTarget => ({
    name: 'grants of a space or collection',
    object: `${object}/permissions`,
    readBy: ['/teams', '/users'],
    change: (_p, path, t) => grantChange(path, field(t.get(path.slice(0, -'/permissions'.length)), 'organization'), t),
  })),
  {
    name: 'grants of a site',
    object: `${SITE}/permissions`,
    readBy: ['/teams', '/users'],
    change: (p, path, t) => grantChange(path, p['organizationId'], t),
  },
  {
    name: 'customization of a site',
    object: `${SITE}/customization`,
    change: (_p, path, t) => {
      const have = t.get(path);
      if (!isRecord(have)) return undefined;
      const { updatedAt: _updatedAt, ...settings } = have;
      const enabled = field(settings['feedback'], 'enabled') === true;
      const body = {
        ...settings,
        feedback: { ...(isRecord(settings['feedback']) ? settings['feedback'] : {}), enabled: !enabled },
      };
      return {
        method: 'PUT',
        path,
        body,
        field: 'feedback.enabled',
        watch: { path, pick: (b) => field(field(b, 'feedback'), 'enabled') },
      };
    },
  },
  {
    name: 'adaptive schema of a site',
    object: `${SITE}/adaptive-schema`,
    change: (_p, path, t) => {
      const schema = field(t.get(path), 'jsonSchema');
      if (!isRecord(schema)) return undefined;
      const claim = `race${t.n}`;
      const properties = { ...(isRecord(schema['properties']) ? schema['properties'] : {}) };
      properties[claim] = { type: 'boolean', description: 'Added in the app' };
      return {
        method: 'PUT',
        path,
        body: { jsonSchema: { ...schema, properties } },
        item: `the claim ${claim}`,
        key: claim,
        watch: { path, pick: (b) => field(field(field(b, 'jsonSchema'), 'properties'), claim) },
      };
    },
  },
  {
    name: 'publishing auth of a site',
    object: `${SITE}/publishing/auth`,
    change: (_p, path, t) => {
      const backend = t.pick(others(['custom', 'integration'], field(t.get(path), 'backend')));
      return backend === undefined ? undefined : patchField(path, 'backend', backend);
    },
  },
  {
    name: 'SAML provider',
    object: '/v1/orgs/:organizationId/saml/:samlProviderId',
    list: { pattern: '/v1/orgs/:organizationId/saml', item: (p, item) => inOrg(p, `/saml/${String(item['id'])}`) },
    change: (_p, path, t) => {
      const role = t.pick(others(MEMBER_ROLES, field(t.get(path), 'defaultRole')));
      return role === undefined ? undefined : patchField(path, 'defaultRole', role);
    },
  },
  {
    name: 'OpenAPI specification',
    object: '/v1/orgs/:organizationId/openapi/:specSlug',
    list: {
      pattern: '/v1/orgs/:organizationId/openapi',
      item: (p, item) => inOrg(p, `/openapi/${String(item['slug'])}`),
    },
    change: (_p, path, t) =>
      patchField(path, 'visibility', field(t.get(path), 'visibility') === 'public' ? 'private' : 'public'),
  },
];

/** The path's parameters when it matches the pattern (segment by segment, `:name` matching one segment). */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter((s) => s !== '');
  const have = path.split('/').filter((s) => s !== '');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return undefined;
      }
    } else if (w !== h) return undefined;
  }
  return params;
}
