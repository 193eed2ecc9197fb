/**
 * The `safety:` section of the daemon config (schemas/safety.schema.json): limits on how much one run may
 * delete or update, per kind, and the escape hatches for deliberately deleting every object of a kind
 * (allowPruneAll) or every entry of one object's list (allowEmpty, per sub-kind).
 * Defaults follow octoDNS (refuse > 30 % record changes when more than 10 exist) and peribolos (25 %
 * removal delta): large blast radii need a human to say `--force`.
 */
import { UsageError } from '../model/errors.js';

export interface Threshold {
  /** Largest allowed share of the live objects of a kind in an org, 0..1 (at the limit is allowed). */
  fraction: number;
  /** The fraction applies only from this many live objects on (small sets change wholesale legitimately). */
  minLive: number;
  /** Absolute cap per run, whatever the live count. */
  max: number;
}

export interface KindSafety {
  deletes?: Partial<Threshold>;
  updates?: Partial<Threshold>;
  /** Allow deleting every live object of this kind in an org (see allowPruneAll). */
  allowPruneAll?: boolean;
  /**
   * Allow a plan to delete every entry of one object's list of this kind (e.g. `CollectionAccess`: a collection's
   * grants; `TeamMember`: a team's members), as `allowEmpty: true` does for one document. allowPruneAll implies it.
   */
  allowEmpty?: boolean;
}

export interface SafetyConfig {
  deletes: Threshold;
  updates: Threshold;
  /**
   * Allow a plan that deletes every live object of a kind in an org, or deletes anything while no manifest
   * entry exists at all. `--force` never does: an emptied manifests directory or a bad glob looks exactly
   * like that, and `--force` tends to be passed by habit.
   */
  allowPruneAll: boolean;
  /** Overrides by step kind (manifest kinds and sub-kinds, e.g. `Team`, `SiteSection`). */
  kinds: Record<string, KindSafety>;
}

export const DEFAULT_SAFETY: Readonly<SafetyConfig> = Object.freeze({
  deletes: Object.freeze({ fraction: 0.25, minLive: 10, max: 100 }),
  updates: Object.freeze({ fraction: 0.3, minLive: 10, max: 500 }),
  allowPruneAll: false,
  kinds: Object.freeze({}),
}) as Readonly<SafetyConfig>;

/** The limits that apply to one step kind. */
export function limitsFor(
  config: SafetyConfig,
  kind: string,
): { deletes: Threshold; updates: Threshold; allowPruneAll: boolean; allowEmpty: boolean } {
  const k = config.kinds[kind] ?? {};
  const allowPruneAll = k.allowPruneAll ?? config.allowPruneAll;
  return {
    deletes: { ...config.deletes, ...defined(k.deletes) },
    updates: { ...config.updates, ...defined(k.updates) },
    allowPruneAll,
    // Deleting every object of the kind in the org is allowed: so is emptying one object's list of them.
    allowEmpty: k.allowEmpty === true || allowPruneAll,
  };
}

/**
 * The config's `safety:` value (already schema-checked, or not) → a complete SafetyConfig. Throws
 * UsageError on values that would silently disable a limit (negative, fraction above 1, not a number).
 */
export function resolveSafetyConfig(input: unknown = {}): SafetyConfig {
  const src = asRecord(input ?? {}, 'safety');
  onlyKeys(src, ['deletes', 'updates', 'allowPruneAll', 'kinds'], 'safety');
  const kinds: Record<string, KindSafety> = {};
  for (const [name, raw] of Object.entries(asRecord(src['kinds'] ?? {}, 'safety.kinds'))) {
    const k = asRecord(raw, `safety.kinds.${name}`);
    onlyKeys(k, ['deletes', 'updates', 'allowPruneAll', 'allowEmpty'], `safety.kinds.${name}`);
    const entry: KindSafety = {};
    if (k['deletes'] !== undefined) entry.deletes = partialThreshold(k['deletes'], `safety.kinds.${name}.deletes`);
    if (k['updates'] !== undefined) entry.updates = partialThreshold(k['updates'], `safety.kinds.${name}.updates`);
    if (k['allowPruneAll'] !== undefined)
      entry.allowPruneAll = bool(k['allowPruneAll'], `safety.kinds.${name}.allowPruneAll`);
    if (k['allowEmpty'] !== undefined) entry.allowEmpty = bool(k['allowEmpty'], `safety.kinds.${name}.allowEmpty`);
    kinds[name] = entry;
  }
  return {
    deletes: { ...DEFAULT_SAFETY.deletes, ...partialThreshold(src['deletes'] ?? {}, 'safety.deletes') },
    updates: { ...DEFAULT_SAFETY.updates, ...partialThreshold(src['updates'] ?? {}, 'safety.updates') },
    allowPruneAll:
      src['allowPruneAll'] === undefined
        ? DEFAULT_SAFETY.allowPruneAll
        : bool(src['allowPruneAll'], 'safety.allowPruneAll'),
    kinds,
  };
}

function partialThreshold(raw: unknown, where: string): Partial<Threshold> {
  const r = asRecord(raw, where);
  const out: Partial<Threshold> = {};
  for (const [key, value] of Object.entries(r)) {
    if (key !== 'fraction' && key !== 'minLive' && key !== 'max')
      throw new UsageError(`${where}.${key}: unknown setting (fraction, minLive, max)`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new UsageError(`${where}.${key}: must be a number ≥ 0`);
    if (key === 'fraction' && value > 1)
      throw new UsageError(`${where}.fraction: must be between 0 and 1 (0.25 = 25 %)`);
    if (key !== 'fraction' && !Number.isInteger(value)) throw new UsageError(`${where}.${key}: must be a whole number`);
    out[key] = value;
  }
  return out;
}

function asRecord(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new UsageError(`${where}: must be a mapping`);
  return v as Record<string, unknown>;
}

/** A misspelt setting must not silently leave a default in force. */
function onlyKeys(r: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(r)) {
    if (!allowed.includes(key)) throw new UsageError(`${where}.${key}: unknown setting (${allowed.join(', ')})`);
  }
}

function bool(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') throw new UsageError(`${where}: must be true or false`);
  return v;
}

function defined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
