/**
 * The skeleton of a kind whose objects are matched by title or pinned id (Team, SamlProvider, Translation,
 * Collection, Space, Site). The loop is written once here: key the entries (`withDisplayKeys`), match them
 * (`matchByIdOrTitle`), warn of stale pins, plan each entry's create or update and register its id, warn of a
 * rename onto a title a kept live object has, and list or prune the live objects no entry matched. The kind states
 * the rest: its fields and requests (`create`, `update`), its exceptions (a hook returns `BLOCKED` after saying
 * why with `blockEntry`) and what deleting an unmatched object means (`prune`).
 */
import type { DesiredEntry, DiffContext, DiffResult, LiveObject } from '../model/kind.js';
import type { RecoverSpec, RequestSpec, Step } from '../model/plan.js';
import { ref } from '../model/refs.js';
import type { SourcePos } from '../model/errors.js';
import { isRecord, makeStep, plainSource, stepId, type StepInput } from './common.js';
import { identityTitle, matchByIdOrTitle, stalePinWarnings, withDisplayKeys } from './match.js';
import { uniqueLiveKey, unmatchedLive, type UnmatchedLive } from './unmatched.js';

/** What the skeleton knows of a kind: its name, its wave, and how its identity reads in warnings. */
export interface TitledKind<O extends LiveObject = LiveObject> {
  kind: string;
  depth: number;
  /** What an entry whose pinned id is gone is matched by instead (the stale pin's warning): `title` unless said. */
  matchedBy?: string;
  /**
   * Without prune, the warning on an entry renamed to the title of a live object no entry matched (the next plan
   * would find two): absent, no such warning.
   */
  renameClash?: (o: O) => string;
}

/** One organization's diff of the kind, as its hooks see it. */
export interface TitledScope<S, O extends LiveObject> {
  kind: string;
  depth: number;
  ctx: DiffContext;
  org: string;
  result: DiffResult;
  /** The entries, keyed as the diff registers them (`withDisplayKeys`). */
  desired: readonly DesiredEntry<S>[];
  /** The kind's live objects, matched or not (what a create's `recover` excludes). */
  live: readonly O[];
  matched: ReadonlyMap<DesiredEntry<S>, O>;
  unmatched: readonly O[];
  /** ctx.prune(kind, org). */
  prune: boolean;
}

/** A hook's answer for an entry it blocked (after `blockEntry`): the entry plans nothing and registers no ref. */
export interface Blocked {
  blocked: true;
  /** Its live id is registered anyway, so what names the existing object still finds it. */
  keepId?: boolean;
}
export const BLOCKED: Blocked = { blocked: true };
export const BLOCKED_KEEP_ID: Blocked = { blocked: true, keepId: true };

/** The unmatched objects' part of `unmatchedLive`; `objects`, `key`, `wave` and `before` have defaults. */
export type TitledPrune<O extends LiveObject> = Omit<
  UnmatchedLive<O>,
  'kind' | 'org' | 'prune' | 'objects' | 'key' | 'wave' | 'before'
> &
  Partial<Pick<UnmatchedLive<O>, 'objects' | 'key' | 'wave' | 'before'>>;

/** What a kind plans of one organization's entries (made once per diff, so its hooks share what they read). */
export interface TitledPlan<S, O extends LiveObject> {
  /**
   * Entries blocked before anything registers; with `registerFirst` the others all register before any is
   * planned (a collection's parent may be written after its children).
   */
  blocked?: Pick<ReadonlySet<DesiredEntry<S>>, 'has'>;
  registerFirst?: boolean;
  create(entry: DesiredEntry<S>): Step[] | Blocked;
  update(entry: DesiredEntry<S>, current: O): Step[] | Blocked;
  /** After every entry (access lists). */
  after?(desired: DesiredEntry<S>[]): void;
  /** The unmatched objects: listed as unmanaged, or deleted under prune (called after every entry). */
  prune(): TitledPrune<O>;
}

export function diffTitled<S, O extends LiveObject>(
  kind: TitledKind<O>,
  ctx: DiffContext,
  org: string,
  entries: readonly DesiredEntry<S>[],
  live: readonly O[],
  planOf: (t: TitledScope<S, O>) => TitledPlan<S, O>,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { matched, unmatched, stalePins } = matchByIdOrTitle(kind.kind, desired, live);
  result.warnings.push(...stalePinWarnings(kind.kind, org, stalePins, kind.matchedBy));
  const t: TitledScope<S, O> = {
    ...{ kind: kind.kind, depth: kind.depth, ctx, org, result, desired, live, matched, unmatched },
    prune: ctx.prune(kind.kind, org),
  };
  const plan = planOf(t);
  const planned = plan.blocked ? desired.filter((e) => !plan.blocked?.has(e)) : desired;
  const idOf = (e: DesiredEntry<S>): string => matched.get(e)?.id ?? ref(stepId(kind.kind, org, e.key, 'create'));
  if (plan.registerFirst) for (const e of planned) ctx.register(kind.kind, org, e.key, idOf(e));
  for (const entry of planned) {
    const current = matched.get(entry);
    const steps = current ? plan.update(entry, current) : plan.create(entry);
    if ('blocked' in steps) {
      if (steps.keepId && current) ctx.register(kind.kind, org, entry.key, current.id);
      continue;
    }
    result.steps.push(...steps);
    if (!plan.registerFirst) ctx.register(kind.kind, org, entry.key, idOf(entry));
  }
  if (kind.renameClash && !t.prune) renameClashes(t, kind.renameClash);
  plan.after?.(desired);
  const { objects = unmatched, key = uniqueLiveKey(unmatched), ...rest } = plan.prune();
  unmatchedLive(result, {
    ...{ kind: kind.kind, org, prune: t.prune, objects, key },
    ...{ wave: () => kind.depth, before: (o: O) => ({ title: o.key }) },
    ...rest,
  });
  return result;
}

/** A rename onto the title of a live object that stays would make titles ambiguous for the next plan. */
function renameClashes<S, O extends LiveObject>(t: TitledScope<S, O>, message: (o: O) => string): void {
  for (const [entry, current] of t.matched) {
    const title = identityTitle(entry);
    const clash = current.key !== title && t.unmatched.find((o) => o.key === title);
    if (clash) t.result.warnings.push({ kind: t.kind, org: t.org, key: entry.key, message: message(clash) });
  }
}

/** A step's input without what the skeleton knows: id (from `suffix`), action, phase, kind, org, key and wave. */
export type TitledStepInput = Omit<StepInput, 'id' | 'action' | 'phase' | 'kind' | 'org' | 'key' | 'wave' | 'before'> &
  Partial<Pick<StepInput, 'wave' | 'before'>> & { suffix?: string };

/** The entry's create step (`…#create` unless `suffix` says; before null, at the kind's depth). */
export function createStep<S, O extends LiveObject>(
  t: TitledScope<S, O>,
  entry: DesiredEntry<S>,
  s: TitledStepInput,
): Step {
  return titledStep(t, entry, 'create', { before: null, ...s });
}

/** The entry's update step (`…#update` unless `suffix` says; at the kind's depth). */
export function updateStep<S, O extends LiveObject>(
  t: TitledScope<S, O>,
  entry: DesiredEntry<S>,
  s: TitledStepInput & { before: StepInput['before'] },
): Step {
  return titledStep(t, entry, 'update', s);
}

function titledStep<S, O extends LiveObject>(
  t: TitledScope<S, O>,
  entry: DesiredEntry<S>,
  action: 'create' | 'update',
  { suffix = action, ...s }: TitledStepInput & { before: StepInput['before'] },
): Step {
  const id = stepId(t.kind, t.org, entry.key, suffix);
  return makeStep({ id, action, phase: action, kind: t.kind, org: t.org, key: entry.key, wave: t.depth, entry, ...s });
}

/** A create's request (POST unless said): the body, the new id captured, how apply finds it when the outcome is unknown. */
export function createRequest(
  path: string,
  body: Record<string, unknown>,
  recover: RecoverSpec,
  method: 'POST' | 'PUT' = 'POST',
): RequestSpec {
  return { method, path, body, capture: { id: 'id' }, recover };
}

/**
 * A listed item of a title-identified kind as its live object, keyed by its title; undefined for an item without
 * a string id and title. `fields` reads the rest of what the kind compares.
 */
export function titledObject<F extends { title: string }>(
  kind: string,
  org: string,
  item: unknown,
  fields: (item: Record<string, unknown>, title: string) => F,
): LiveObject<F> | undefined {
  if (!isRecord(item) || typeof item['id'] !== 'string' || typeof item['title'] !== 'string') return undefined;
  return { kind, org, key: item['title'], id: item['id'], fields: fields(item, item['title']) };
}

/**
 * Under prune, the unmatched objects deleted: all but those another document names (`named`: by id or title →
 * where), whose delete would take what that document asks for — each of those a blocked object, `why` it is kept.
 */
export function deletedUnlessNamed<S, O extends LiveObject>(
  t: TitledScope<S, O>,
  named: ReadonlyMap<string, SourcePos>,
  key: (o: O) => string,
  why: (at: string) => string,
): readonly O[] {
  if (named.size === 0) return t.unmatched;
  return t.unmatched.filter((o) => {
    const at = named.get(o.id) ?? named.get(o.key);
    if (!at) return true;
    const message = `not deleted (prune): ${why(`${at.file}:${at.line}:${at.column}`)}`;
    t.result.blocked.push({ kind: t.kind, org: t.org, key: key(o), message, source: plainSource(at) });
    return false;
  });
}
