/**
 * Drift adopted: the manifest edits that make git agree with changes made in the app (docs/daemon.md, "Drift:
 * revert, report or propose"). For each document a drifted object comes from, the live object in its exported form
 * (the kind's own export) is laid over what the document writes — only the keys it writes, list items matched by
 * identity — and the result is checked with the same diff the plan ran: the edit counts only when the new
 * manifests plan no step for those objects and block nothing new. Pure: no request, no file written.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { desiredState, type DesiredState } from '../../model/state.js';
import type { DesiredEntry, KindDefinition, LiveKindState } from '../../model/kind.js';
import type { BlockedObject, Plan, Step } from '../../model/plan.js';
import { diffAll, type PlanOptions } from '../../engine/reconcile.js';
import { type LiveState } from '../../model/state.js';
import { liveKey } from '../../model/state.js';
import type { ManifestDocument } from '../../model/document.js';
import {
  applyOpsToValue,
  diffOps,
  itemIdentity,
  type DocumentRef,
  type FileEdit,
  type YamlPath,
} from '../../manifests/yaml-edit.js';
import { compileSchema } from '../../manifests/schema.js';
import { setAsideUnknown } from '../../manifests/unknown-values.js';
import { isRecord } from '../../model/json.js';

export interface Adoption {
  /** File (relative to the manifests directory, `/` separators) → its edits. */
  files: Map<string, FileEdit[]>;
  /** The held steps the edits adopt. */
  adopted: Step[];
  /** The held steps no edit could adopt, and why. */
  skipped: { step: Step; why: string }[];
}

export interface AdoptInput {
  kinds: readonly KindDefinition[];
  desired: DesiredState;
  live: LiveState;
  options: PlanOptions;
  /** The plan the held steps were taken from (its other steps are what the manifests still ask for). */
  plan: Plan;
  held: readonly Step[];
  manifestsDir: string;
}

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

const UNKNOWN_VALUE =
  'the live value is one docops does not know (from a newer API): no manifest can write it, so it is left as a drift to revert or to change in the app';

const objKey = (kind: string, key: string): string => `${kind}\u0000${key}`;
const print = (s: Step): string => JSON.stringify([s.id, s.action, s.before, s.after]);
const blockPrint = (b: BlockedObject): string => JSON.stringify([b.kind, b.org, b.key, b.message]);

/** What the manifest writes, with the live values laid over it (only keys it writes; list items by identity). */
export function overlay(written: unknown, live: unknown, o: Overlay): unknown {
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

function asDocument(value: Spec, file: string, index: number, like?: ManifestDocument<unknown>): ManifestDocument {
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

export function adoptDrift(input: AdoptInput): Adoption {
  const { kinds, plan, held } = input;
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const documents = input.desired.documents ?? [];
  const out: Adoption = { files: new Map(), adopted: [], skipped: [] };
  const heldIds = new Set(held.map((s) => s.id));
  const allowed = new Set(plan.steps.filter((s) => !heldIds.has(s.id)).map(print));
  const blockedBefore = new Set(plan.blocked.map(blockPrint));
  let desired = input.desired;
  const rel = (file: string): string => path.relative(input.manifestsDir, path.resolve(file)).split(path.sep).join('/');

  // The held steps by the document they come from (their source); a step without one: by its live object.
  const groups = new Map<ManifestDocument<unknown> | string, Step[]>();
  for (const step of held) {
    const doc = step.source ? documentAt(documents, step.source) : undefined;
    const k = doc ?? `${step.kind}\u0000${step.org}`;
    groups.set(k, [...(groups.get(k) ?? []), step]);
  }
  for (const [doc, steps] of groups) {
    const kindName = typeof doc === 'string' ? steps[0]!.kind : doc.kind;
    const org = typeof doc === 'string' ? steps[0]!.org : doc.metadata.organization;
    const kind = byKind.get(kindName);
    const exported = kind?.export?.(org, (input.live.get(liveKey(kindName, org)) ?? { objects: [] }) as LiveKindState);
    if (!kind || !exported) {
      for (const step of steps) out.skipped.push({ step, why: `${kindName} has no exported form to write` });
      continue;
    }
    const exportedDocs = (exported as Spec[]).map((x, i) => ({
      value: x,
      entries: kind.toDesired(asDocument(x, '(live)', i), () => undefined),
    }));
    // A manifest must validate: a live value docops does not know (a newer API's) cannot be written in one.
    const validate = compileSchema(kind.schema);
    let unknown = false;
    const writable = (spec: unknown): boolean => {
      if (validate(spec)) return true;
      if (setAsideUnknown(spec, kind.schema).count > 0) unknown = true;
      return false;
    };
    const want = new Set(steps.map((s) => objKey(s.kind, s.key)));
    const holding = exportedDocs.filter((x) => x.entries.some((e) => want.has(objKey(e.kind, e.key))));
    const candidates: { edit: FileEdit; file: string; docs: ManifestDocument[] }[] = [];
    if (typeof doc === 'string') {
      // Made in the app (a prune would delete it): its exported document, appended beside its kind's others.
      const beside = documents.find((d) => d.kind === kindName && d.metadata.organization === org);
      const file = beside ? rel(beside.file) : `${kindName.toLowerCase()}.yaml`;
      for (const x of holding.filter((h) => writable(h.value['spec'])))
        candidates.push({
          edit: { type: 'append', value: x.value },
          file,
          docs: [asDocument(x.value, path.join(input.manifestsDir, file), -1)],
        });
    } else {
      const file = rel(doc.file);
      const written = doc.spec as Spec;
      const entriesOfDoc = (input.desired.get(doc.kind) ?? []).filter((e) => e.doc === doc);
      // The exported document for the same object(s): the one holding the drifted ones, else the one sharing most.
      const mine = new Set(entriesOfDoc.map((e) => objKey(e.kind, e.key)));
      const counterpart =
        holding[0] ??
        exportedDocs
          .map((x) => ({ x, n: x.entries.filter((e) => mine.has(objKey(e.kind, e.key))).length }))
          .filter((c) => c.n > 0)
          .sort((a, b) => b.n - a.n)[0]?.x;
      if (!counterpart) candidates.push({ edit: { type: 'remove', doc: refOf(doc) }, file, docs: [] });
      else {
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
            docs: [
              asDocument(
                { ...(counterpart.value as Spec), metadata: doc.metadata, spec: target },
                doc.file,
                doc.index,
                doc,
              ),
            ],
          });
        }
      }
    }
    const replaced = typeof doc === 'string' ? undefined : doc;
    const chosen = candidates.find((c) => {
      const next = replaceDocument(desired, kind, replaced, c.docs);
      return next && verifies(input, next.desired, steps, next.objects, allowed, blockedBefore);
    });
    if (!chosen) {
      const why = unknown ? UNKNOWN_VALUE : 'no edit of its manifest makes the plan empty for it';
      for (const step of steps) out.skipped.push({ step, why });
      continue;
    }
    desired = replaceDocument(desired, kind, replaced, chosen.docs)!.desired;
    out.files.set(chosen.file, [...(out.files.get(chosen.file) ?? []), chosen.edit]);
    out.adopted.push(...steps);
  }
  return out;
}

/** The desired state with `doc`'s entries replaced by those of `docs` (none: removed); and the objects concerned. */
function replaceDocument(
  desired: DesiredState,
  kind: KindDefinition,
  doc: ManifestDocument<unknown> | undefined,
  docs: ManifestDocument[],
): { desired: DesiredState; objects: Set<string> } | undefined {
  const objects = new Set<string>();
  const entries = new Map(desired);
  const old = (desired.get(kind.kind) ?? []).filter((e) => doc !== undefined && e.doc === doc);
  for (const e of old) objects.add(objKey(e.kind, e.key));
  let fresh: DesiredEntry[];
  try {
    fresh = docs.flatMap((d) => kind.toDesired(d, () => undefined));
  } catch {
    return undefined; // an overlay the kind cannot read is no candidate
  }
  for (const e of fresh) objects.add(objKey(e.kind, e.key));
  entries.set(kind.kind, [
    ...(desired.get(kind.kind) ?? []).filter((e) => doc === undefined || e.doc !== doc),
    ...fresh,
  ]);
  const documents = [...(desired.documents ?? []).filter((d) => d !== doc), ...docs];
  return { desired: desiredState(entries, documents), objects };
}

/** The new manifests plan nothing for the drifted objects, nothing new for the document's others, and block nothing new. */
function verifies(
  input: AdoptInput,
  desired: DesiredState,
  steps: readonly Step[],
  objects: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
  blockedBefore: ReadonlySet<string>,
): boolean {
  let plan: Plan;
  try {
    plan = diffAll(input.kinds, desired, input.live, input.options);
  } catch {
    return false;
  }
  const ids = new Set(steps.map((s) => s.id));
  const concerned = (s: { kind: string; key: string; id?: string }): boolean =>
    objects.has(objKey(s.kind, s.key)) || (s.id !== undefined && ids.has(s.id));
  if (plan.steps.some((s) => concerned(s) && (ids.has(s.id) || !allowed.has(print(s))))) return false;
  if (steps.some((s) => plan.steps.some((p) => p.id === s.id))) return false;
  return plan.blocked.every((b) => blockedBefore.has(blockPrint(b)));
}

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

/** The document a source position lies in (the last one starting at or before it in its file). */
function documentAt(
  documents: readonly ManifestDocument<unknown>[],
  pos: { file: string; line: number; column: number },
): ManifestDocument<unknown> | undefined {
  let found: { doc: ManifestDocument<unknown>; line: number; column: number } | undefined;
  for (const d of documents) {
    if (d.file !== pos.file) continue;
    const start = d.pos([]);
    if (start.line > pos.line || (start.line === pos.line && start.column > pos.column)) continue;
    if (!found || start.line > found.line || (start.line === found.line && start.column > found.column))
      found = { doc: d, line: start.line, column: start.column };
  }
  return found?.doc;
}
