/**
 * Docs health: the broken links the API reports in each managed space (a space a Space manifest describes),
 * `GET /spaces/{id}/links?status=broken` — one list request per space (the first page, up to 1000 links, with the
 * `stats` that count them all), through the API client like every read (paced to the rate limit, retried).
 *
 * A link is identified by what it points to and where it is written (its `targetReference` and
 * `locationReferences`), so a baseline — the links found earlier, e.g. on the main branch — tells the new ones
 * from those already known (`docops plan --fail-on broken-links`).
 */
import type { ApiClient } from '../model/api-client.js';
import type { DesiredEntry } from '../model/kind.js';
import { type LiveState } from '../model/state.js';
import { type DesiredState } from '../model/state.js';
import { liveKey } from '../model/state.js';
import { isRecord } from '../model/json.js';

/** The kind whose documents make a space "managed". */
const SPACE_KIND = 'Space';
/** The most links one request lists (the API's `limit` maximum). */
export const LINKS_PER_SPACE = 1000;

export interface ManagedSpace {
  org: string;
  id: string;
  title: string;
}

export interface BrokenLink {
  /** Canonical JSON of its target and locations: its identity across runs. */
  key: string;
  /** What it points to and where it is written, as the API shows them. */
  target: unknown;
  locations: unknown;
}

export interface SpaceLinks extends ManagedSpace {
  /** Broken links in the space's live revision (`stats.broken.total`). */
  broken: number;
  /** Broken links in the space's open change requests, not among `broken` (`stats.broken.changeRequest`). */
  inChangeRequests: number;
  /** The broken links listed (the first page: all of them unless there are more than LINKS_PER_SPACE). */
  links: BrokenLink[];
}

/** Object keys sorted at every depth, so equal references give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

export const linkKey = (target: unknown, locations: unknown): string => canonical({ target, locations });

/** The live space a Space document describes: by its pinned id, else by title (one live space with it). */
function liveSpaceOf(e: DesiredEntry, live: LiveState): ManagedSpace | undefined {
  const objects = live.get(liveKey(SPACE_KIND, e.org))?.objects.filter((o) => o.kind === SPACE_KIND) ?? [];
  const hit =
    (e.id !== undefined ? objects.find((o) => o.id === e.id) : undefined) ??
    (objects.filter((o) => o.key === e.key).length === 1 ? objects.find((o) => o.key === e.key) : undefined);
  return hit ? { org: e.org, id: hit.id, title: hit.key } : undefined;
}

/** The managed spaces that exist live (a space the plan creates has no links yet), each once, in manifest order. */
export function managedSpaces(desired: DesiredState, live: LiveState): ManagedSpace[] {
  const seen = new Set<string>();
  return (desired.get(SPACE_KIND) ?? []).flatMap((e) => {
    const s = liveSpaceOf(e, live);
    if (!s || seen.has(s.id)) return [];
    seen.add(s.id);
    return [s];
  });
}

function spaceLinks(space: ManagedSpace, body: unknown): SpaceLinks {
  const b = isRecord(body) ? body : {};
  const stats = isRecord(b['stats']) ? b['stats'] : {};
  const broken = isRecord(stats['broken']) ? stats['broken'] : {};
  const items = Array.isArray(b['items']) ? b['items'].filter(isRecord) : [];
  const links = items.map((l) => ({
    key: linkKey(l['targetReference'], l['locationReferences']),
    target: l['targetReference'] ?? null,
    locations: l['locationReferences'] ?? [],
  }));
  const count = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
  return {
    ...space,
    broken: count(broken['total'], links.length),
    inChangeRequests: count(broken['changeRequest'], 0),
    links,
  };
}

/** One list request per space, a few at a time (the client paces them to the API's rate limit). */
export async function readBrokenLinks(
  client: ApiClient,
  spaces: readonly ManagedSpace[],
  concurrency = 4,
): Promise<SpaceLinks[]> {
  const out: SpaceLinks[] = new Array<SpaceLinks>(spaces.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < spaces.length) {
      const i = next++;
      const space = spaces[i]!;
      out[i] = spaceLinks(
        space,
        await client.get(`/spaces/${encodeURIComponent(space.id)}/links`, { status: 'broken', limit: LINKS_PER_SPACE }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, spaces.length) }, worker));
  return out;
}

/** Broken links found earlier, by space id: the keys of their links (what `--broken-links-out` writes). */
export interface Baseline {
  version: 1;
  spaces: Record<string, string[]>;
}

export function baselineOf(found: readonly SpaceLinks[]): Baseline {
  return { version: 1, spaces: Object.fromEntries(found.map((s) => [s.id, s.links.map((l) => l.key).sort()])) };
}

/** A baseline file's content, or why it is none. */
export function parseBaseline(text: string): Baseline | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isRecord(v) || v['version'] !== 1 || !isRecord(v['spaces']))
    return 'not a broken-links baseline (version 1, spaces)';
  const spaces: Record<string, string[]> = {};
  for (const [id, keys] of Object.entries(v['spaces'])) {
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string'))
      return `spaces.${id}: must be a list of link keys`;
    spaces[id] = keys;
  }
  return { version: 1, spaces };
}

/** Per space, the broken links the baseline does not hold (without a baseline: every one). */
export function newBrokenLinks(
  found: readonly SpaceLinks[],
  baseline: Baseline | undefined,
): { space: SpaceLinks; links: BrokenLink[] }[] {
  return found.flatMap((space) => {
    const known = new Set(baseline?.spaces[space.id] ?? []);
    const links = space.links.filter((l) => !known.has(l.key));
    return links.length > 0 ? [{ space, links }] : [];
  });
}

/** A link in one line: what it points to and where it is. */
export function describeLink(l: BrokenLink): string {
  const t = isRecord(l.target) ? l.target : {};
  // A reference names its target in the member its kind is called (`{kind: file, file: …}`, `{kind: url, url: …}`).
  const kind = t['kind'];
  const what =
    typeof kind === 'string'
      ? typeof t[kind] === 'string'
        ? `${kind} ${String(t[kind])}`
        : kind
      : canonical(l.target);
  const where = Array.isArray(l.locations)
    ? l.locations.flatMap((x) => (isRecord(x) && typeof x['page'] === 'string' ? [`page ${x['page']}`] : [])).join(', ')
    : '';
  return where ? `${what} (in ${where})` : what;
}
