/**
 * Ownership modes, applied generically to every kind's diff (docs/kinds.md, "Who owns what"). A mode is set per
 * manifest kind in the config (`kinds: {Members: {mode: additive}}`) and per document (`mode: observe` beside
 * `kind`); where both apply the more cautious one wins, so a document can make its objects safer than the config
 * says, never less safe. A step takes the mode of the document its source lies in; a step without a source (a
 * prune, a cascade) the most cautious mode of the config and of every document of its kind and organization.
 *
 * - authoritative: the step is sent.
 * - additive: creates and updates are sent; what a delete would remove is left in place and listed as unmanaged
 *   (a written list is no longer the whole list); an update that also deletes (its `cascades`) is sent without
 *   its deletes through the kind's `withoutDeletes`, or reported and blocked.
 * - observe: nothing is sent; every change is reported.
 * A step still sent that needs a reported one (dependsOn, or a ref to its output) cannot run: it is taken out and
 * its object blocked, naming what it waits for. Prune is on only where the mode is authoritative (pruneResolver).
 */
import type { ManifestDocument } from '../model/document.js';
import type { DesiredState } from '../model/state.js';
import type { DiffResult, KindDefinition } from '../model/kind.js';
import type { BlockedObject, OwnershipMode, Plan, ReportedChange, Step, UnmanagedObject } from '../model/plan.js';

export const DEFAULT_MODE: OwnershipMode = 'authoritative';

/** A config's `kinds:` section (kind → `{mode}`) → the mode per manifest kind, for PlanOptions.modes. */
export function configModes(
  kinds: Readonly<Record<string, { mode?: OwnershipMode }>> = {},
): Record<string, OwnershipMode> {
  const out: Record<string, OwnershipMode> = {};
  for (const [kind, c] of Object.entries(kinds)) if (c.mode !== undefined) out[kind] = c.mode;
  return out;
}

const CAUTION: Record<OwnershipMode, number> = { authoritative: 0, additive: 1, observe: 2 };

/** The most cautious of the modes given (undefined ones ignored); authoritative when none is. */
export function mostCautious(...modes: (OwnershipMode | undefined)[]): OwnershipMode {
  let out: OwnershipMode = DEFAULT_MODE;
  for (const m of modes) if (m !== undefined && CAUTION[m] > CAUTION[out]) out = m;
  return out;
}

const key = (kind: string, org: string): string => `${kind}\u0000${org}`;

/** The modes of one desired state: per document, per (kind, org), per step. */
export class ModeResolver {
  /** Whether any mode is not authoritative (otherwise nothing is looked up). */
  readonly active: boolean;
  private readonly scopes = new Map<string, OwnershipMode>();
  /** File → its documents, by start position, for finding the document a step's source lies in. */
  private readonly byFile = new Map<string, { line: number; column: number; doc: ManifestDocument<unknown> }[]>();

  constructor(
    desired: DesiredState,
    private readonly config: Readonly<Record<string, OwnershipMode>> = {},
  ) {
    const docs = documentsOf(desired);
    this.active =
      Object.values(config).some((m) => m !== DEFAULT_MODE) ||
      docs.some((d) => d.mode !== undefined && d.mode !== DEFAULT_MODE);
    if (!this.active) return;
    for (const d of docs) {
      const k = key(d.kind, d.metadata.organization);
      this.scopes.set(k, mostCautious(this.scopes.get(k) ?? config[d.kind], d.mode));
      const start = d.pos([]);
      const list = this.byFile.get(d.file) ?? [];
      list.push({ line: start.line, column: start.column, doc: d });
      this.byFile.set(d.file, list);
    }
    for (const list of this.byFile.values()) list.sort((a, b) => a.line - b.line || a.column - b.column);
  }

  /** A document's own mode: its `mode:` and its kind's in the config, the more cautious. */
  ofDocument(doc: ManifestDocument<unknown>): OwnershipMode {
    return mostCautious(this.config[doc.kind], doc.mode);
  }

  /** The mode of what no one document asks for in (kind, org): prunes, cascades. */
  ofScope(kind: string, org: string): OwnershipMode {
    if (!this.active) return DEFAULT_MODE;
    return this.scopes.get(key(kind, org)) ?? mostCautious(this.config[kind]);
  }

  /** The mode of a step a kind's diff made for (kind, org): its source's document's, else the scope's. */
  ofStep(kind: string, org: string, step: Pick<Step, 'source'>): OwnershipMode {
    if (!this.active) return DEFAULT_MODE;
    const doc = step.source ? this.documentAt(step.source) : undefined;
    return doc ? this.ofDocument(doc) : this.ofScope(kind, org);
  }

  private documentAt(pos: { file: string; line: number; column: number }): ManifestDocument<unknown> | undefined {
    let found: ManifestDocument<unknown> | undefined;
    for (const d of this.byFile.get(pos.file) ?? []) {
      if (d.line > pos.line || (d.line === pos.line && d.column > pos.column)) break;
      found = d.doc;
    }
    return found;
  }
}

function documentsOf(desired: DesiredState): readonly ManifestDocument<unknown>[] {
  if (desired.documents) return desired.documents;
  const seen = new Set<ManifestDocument<unknown>>();
  for (const entries of desired.values()) for (const e of entries) seen.add(e.doc);
  return [...seen];
}

const report = (step: Step, mode: Exclude<OwnershipMode, 'authoritative'>): ReportedChange => {
  const { requests: _requests, dependsOn: _dependsOn, mode: _mode, ...rest } = step;
  return { ...rest, mode };
};

export interface ModedResult {
  steps: Step[];
  reported: ReportedChange[];
  unmanaged: UnmanagedObject[];
  blocked: BlockedObject[];
  /** Step ids the modes kept out of the plan → what they were, for the steps that need them. */
  dropped: Map<string, string>;
}

/**
 * One kind's diff result in (kind, org) under the modes: the steps to send (additive ones marked), the changes only
 * reported (observe), the objects additive leaves in place (unmanaged: a written list is no longer the whole list),
 * and the objects blocked because additive mode cannot reach them without deleting.
 */
export function applyModes(result: DiffResult, kind: KindDefinition, org: string, modes: ModeResolver): ModedResult {
  const out: ModedResult = { steps: [], reported: [], unmanaged: [], blocked: [], dropped: new Map() };
  if (!modes.active) return { ...out, steps: result.steps };
  const leave = (o: { kind: string; org: string; key: string; id?: string }): void => {
    out.unmanaged.push({
      kind: o.kind,
      org: o.org,
      key: o.key,
      ...(o.id !== undefined ? { id: o.id } : {}),
      mode: 'additive',
    });
  };
  for (const step of result.steps) {
    const mode = modes.ofStep(kind.kind, org, step);
    if (mode !== 'authoritative')
      out.dropped.set(step.id, `${step.kind} "${step.key}", which ${mode} mode does not ${step.action}`);
    if (mode === 'authoritative') out.steps.push(step);
    else if (mode === 'observe') out.reported.push(report(step, mode));
    else if (step.action === 'delete') leave(step);
    else if ((step.cascades ?? []).length === 0) {
      out.steps.push({ ...step, mode });
      out.dropped.delete(step.id);
    } else {
      // A create or update that deletes along: sent without its deletes when the kind can split it.
      const kept = kind.withoutDeletes ? kind.withoutDeletes(step) : undefined;
      if (kept === undefined) {
        const n = step.cascades!.length;
        out.reported.push(report(step, mode));
        out.blocked.push({
          kind: step.kind,
          org,
          key: step.key,
          message: `additive mode: this change also deletes ${n} object${n === 1 ? '' : 's'} no manifest writes and cannot be made without ${n === 1 ? 'it' : 'them'}; nothing of it is sent`,
          ...(step.source ? { source: step.source } : {}),
        });
        continue;
      }
      if (kept) {
        out.steps.push({ ...kept, mode });
        out.dropped.delete(step.id);
      }
      for (const o of step.cascades ?? []) leave(o);
    }
  }
  return out;
}

/**
 * Steps that need a step the modes kept out of the plan (dependsOn, or a ref to its output; `dropped`: step id →
 * what it was): they cannot run, so they leave the plan and their objects are blocked — transitively. Mutates `plan`.
 */
export function blockWaitingOnDropped(plan: Plan, dropped: ReadonlyMap<string, string>): void {
  if (dropped.size === 0) return;
  const gone = new Map(dropped);
  let changed = true;
  while (changed) {
    changed = false;
    for (const s of plan.steps) {
      if (gone.has(s.id)) continue;
      const needs = [...s.dependsOn, ...s.requests.flatMap((r) => (r.refs ?? []).map((slot) => slot.step))].find((id) =>
        gone.has(id),
      );
      if (needs === undefined) continue;
      const why = gone.get(needs)!;
      gone.set(s.id, `${s.kind} "${s.key}", which needs ${why}`);
      plan.blocked.push({
        kind: s.kind,
        org: s.org,
        key: s.key,
        message: `needs ${why}: the plan cannot reach it`,
        ...(s.source ? { source: s.source } : {}),
      });
      changed = true;
    }
  }
  plan.steps = plan.steps.filter((s) => !gone.has(s.id));
}
