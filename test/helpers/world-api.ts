/**
 * A read-only ApiClient that serves a World in the API's list shapes, for pure plan tests that need no
 * server. Any write throws: a plan computed through it provably sent nothing.
 */
import type { ApiClient, ApiResponse } from '../../src/model/api-client.js';
import type { HttpMethod } from '../../src/model/plan.js';
import { ORG, userIdOf, type World } from './world.js';

export function worldApi(world: World, org = ORG): ApiClient & { writes: string[] } {
  const member = (email: string, role: unknown) => ({
    object: 'member',
    id: userIdOf(email),
    role,
    user: { object: 'user', id: userIdOf(email), email },
    sso: false,
  });
  const roleOf = new Map(world.members.map((m) => [m.email.toLowerCase(), m.role]));
  const lists = new Map<string, unknown[]>();
  const base = `/orgs/${org}`;
  lists.set(
    `${base}/members`,
    world.members.map((m) => member(m.email, m.role)),
  );
  lists.set(
    `${base}/teams`,
    world.teams.map((t, i) => ({ object: 'team', id: t.id ?? `team-w${i}`, title: t.title })),
  );
  world.teams.forEach((t, i) => {
    lists.set(
      `${base}/teams/${t.id ?? `team-w${i}`}/members`,
      t.members.map((m) => ({
        organization: member(m.email, roleOf.get(m.email.toLowerCase()) ?? 'read'),
        team: { role: m.role },
        permissions: { view: true },
      })),
    );
  });
  // A member's teams (GET …/members/{userId}/teams), read when pruning members.
  for (const m of world.members) {
    const userId = userIdOf(m.email);
    const teams = world.teams.flatMap((t, i) => {
      const tm = t.members.find((x) => x.email.toLowerCase() === m.email.toLowerCase());
      return tm
        ? [{ team: { object: 'team', id: t.id ?? `team-w${i}`, title: t.title }, member: { role: tm.role } }]
        : [];
    });
    lists.set(`${base}/members/${userId}/teams`, teams);
  }
  // SAML providers: none (a team prune reads them to name the providers it leaves without a default team).
  lists.set(`${base}/saml`, []);
  lists.set(
    `${base}/translations`,
    world.translations.map((t, i) => ({
      object: 'translation-settings',
      id: t.id ?? `tr-w${i}`,
      title: t.title,
      languages: [],
    })),
  );
  const orgBody = {
    object: 'organization',
    id: org,
    title: 'Acme Docs',
    emailDomains: [],
    defaultRole: 'read',
    sso: false,
    ai: false,
    inviteLinks: false,
  };

  const writes: string[] = [];
  const read = (path: string): unknown => {
    if (path === base) return orgBody;
    const list = lists.get(path);
    if (list === undefined) throw new Error(`worldApi: no list at ${path}`);
    return list;
  };
  const client = {
    baseUrl: 'http://world.invalid/v1',
    writes,
    async request<T>(method: HttpMethod, path: string): Promise<ApiResponse<T>> {
      if (method !== 'GET') {
        writes.push(`${method} ${path}`);
        throw new Error(`worldApi is read-only: ${method} ${path}`);
      }
      return { status: 200, body: read(path) as T, headers: {} };
    },
    get: async <T>(path: string): Promise<T> => read(path) as T,
    async *paginate<T>(path: string): AsyncIterable<T> {
      for (const item of read(path) as T[]) yield item;
    },
    listAll: async <T>(path: string): Promise<T[]> => [...(read(path) as T[])],
    close: async () => {},
  };
  return client;
}
