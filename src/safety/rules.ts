/**
 * The gate's own rules (kind guards are the kinds' business), each comparing a plan's changes with the live total
 * of the same population (counts.ts): blast-radius thresholds, which `--force` overrides; the prune-everything
 * rules, which only the config's allowPruneAll lifts; and the emptied-list rule, which a document's
 * `allowEmpty: true` or the config's allowEmpty lifts. Every message names its way through.
 */
import type { SourcePos } from '../model/errors.js';
import type { ParentRef } from '../model/kind.js';
import { limitsFor, type SafetyConfig, type Threshold } from './config.js';
import { liveCountOf, type LiveIndex, type ScopeChanges } from './counts.js';

export interface SafetyViolation {
  rule: string;
  kind?: string;
  org?: string;
  message: string;
  /** Whether `--force` lifts it. */
  overridable: boolean;
}

/** The manifest document that describes a parent object, when one does: whether it allows emptying its lists, and where it is. */
export type ParentDocument = (org: string, parent: ParentRef) => { allowEmpty: boolean; at: SourcePos } | undefined;

const FORCE_HINT = 'Re-run with --force to apply anyway.';

const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** How many of a scope's deletes are cascades, when any are (empty otherwise). */
const alongWith = (cascaded: number): string =>
  cascaded > 0 ? `${cascaded} of them taken along by deleting the objects that hold them` : '';

/** "Team in o1", or for one object's list "CollectionAccess of Collection "Docs" in o1". */
const whereOf = (c: { kind: string; org: string; parent?: ParentRef }): string =>
  c.parent ? `${c.kind} of ${c.parent.kind} "${c.parent.key}" in ${c.org}` : `${c.kind} in ${c.org}`;

const at = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * The fractions per population (skipped for a list whose parent this plan deletes: that delete is measured as the
 * parent's), then the caps per (kind, org), which count every change of the kind whatever its population.
 */
export function thresholdViolations(
  changes: readonly ScopeChanges[],
  index: LiveIndex,
  config: SafetyConfig,
): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  const byKind = new Map<string, ScopeChanges[]>();
  for (const c of changes) byKind.set(`${c.kind}\u0000${c.org}`, [...(byKind.get(`${c.kind}\u0000${c.org}`) ?? []), c]);
  for (const group of byKind.values()) {
    const { kind, org } = group[0]!;
    const limits = limitsFor(config, kind);
    for (const verb of ['deletes', 'updates'] as const) {
      const rule = verb === 'deletes' ? 'delete' : 'update';
      const t = limits[verb];
      const setting = (field: keyof Threshold): string =>
        config.kinds[kind]?.[verb]?.[field] !== undefined
          ? `safety.kinds.${kind}.${verb}.${field}`
          : `safety.${verb}.${field}`;
      for (const c of group) {
        const count = c[verb].size;
        if (count === 0 || c.parentDeleted) continue;
        const liveCount = liveCountOf(index, c);
        // Steps may touch objects the live lists do not hold (no live object read): never divide by less.
        const share = count / Math.max(liveCount, count);
        if (liveCount < t.minLive || share <= t.fraction) continue;
        const detail = [percent(share), verb === 'deletes' ? alongWith(c.cascaded) : ''].filter(Boolean).join('; ');
        out.push({
          rule: `${rule}-fraction`,
          kind,
          org,
          overridable: true,
          message:
            `${whereOf(c)}: plan ${verb} ${count} of ${liveCount} live objects (${detail}), over the limit of ${percent(t.fraction)} ` +
            `(${setting('fraction')}; applies from ${t.minLive} live objects, cap ${t.max}). ${FORCE_HINT}`,
        });
      }
      const count = group.reduce((n, c) => n + c[verb].size, 0);
      if (count <= t.max) continue;
      const along = verb === 'deletes' ? alongWith(group.reduce((n, c) => n + c.cascaded, 0)) : '';
      out.push({
        rule: `${rule}-cap`,
        kind,
        org,
        overridable: true,
        message: `${kind} in ${org}: plan ${verb} ${count} objects${along ? ` (${along})` : ''}, over the cap of ${t.max} per run (${setting('max')}). ${FORCE_HINT}`,
      });
    }
  }
  return out;
}

/**
 * An empty or nearly empty manifest set must never prune everything: a plan that deletes anything while
 * nothing was loaded from the manifests, or that deletes every live object of a kind in an org (of at least 2).
 * Not overridable by --force; `safety.allowPruneAll` (globally or per kind) lifts it. One object's list (its
 * grants, a team's members, a site's sections) is its own population: emptying it is `emptyListViolations`.
 */
export function pruneAllViolations(
  changes: readonly ScopeChanges[],
  index: LiveIndex,
  config: SafetyConfig,
  desiredCount: number,
): SafetyViolation[] {
  const deleting = changes.filter((c) => c.deletes.size > 0 && !limitsFor(config, c.kind).allowPruneAll);
  if (deleting.length === 0) return [];
  if (desiredCount === 0) {
    const perKind = new Map<string, number>();
    for (const c of deleting)
      perKind.set(`${c.kind} in ${c.org}`, (perKind.get(`${c.kind} in ${c.org}`) ?? 0) + c.deletes.size);
    const total = [...perKind.values()].reduce((n, x) => n + x, 0);
    const list = [...perKind].map(([where, n]) => `${where}: ${n}`).join(', ');
    return [
      {
        rule: 'empty-manifests',
        overridable: false,
        message:
          `no manifests were loaded, yet the plan deletes ${total} object${total === 1 ? '' : 's'} (${list}). ` +
          'An empty manifest set (a deleted directory, a bad glob) never prunes; check the manifest paths. ' +
          '--force does not lift this; set safety.allowPruneAll: true in the config to allow it (or safety.kinds.<Kind>.allowPruneAll: true for each of those kinds).',
      },
    ];
  }
  const out: SafetyViolation[] = [];
  for (const c of deleting) {
    if (c.parent) continue;
    const liveCount = liveCountOf(index, c);
    if (liveCount < 2 || c.deletes.size < liveCount) continue;
    const along = alongWith(c.cascaded);
    out.push({
      rule: 'delete-all',
      kind: c.kind,
      org: c.org,
      overridable: false,
      message:
        `${c.kind} in ${c.org}: plan deletes all ${liveCount} live objects${along ? ` (${along})` : ''}. An emptied manifest looks exactly like this, ` +
        `so --force does not lift it; set safety.kinds.${c.kind}.allowPruneAll: true (or safety.allowPruneAll: true) in the config to allow it.`,
    });
  }
  return out;
}

/**
 * A plan that deletes every entry (at least 2) of one object's list — emptied, or replaced whole — while the object
 * stays. A list emptied by mistake (a bad merge, a template that rendered nothing) looks exactly like this, so
 * `--force` does not lift it; `allowEmpty: true` in the document that describes the object does, and so does the
 * config's `safety.kinds.<Kind>.allowEmpty` (or allowPruneAll) for the sub-kind.
 */
export function emptyListViolations(
  changes: readonly ScopeChanges[],
  index: LiveIndex,
  config: SafetyConfig,
  documentOf: ParentDocument,
): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  for (const c of changes) {
    if (!c.parent || c.parentDeleted || c.deletes.size === 0 || limitsFor(config, c.kind).allowEmpty) continue;
    const liveCount = liveCountOf(index, c);
    if (liveCount < 2 || c.deletes.size < liveCount) continue;
    const doc = documentOf(c.org, c.parent);
    if (doc?.allowEmpty) continue;
    const along = alongWith(c.cascaded);
    const config_ = `safety.kinds.${c.kind}.allowEmpty: true in the config`;
    const way = doc
      ? `write allowEmpty: true in the ${c.parent.kind} document (${at(doc.at)}), or set ${config_}`
      : `no manifest describes ${c.parent.kind} "${c.parent.key}", so set ${config_}`;
    out.push({
      rule: 'empty-list',
      kind: c.kind,
      org: c.org,
      overridable: false,
      message:
        `${whereOf(c)}: plan deletes all ${liveCount} of its live objects${along ? ` (${along})` : ''}, emptying the list or replacing it whole. ` +
        `A list emptied by mistake looks exactly like this, so --force does not lift it; ${way} to allow it.`,
    });
  }
  return out;
}
