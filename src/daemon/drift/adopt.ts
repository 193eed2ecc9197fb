/**
 * Drift adopted: the manifest edits that make git agree with changes made in the app (docs/daemon.md, "Drift:
 * revert, report or propose"). For each document a drifted object comes from, the live object in its exported form
 * (the kind's own export) is laid over what the document writes — only the keys it writes, list items matched by
 * identity — and the result is checked with the same diff the plan ran: the edit counts only when the new
 * manifests plan no step for those objects and block nothing new. Pure: no request, no file written.
 */
import path from 'node:path';
import { desiredState, type DesiredState } from '../../model/state.js';
import type { DesiredEntry, KindDefinition, LiveKindState } from '../../model/kind.js';
import type { BlockedObject, Plan, Step } from '../../model/plan.js';
import { diffAll, type PlanOptions } from '../../engine/reconcile.js';
import { type LiveState } from '../../model/state.js';
import { liveKey } from '../../model/state.js';
import type { ManifestDocument } from '../../model/document.js';
import type { FileEdit } from '../../manifests/yaml-edit.js';
import { compileSchema } from '../../manifests/schema.js';
import { setAsideUnknown } from '../../manifests/unknown-values.js';
import { appendCandidates, asDocument, editCandidates, objKey } from './candidates.js';

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

const UNKNOWN_VALUE =
  'the live value is one docops does not know (from a newer API): no manifest can write it, so it is left as a drift to revert or to change in the app';

const print = (s: Step): string => JSON.stringify([s.id, s.action, s.before, s.after]);
const blockPrint = (b: BlockedObject): string => JSON.stringify([b.kind, b.org, b.key, b.message]);

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

  for (const [doc, steps] of heldByDocument(held, documents)) {
    const kindName = typeof doc === 'string' ? steps[0]!.kind : doc.kind;
    const org = typeof doc === 'string' ? steps[0]!.org : doc.metadata.organization;
    const kind = byKind.get(kindName);
    const exported = kind?.export?.(org, (input.live.get(liveKey(kindName, org)) ?? { objects: [] }) as LiveKindState);
    if (!kind || !exported) {
      for (const step of steps) out.skipped.push({ step, why: `${kindName} has no exported form to write` });
      continue;
    }
    const all = (exported as Spec[]).map((x, i) => ({
      value: x,
      entries: kind.toDesired(asDocument(x, '(live)', i), () => undefined),
    }));
    const schema = writableBy(kind);
    const want = new Set(steps.map((s) => objKey(s.kind, s.key)));
    const holding = all.filter((x) => x.entries.some((e) => want.has(objKey(e.kind, e.key))));
    const candidates =
      typeof doc === 'string'
        ? appendCandidates(
            holding,
            schema.writable,
            documents.find((d) => d.kind === kindName && d.metadata.organization === org),
            kindName,
            { manifestsDir: input.manifestsDir, rel },
          )
        : editCandidates(
            doc,
            steps,
            { holding, all, entriesOfDoc: (input.desired.get(doc.kind) ?? []).filter((e) => e.doc === doc) },
            schema.writable,
            rel(doc.file),
          );
    const replaced = typeof doc === 'string' ? undefined : doc;
    const chosen = candidates.find((c) => {
      const next = replaceDocument(desired, kind, replaced, c.docs);
      return next && verifies(input, next.desired, steps, next.objects, allowed, blockedBefore);
    });
    if (!chosen) {
      const why = schema.sawUnknown() ? UNKNOWN_VALUE : 'no edit of its manifest makes the plan empty for it';
      for (const step of steps) out.skipped.push({ step, why });
      continue;
    }
    desired = replaceDocument(desired, kind, replaced, chosen.docs)!.desired;
    out.files.set(chosen.file, [...(out.files.get(chosen.file) ?? []), chosen.edit]);
    out.adopted.push(...steps);
  }
  return out;
}

/** The held steps by the document they come from (their source); a step without one: by its live object. */
function heldByDocument(
  held: readonly Step[],
  documents: readonly ManifestDocument<unknown>[],
): Map<ManifestDocument<unknown> | string, Step[]> {
  const groups = new Map<ManifestDocument<unknown> | string, Step[]>();
  for (const step of held) {
    const doc = step.source ? documentAt(documents, step.source) : undefined;
    const k = doc ?? `${step.kind}\u0000${step.org}`;
    groups.set(k, [...(groups.get(k) ?? []), step]);
  }
  return groups;
}

/**
 * A manifest must validate: a live value docops does not know (a newer API's) cannot be written in one.
 * `sawUnknown`: whether a spec was refused for such a value.
 */
function writableBy(kind: KindDefinition): { writable(spec: unknown): boolean; sawUnknown(): boolean } {
  const validate = compileSchema(kind.schema);
  let unknown = false;
  return {
    writable(spec) {
      if (validate(spec)) return true;
      if (setAsideUnknown(spec, kind.schema).count > 0) unknown = true;
      return false;
    },
    sawUnknown: () => unknown,
  };
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
