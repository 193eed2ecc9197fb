/** Test doubles for the kind tests: manifest documents, a diff context and a fetch context over fixed data. */
import type { SourcePos } from '../../src/model/errors.js';
import type {
  DesiredEntry,
  DiffContext,
  DiffResult,
  FetchContext,
  IdentityLookup,
  KindDefinition,
  LiveKindState,
  LiveObject,
} from '../../src/model/kind.js';
import { findDuplicates } from '../../src/manifests/duplicates.js';
import type { ManifestDocument } from '../../src/model/document.js';

/**
 * A manifest document whose positions are deterministic and distinct per path: line = 10 + the last
 * numeric index in the path (0 when none), column = path length.
 */
export function fakeDoc<D = Record<string, unknown>>(
  kind: string,
  org: string,
  spec: D,
  file = `${kind.toLowerCase()}.yaml`,
): ManifestDocument<D> {
  return {
    file,
    index: 0,
    apiVersion: 'docops/v1',
    kind,
    metadata: { organization: org },
    spec,
    pos(path: (string | number)[]): SourcePos {
      const lastIndex = [...path].reverse().find((p): p is number => typeof p === 'number') ?? 0;
      return { file, line: 10 + lastIndex, column: path.length };
    },
  };
}

export interface FakeDiffContext extends DiffContext {
  registered: Map<string, string>;
}

export function fakeDiffContext(
  opts: {
    prune?: string[];
    invite?: boolean;
    registered?: Record<string, string>;
    /** Entries of other kinds (any org), for `ctx.desired`. */
    desired?: DesiredEntry[];
    /** Live state of other kinds by kind name (any org), for `ctx.live`. */
    live?: Record<string, LiveKindState>;
  } = {},
): FakeDiffContext {
  const registered = new Map<string, string>(Object.entries(opts.registered ?? {}));
  const k = (kind: string, org: string, key: string): string => `${kind}|${org}|${key}`;
  return {
    registered,
    prune: (kind) => (opts.prune ?? []).includes(kind),
    options: { invite: opts.invite ?? false },
    resolve: (kind, org, key) => registered.get(k(kind, org, key)),
    register: (kind, org, key, idOrRef) => void registered.set(k(kind, org, key), idOrRef),
    live: (kind) => opts.live?.[kind],
    desired: (kind, org) => (opts.desired ?? []).filter((e) => e.kind === kind && e.org === org),
  };
}

/** Collect validation reports. */
export function reports(): {
  list: { pos: SourcePos; message: string }[];
  report: (pos: SourcePos, message: string) => void;
} {
  const list: { pos: SourcePos; message: string }[] = [];
  return { list, report: (pos, message) => void list.push({ pos, message }) };
}

/** Entries of documents through the kind's own toDesired, failing the test on any report. */
export function desiredOf<S>(
  kind: KindDefinition<S, LiveObject, unknown>,
  docs: ManifestDocument[],
): DesiredEntry<S>[] {
  const r = reports();
  const out = docs.flatMap((d) => kind.toDesired(d, r.report));
  if (r.list.length > 0) throw new Error(`unexpected reports: ${JSON.stringify(r.list)}`);
  return out;
}

/** A FetchContext answering GET/list from a path → body map, recording the paths asked for. */
export function fakeFetchContext(
  routes: Record<string, unknown>,
  prune: string[] = [],
): FetchContext & { asked: string[] } {
  const asked: string[] = [];
  const answer = (path: string): unknown => {
    asked.push(path);
    if (!(path in routes)) throw new Error(`unexpected request ${path}`);
    return routes[path];
  };
  return {
    asked,
    client: undefined as never,
    // A list read with a query answers the route `path?query` (e.g. `…/redirects?draft=true`).
    list: <T>(path: string, query?: Record<string, string | number | boolean>) =>
      Promise.resolve(
        answer(
          query
            ? `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
            : path,
        ) as T[],
      ),
    get: <T>(path: string) => Promise.resolve(answer(path) as T),
    prune: (kind) => prune.includes(kind),
  };
}

/** Fetch then diff one kind for one org, the way the engine does. */
export async function plan<S, O extends LiveObject, A>(
  kind: KindDefinition<S, O, A>,
  org: string,
  desired: DesiredEntry<S>[],
  routes: Record<string, unknown>,
  ctx: DiffContext = fakeDiffContext(),
): Promise<{ live: LiveKindState<O, A>; result: DiffResult }> {
  const live = await kind.fetch(fakeFetchContext(routes), org, desired);
  return { live, result: kind.diff(ctx, org, desired, live) };
}

/** The loader's identity index over `all` (kind → entries), as crossValidate receives it. */
export function identityLookup(all: ReadonlyMap<string, DesiredEntry[]>): IdentityLookup {
  return findDuplicates(all).index;
}
