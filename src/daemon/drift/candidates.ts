/**
 * The manifest edits worth trying to adopt a drift (adopt.ts checks each with the plan's diff): a document made in
 * the app appended beside its kind's others, or a document's spec with the live values laid over what it writes,
 * in each of the ways OVERLAYS lists. Pure: no request, no file written.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ManifestDocument } from '../../model/document.js';
import type { DesiredEntry } from '../../model/kind.js';
import type { Step } from '../../model/plan.js';
import {
  applyOpsToValue,
  diffOps,
  itemIdentity,
  type DocumentRef,
  type FileEdit,
  type YamlPath,
} from '../../manifests/yaml-edit.js';
import { isRecord } from '../../model/json.js';

type Spec = Record<string, unknown>;
type Overlay = { keep: boolean; lists: 'partial' | 'complete' | 'live' };
/** Tried in order: the smallest edit first (keys the export omits kept, list items only updated or removed). */
const OVERLAYS: Overlay[] = [
  { keep: true, lists: 'partial' },
  { keep: true, lists: 'complete' },
  { keep: true, lists: 'live' },
  { keep: false, lists: 'partial' },
  { keep: false, lists: 'complete' },
  { keep: false, lists: 'live' },
];

/** An edit of one file, and the documents it makes (none: it removes one). */
interface Candidate {
  edit: FileEdit;
  file: string;
  docs: ManifestDocument[];
}

/** A document of the kind's export, and the desired entries it makes. */
interface Exported {
  value: Spec;
  entries: DesiredEntry[];
}

export const objKey = (kind: string, key: string): string => `${kind}\u0000${key}`;

/** Made in the app (a prune would delete it): its exported documents, appended beside its kind's others. */
export function appendCandidates(
  holding: readonly Exported[],
  writable: (spec: unknown) => boolean,
  beside: { file: string } | undefined,
  kindName: string,
  where: { manifestsDir: string; rel(file: string): string },
): Candidate[] {
  const file = beside ? where.rel(beside.file) : `${kindName.toLowerCase()}.yaml`;
  return holding
    .filter((h) => writable(h.value['spec']))
    .map((x) => ({
      edit: { type: 'append', value: x.value },
      file,
      docs: [asDocument(x.value, path.join(where.manifestsDir, file), -1)],
    }));
}

/**
 * A document's edits: the exported document for the same object(s) (the one holding the drifted ones, else the
 * one sharing most) laid over what it writes; none to lay: the document is removed.
 */
export function editCandidates(
  doc: ManifestDocument<unknown>,
  steps: readonly Step[],
  exported: { holding: readonly Exported[]; all: readonly Exported[]; entriesOfDoc: readonly DesiredEntry[] },
  writable: (spec: unknown) => boolean,
  file: string,
): Candidate[] {
  const written = doc.spec as Spec;
  const mine = new Set(exported.entriesOfDoc.map((e) => objKey(e.kind, e.key)));
  const counterpart =
    exported.holding[0] ??
    exported.all
      .map((x) => ({ x, n: x.entries.filter((e) => mine.has(objKey(e.kind, e.key))).length }))
      .filter((c) => c.n > 0)
      .sort((a, b) => b.n - a.n)[0]?.x;
  if (!counterpart) return [{ edit: { type: 'remove', doc: refOf(doc) }, file, docs: [] }];
  const candidates: Candidate[] = [];
  const liveSpec = counterpart.value['spec'];
  const related = relatedTo(doc, written, steps);
  for (const o of OVERLAYS) {
    // Only what the drifted objects are written as changes: another object of the document keeps its value
    // (a manifest edit of it is applied, never undone by the proposal).
    const ops = diffOps(written, overlay(written, liveSpec, o)).filter((op) => related(op.path));
    const target = applyOpsToValue(written, ops) as Spec;
    if (
      ops.length === 0 ||
      !writable(target) ||
      candidates.some((c) => c.edit.type === 'edit' && isDeepStrictEqual(c.docs[0]!.spec, target))
    )
      continue;
    candidates.push({
      edit: { type: 'edit', doc: refOf(doc), ops },
      file,
      docs: [asDocument({ ...counterpart.value, metadata: doc.metadata, spec: target }, doc.file, doc.index, doc)],
    });
  }
  return candidates;
}

/** What the manifest writes, with the live values laid over it (only keys it writes; list items by identity). */
function overlay(written: unknown, live: unknown, o: Overlay): unknown {
  if (isRecord(written) && isRecord(live)) {
    const out: Spec = {};
    for (const [k, v] of Object.entries(written)) {
      if (k in live) out[k] = overlay(v, live[k], o);
      else if (o.keep) out[k] = v;
    }
    return out;
  }
  if (Array.isArray(written) && Array.isArray(live)) {
    const ids = written.map(itemIdentity);
    if (ids.some((id) => id === undefined)) return live;
    const byId = new Map(live.map((x) => [itemIdentity(x), x] as const));
    const stay = written.flatMap((w, i) => (byId.has(ids[i]) ? [overlay(w, byId.get(ids[i]), o)] : []));
    if (o.lists === 'partial') return stay;
    const extra = live.filter((x) => !ids.includes(itemIdentity(x)));
    if (o.lists === 'complete') return [...stay, ...extra];
    return live.map((x) => {
      const i = ids.indexOf(itemIdentity(x));
      return i === -1 ? x : overlay(written[i], x, o);
    });
  }
  return live;
}

export function asDocument(
  value: Spec,
  file: string,
  index: number,
  like?: ManifestDocument<unknown>,
): ManifestDocument {
  const pos = like ? like.pos.bind(like) : () => ({ file, line: 1, column: 1 });
  const metadata = value['metadata'] as ManifestDocument['metadata'];
  return {
    file,
    index,
    apiVersion: String(value['apiVersion']),
    kind: String(value['kind']),
    metadata,
    ...(like?.prune !== undefined ? { prune: like.prune } : {}),
    ...(like?.allowEmpty !== undefined ? { allowEmpty: like.allowEmpty } : {}),
    ...(like?.mode !== undefined ? { mode: like.mode } : {}),
    spec: value['spec'] as Spec,
    pos,
  };
}

const refOf = (doc: ManifestDocument<unknown>): DocumentRef => {
  const spec = isRecord(doc.spec) ? doc.spec : {};
  const identity =
    typeof spec['id'] === 'string' ? spec['id'] : typeof spec['title'] === 'string' ? spec['title'] : undefined;
  return {
    index: doc.index,
    kind: doc.kind,
    org: doc.metadata.organization,
    ...(identity !== undefined ? { identity } : {}),
  };
};

/**
 * Whether a path of a document's spec belongs to one of `steps`' objects: a step's source (where the manifest
 * writes its object) is the position of the path or of one of its ancestors, or of a member of one (an item's
 * `email`); a step whose source is the document's start owns all of it.
 */
function relatedTo(
  doc: ManifestDocument<unknown>,
  written: unknown,
  steps: readonly Step[],
): (path: YamlPath) => boolean {
  const at = (p: { line: number; column: number }): string => `${p.line}:${p.column}`;
  const sources = new Set(steps.flatMap((s) => (s.source ? [at(s.source)] : [])));
  return (path) => {
    if (sources.has(at(doc.pos([])))) return true;
    let node: unknown = written;
    for (let k = 0; k <= path.length; k++) {
      const prefix = ['spec', ...path.slice(0, k)];
      if (sources.has(at(doc.pos(prefix)))) return true;
      if (isRecord(node) && Object.keys(node).some((c) => sources.has(at(doc.pos([...prefix, c]))))) return true;
      node =
        k < path.length && (isRecord(node) || Array.isArray(node))
          ? (node as Record<string | number, unknown>)[path[k]!]
          : undefined;
    }
    return false;
  };
}
