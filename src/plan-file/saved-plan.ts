/**
 * The saved-plan file (`docops plan --out FILE`): the plan plus what it was computed from, so `docops apply
 * --plan FILE` can refuse a plan that no longer fits and otherwise apply exactly these steps.
 *
 *   { formatVersion, createdAt, options, manifestsChecksum, manifestFiles, dataFiles, variables, liveFingerprint,
 *     liveObjects, planChecksum, cost, plan }
 *
 * Format 2 adds `dataFiles` and `variables` (inputs.ts): a format-1 plan pins neither, so it is refused.
 */
import { UsageError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import { renderJson } from '../render/json.js';
import { readPlan } from './read-plan.js';
import { OWNERSHIP_MODES, type OwnershipMode } from '../model/plan.js';
import type { PlanCost } from './cost.js';
import { liveDigest, planChecksum, type ManifestsDigest } from './digests.js';
import type { InputsDigest } from './inputs.js';
import { isRecord } from '../model/json.js';

export const SAVED_PLAN_VERSION = 2;

/** The options the plan was computed with; apply re-reads live state with the same ones. */
export interface SavedPlanOptions {
  prune: string[];
  invite: boolean;
  /** The config's ownership mode per kind (`--config`'s `kinds:`); absent when none was given. */
  modes?: Record<string, OwnershipMode>;
}

export interface SavedPlan {
  formatVersion: typeof SAVED_PLAN_VERSION;
  createdAt: string;
  options: SavedPlanOptions;
  manifestsChecksum: string;
  /** Per-file digests, to name the files that changed. */
  manifestFiles: Record<string, string>;
  /** The data files the manifests named (`{file}`) → digest of the text read. */
  dataFiles: Record<string, string>;
  /** The variables the manifests read (`${VAR}`) → digest of the value, or `unset`. */
  variables: Record<string, string>;
  liveFingerprint: string;
  /** Per-object digests (`Kind org/key` → digest or `absent`), to name the objects that changed. */
  liveObjects: Record<string, string>;
  planChecksum: string;
  cost: PlanCost;
  plan: Plan;
}

export function createSavedPlan(input: {
  plan: Plan;
  live: LiveState;
  manifests: ManifestsDigest;
  inputs: InputsDigest;
  cost: PlanCost;
  options: SavedPlanOptions;
  now?: Date;
}): SavedPlan {
  const live = liveDigest(input.plan, input.live);
  return {
    formatVersion: SAVED_PLAN_VERSION,
    createdAt: (input.now ?? new Date()).toISOString(),
    options: {
      prune: [...new Set(input.options.prune)].sort(),
      invite: input.options.invite,
      ...savedModes(input.options.modes),
    },
    manifestsChecksum: input.manifests.checksum,
    manifestFiles: input.manifests.files,
    dataFiles: input.inputs.dataFiles,
    variables: input.inputs.variables,
    liveFingerprint: live.fingerprint,
    liveObjects: live.objects,
    planChecksum: planChecksum(input.plan),
    cost: input.cost,
    plan: input.plan,
  };
}

/** Modes in a stable key order, left out when there are none (a plan made without --config reads as before). */
function savedModes(modes: Record<string, OwnershipMode> | undefined): { modes?: Record<string, OwnershipMode> } {
  const keys = Object.keys(modes ?? {}).sort();
  return keys.length === 0 ? {} : { modes: Object.fromEntries(keys.map((k) => [k, modes![k]!])) };
}

/** Stable JSON: fixed key order, the plan in its own stable form with request bodies as sent (apply sends them). */
export function renderSavedPlan(saved: SavedPlan): string {
  const { plan, ...head } = saved;
  const planJson = renderJson(plan, { unmasked: true }).trimEnd().replace(/\n/g, '\n  ');
  const headJson = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${headJson},\n  "plan": ${planJson}\n}\n`;
}

const HEAD_KEYS = [
  'formatVersion',
  'createdAt',
  'options',
  'manifestsChecksum',
  'manifestFiles',
  'dataFiles',
  'variables',
  'liveFingerprint',
  'liveObjects',
  'planChecksum',
  'cost',
  'plan',
] as const;

/** Parse a saved-plan file; shape problems are UsageErrors naming the field. The checksums are checked by verify. */
export function parseSavedPlan(text: string, file = 'plan file'): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const problems: string[] = [];
  if (!isRecord(data)) throw new UsageError(`${file} is not a docops saved plan (expected a JSON object)`);
  for (const k of Object.keys(data))
    if (!(HEAD_KEYS as readonly string[]).includes(k)) problems.push(`${k}: unknown field`);
  if (data['formatVersion'] !== SAVED_PLAN_VERSION) {
    throw new UsageError(
      `${file}: saved-plan format ${JSON.stringify(data['formatVersion'])} is not supported (expected ${SAVED_PLAN_VERSION}); make the plan again with this docops`,
    );
  }
  const field = (k: string): string => {
    const v = data[k];
    if (typeof v === 'string') return v;
    problems.push(`${k}: expected a string`);
    return '';
  };
  const texts = (k: string): Record<string, string> => {
    const v = data[k];
    if (isStringRecord(v)) return v;
    problems.push(`${k}: expected an object of strings`);
    return {};
  };
  const head: Omit<SavedPlan, 'options' | 'cost' | 'plan'> = {
    formatVersion: SAVED_PLAN_VERSION,
    createdAt: field('createdAt'),
    manifestsChecksum: field('manifestsChecksum'),
    liveFingerprint: field('liveFingerprint'),
    planChecksum: field('planChecksum'),
    manifestFiles: texts('manifestFiles'),
    dataFiles: texts('dataFiles'),
    variables: texts('variables'),
    liveObjects: texts('liveObjects'),
  };
  const options = data['options'];
  if (!isOptions(options)) problems.push(optionsProblem(options));
  const cost = data['cost'];
  if (!isCost(cost)) problems.push('cost: expected {requests, estimatedMs, concurrency, latencyMs, rateLimit?}');
  if (problems.length > 0 || !isOptions(options) || !isCost(cost))
    throw new UsageError(`${file} is not a valid docops saved plan:\n${problems.join('\n')}`);
  let plan: Plan;
  try {
    plan = readPlan(data['plan']);
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
  return { ...head, options, cost, plan };
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
const isModes = (v: unknown): v is Record<string, OwnershipMode> =>
  isRecord(v) && Object.values(v).every((m) => (OWNERSHIP_MODES as readonly unknown[]).includes(m));
const hasNumbers = (v: Record<string, unknown>, keys: readonly string[]): boolean =>
  keys.every((k) => typeof v[k] === 'number');

function isOptions(v: unknown): v is SavedPlanOptions {
  return (
    isRecord(v) &&
    Array.isArray(v['prune']) &&
    v['prune'].every((p) => typeof p === 'string') &&
    typeof v['invite'] === 'boolean' &&
    (v['modes'] === undefined || isModes(v['modes']))
  );
}

function optionsProblem(v: unknown): string {
  return isRecord(v) && !(v['modes'] === undefined || isModes(v['modes'])) && isOptions({ ...v, modes: undefined })
    ? `options.modes: expected an object of ${OWNERSHIP_MODES.join(' | ')}`
    : 'options: expected {prune: string[], invite: boolean}';
}

function isCost(v: unknown): v is PlanCost {
  if (!isRecord(v) || !hasNumbers(v, ['requests', 'estimatedMs', 'concurrency', 'latencyMs'])) return false;
  const rate = v['rateLimit'];
  return (
    rate === undefined ||
    (isRecord(rate) &&
      hasNumbers(rate, ['limit', 'remaining']) &&
      (rate['resetInMs'] === undefined || typeof rate['resetInMs'] === 'number'))
  );
}
