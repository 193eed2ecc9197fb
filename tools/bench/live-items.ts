/**
 * The API's list answers for a generated organization, built in memory (no sandbox, no HTTP), served through
 * an ApiClient that never touches the network: the CPU benchmark runs the kinds' real fetch code on them so
 * the live state is exactly what a real fetch would build.
 */
import type { ApiClient, ApiResponse } from '#src/model/api-client.js';
import type { GenOrg } from './org-model.js';

type Item = Record<string, unknown>;

export function apiLists(org: GenOrg): { lists: Map<string, Item[]>; objects: Map<string, Item> } {
  const base = `/orgs/${org.id}`;
  const lists = new Map<string, Item[]>();
  const memberItem = (i: number): Item => {
    const m = org.members[i]!;
    return {
      object: 'member',
      id: m.userId,
      role: m.role,
      sso: false,
      user: { object: 'user', id: m.userId, email: m.email, displayName: m.email },
    };
  };
  lists.set(
    `${base}/members`,
    org.members.map((_, i) => memberItem(i)),
  );
  lists.set(
    `${base}/teams`,
    org.teams.map((t) => ({ object: 'team', id: t.id, title: t.title })),
  );
  for (const t of org.teams) {
    lists.set(
      `${base}/teams/${t.id}/members`,
      t.members.map(({ member, role }) => ({ organization: memberItem(member), team: { role } })),
    );
  }
  lists.set(
    `${base}/translations`,
    org.translations.map((t) => ({ object: 'translation', id: t.id, title: t.title, languages: ['fr'] })),
  );
  const spaceItem = (i: number): Item => ({
    object: 'space',
    id: org.spaces[i]!.id,
    title: org.spaces[i]!.title,
    emoji: '',
    editMode: 'live',
    visibility: 'private',
  });
  lists.set(
    `${base}/spaces`,
    org.spaces.map((_, i) => spaceItem(i)),
  );
  lists.set(`${base}/collections`, []);
  lists.set(
    `${base}/sites`,
    org.sites.map((s) => ({
      object: 'site',
      id: s.id,
      title: s.title,
      visibility: 'public',
      adaptiveContent: { enabled: false },
      agentsContext: 'excluded',
    })),
  );
  for (const s of org.sites) {
    const groupId = `${s.id}-group`;
    const grouped = new Set(s.group?.sections ?? []);
    const siteSpaces: Item[] = [];
    const sections = s.sections.map((x, k) => {
      const id = `${s.id}-sec-${k}`;
      const spaces = x.spaces.map((i, j) => {
        const ss = {
          object: 'site-space',
          id: `${id}-ss-${j}`,
          path: org.spaces[i]!.title.toLowerCase().replace(/ /g, '-'),
          section: id,
          space: spaceItem(i),
          default: j === 0,
        };
        siteSpaces.push(ss);
        return ss;
      });
      return {
        object: 'site-section',
        id,
        title: x.title,
        path: x.path,
        default: k === 0,
        siteSpaces: spaces,
        ...(grouped.has(x.path) ? { sectionGroup: groupId } : {}),
      };
    });
    lists.set(`${base}/sites/${s.id}/sections`, sections);
    lists.set(`${base}/sites/${s.id}/site-spaces`, siteSpaces);
    const inGroup = sections.filter((x) => grouped.has(x.path));
    lists.set(
      `${base}/sites/${s.id}/section-groups`,
      s.group ? [{ object: 'site-section-group', id: groupId, title: s.group.title, sections: inGroup }] : [],
    );
  }
  const objects = new Map<string, Item>([
    [base, { object: 'organization', id: org.id, title: org.title, defaultRole: 'read', emailDomains: ['bench.test'] }],
  ]);
  return { lists, objects };
}

/** An ApiClient answering reads from memory; writes throw (the CPU benchmark never applies). */
export function memoryClient(org: GenOrg): ApiClient {
  const { lists, objects } = apiLists(org);
  const get = async <T>(path: string): Promise<T> => {
    const o = objects.get(path);
    if (!o) throw new Error(`memory client: no object at ${path}`);
    return o as T;
  };
  const listAll = async <T>(path: string): Promise<T[]> => {
    const l = lists.get(path);
    if (!l) throw new Error(`memory client: no list at ${path}`);
    return l as T[];
  };
  return {
    baseUrl: 'memory:',
    request: async <T>(method: string, path: string): Promise<ApiResponse<T>> => {
      if (method !== 'GET') throw new Error(`memory client: ${method} ${path} (the CPU benchmark never writes)`);
      return { status: 200, body: await get<T>(path), headers: {} };
    },
    get,
    listAll,
    paginate: <T>(path: string): AsyncIterable<T> => ({
      async *[Symbol.asyncIterator]() {
        yield* await listAll<T>(path);
      },
    }),
    close: async () => {},
  };
}
