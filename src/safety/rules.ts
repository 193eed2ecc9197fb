/**
 * The gate's own rules (kind guards are the kinds' business): blast-radius thresholds, which `--force`
 * overrides, and the prune-everything rules, which only the config's allowPruneAll lifts.
 */
import { limitsFor, type SafetyConfig, type Threshold } from './config.js';
import { liveCountOf, type ScopeChanges } from './counts.js';

export interface SafetyViolation {
  rule: string;
  kind?: string;
  org?: string;
  message: string;
  /** Whether `--force` lifts it. */
  overridable: boolean;
}

const FORCE_HINT = 'Re-run with --force to apply anyway.';

const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** How many of a scope's deletes are cascades, when any are (empty otherwise). */
const alongWith = (c: ScopeChanges, verb: 'deletes' | 'updates'): string =>
  verb === 'deletes' && c.cascaded > 0 ? `${c.cascaded} of them taken along by deleting the objects that hold them` : '';

/** Per (kind, org): deletes and updates against the fraction of live objects and the absolute cap. */
export function thresholdViolations(changes: readonly ScopeChanges[], live: ReadonlyMap<string, number>, config: SafetyConfig): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  for (const c of changes) {
    const limits = limitsFor(config, c.kind);
    const liveCount = liveCountOf(live, c.kind, c.org);
    out.push(...checkThreshold('delete', 'deletes', c, c.deletes.size, liveCount, limits.deletes, config));
    out.push(...checkThreshold('update', 'updates', c, c.updates.size, liveCount, limits.updates, config));
  }
  return out;
}

function checkThreshold(
  rule: 'delete' | 'update',
  verb: 'deletes' | 'updates',
  scope: ScopeChanges,
  count: number,
  liveCount: number,
  t: Threshold,
  config: SafetyConfig,
): SafetyViolation[] {
  if (count === 0) return [];
  const out: SafetyViolation[] = [];
  const where = `${scope.kind} in ${scope.org}`;
  const setting = (field: keyof Threshold): string =>
    config.kinds[scope.kind]?.[verb]?.[field] !== undefined ? `safety.kinds.${scope.kind}.${verb}.${field}` : `safety.${verb}.${field}`;
  // Steps may touch objects the live lists do not hold as objects (e.g. memberships); never divide by less.
  const base = Math.max(liveCount, count);
  const share = count / base;
  if (liveCount >= t.minLive && share > t.fraction) {
    out.push({
      rule: `${rule}-fraction`,
      kind: scope.kind,
      org: scope.org,
      overridable: true,
      message:
        `${where}: plan ${verb} ${count} of ${liveCount} live objects (${[percent(share), alongWith(scope, verb)].filter(Boolean).join('; ')}), over the limit of ${percent(t.fraction)} ` +
        `(${setting('fraction')}; applies from ${t.minLive} live objects, cap ${t.max}). ${FORCE_HINT}`,
    });
  }
  if (count > t.max) {
    out.push({
      rule: `${rule}-cap`,
      kind: scope.kind,
      org: scope.org,
      overridable: true,
      message: `${where}: plan ${verb} ${count} objects${alongWith(scope, verb) ? ` (${alongWith(scope, verb)})` : ''}, over the cap of ${t.max} per run (${setting('max')}). ${FORCE_HINT}`,
    });
  }
  return out;
}

/**
 * An empty or nearly empty manifest set must never prune everything: a plan that deletes anything while
 * no manifest entry was loaded, or that deletes every live object of a kind in an org (of at least 2).
 * Not overridable by --force; `safety.allowPruneAll` (globally or per kind) lifts it.
 */
export function pruneAllViolations(changes: readonly ScopeChanges[], live: ReadonlyMap<string, number>, config: SafetyConfig, desiredCount: number): SafetyViolation[] {
  const deleting = changes.filter((c) => c.deletes.size > 0 && !limitsFor(config, c.kind).allowPruneAll);
  if (deleting.length === 0) return [];
  if (desiredCount === 0) {
    const total = deleting.reduce((n, c) => n + c.deletes.size, 0);
    const list = deleting.map((c) => `${c.kind} in ${c.org}: ${c.deletes.size}`).join(', ');
    return [
      {
        rule: 'empty-manifests',
        overridable: false,
        message:
          `no manifest entries were loaded, yet the plan deletes ${total} object${total === 1 ? '' : 's'} (${list}). ` +
          'An empty manifest set (a deleted directory, a bad glob) never prunes; check the manifest paths. ' +
          '--force does not lift this; set safety.allowPruneAll: true in the config to allow it.',
      },
    ];
  }
  const out: SafetyViolation[] = [];
  for (const c of deleting) {
    const liveCount = liveCountOf(live, c.kind, c.org);
    if (liveCount < 2 || c.deletes.size < liveCount) continue;
    out.push({
      rule: 'delete-all',
      kind: c.kind,
      org: c.org,
      overridable: false,
      message:
        `${c.kind} in ${c.org}: plan deletes all ${liveCount} live objects${alongWith(c, 'deletes') ? ` (${alongWith(c, 'deletes')})` : ''}. An emptied manifest looks exactly like this, ` +
        `so --force does not lift it; set safety.kinds.${c.kind}.allowPruneAll: true (or safety.allowPruneAll: true) in the config to allow it.`,
    });
  }
  return out;
}
