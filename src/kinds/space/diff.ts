/**
 * Space diff (pure): per desired space a create (POST, with a PATCH of defaultLevel and merge rules in the same
 * step), an update (PATCH) and a move to another collection; access lists through the access planner; live spaces
 * no manifest mentions listed as unmanaged, or soft-deleted under prune unless a Site manifest shows them.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RequestSpec, Step } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { accessPlanner } from '../access/diff.js';
import { splitAccess } from '../access/state.js';
import { SOFT_DELETE } from '../collection/model.js';
import { ambiguousParent, parentMoveStep, resolveCollection, unresolvedParentMessage } from '../parent-refs.js';
import { blockEntry, changedFields, pick, refSteps, stepId } from '../common.js';
import {
  BLOCKED,
  BLOCKED_KEEP_ID,
  createRequest,
  createStep,
  diffTitled,
  updateStep,
  type Blocked,
  type TitledKind,
  type TitledPrune,
  type TitledScope,
  deletedUnlessNamed,
} from '../titled.js';
import { uniqueLiveKey } from '../unmatched.js';
import { mergeRulesChange, type MergeRulesChange } from './merge-rules.js';
import { MERGE_RULES_SET, mergeRulesDelta } from '../merge-rules.js';
import { recoverByTitleInParent } from '../recover.js';
import {
  SPACE_DEPTH,
  SPACE_FIELDS as FIELDS,
  SPACE_KIND,
  orgSpacesPath,
  spacePath as onePath,
  type SpaceKindState,
  type SpaceObject,
  type SpaceSpec,
  type SpaceState,
  SPACE_ACCESS,
} from './model.js';
import { purgeCascades, siteNamedSpaces } from '../space-purge.js';

const SPACE: TitledKind<SpaceObject> = { kind: SPACE_KIND, depth: SPACE_DEPTH };
type SpaceScope = TitledScope<SpaceSpec, SpaceObject> & { state: SpaceState };
/** What an entry's create or update take, once its parent and merge rules are resolved. */
interface Resolved {
  parent: string | null | undefined;
  rules: MergeRulesChange | undefined;
}

export function diffSpaces(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<SpaceSpec>[],
  state: SpaceKindState,
): DiffResult {
  const { own, grants } = splitAccess(state.objects);
  const live: SpaceState = { ...state, objects: own };
  return diffTitled(SPACE, ctx, org, entries, own, (titled) => {
    const t: SpaceScope = { ...titled, state: live };
    const access = accessPlanner(ctx, org, SPACE_ACCESS, { objects: grants, aux: state.aux });
    const resolved = (entry: DesiredEntry<SpaceSpec>, current: SpaceObject | undefined): Resolved | Blocked =>
      // An access entry naming nothing blocks the space before anything of it is planned or registered.
      access.block(t.result, entry) ? BLOCKED : resolve(t, entry, current);
    return {
      create(entry) {
        const r = resolved(entry, undefined);
        return 'blocked' in r ? r : [createSpace(t, entry, r)];
      },
      update(entry, current) {
        const r = resolved(entry, current);
        return 'blocked' in r ? r : updateSpace(t, entry, current, r);
      },
      after: (desired) => access.plan(t.result, desired),
      prune: () => pruneSpec(t),
    };
  });
}

/** The entry's parent collection and merge rules resolved, or BLOCKED (saying why) when one names nothing. */
function resolve(t: SpaceScope, entry: DesiredEntry<SpaceSpec>, current: SpaceObject | undefined): Resolved | Blocked {
  const { ctx, org, result } = t;
  const spec = entry.spec;
  let parent: string | null | undefined = spec.parent;
  if (typeof spec.parent === 'string') {
    const target = resolveCollection(ctx, org, spec.parent, t.state.aux?.collections ?? []);
    if (target && 'ambiguous' in target) {
      // Moving the space into one of them would be a guess, and leaving it would look like "no changes".
      blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), ambiguousParent(spec.parent, target.ambiguous));
      return BLOCKED_KEEP_ID;
    }
    parent = target?.id;
    if (parent === undefined) {
      // Nothing of the space is planned or registered: a Site naming it (if it is new) is blocked in turn.
      blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), unresolvedParentMessage(spec.parent));
      return BLOCKED;
    }
  }
  const rules = mergeRulesChange(ctx, org, entry, current?.fields, t.state.aux?.members ?? {});
  if (rules && 'message' in rules) {
    const why = `${rules.message}; nothing of the space is planned until it names a member`;
    blockEntry(result, entry, entry.doc.pos(rules.at), why);
    return BLOCKED;
  }
  return { parent, rules };
}

/** POST with the fields it takes, and a PATCH of defaultLevel and merge rules in the same step. */
function createSpace(t: SpaceScope, entry: DesiredEntry<SpaceSpec>, { parent, rules }: Resolved): Step {
  const spec = entry.spec;
  const body: Record<string, unknown> = pick(spec, ['title', 'emoji', 'editMode']);
  if (typeof parent === 'string') body['parent'] = parent;
  const sorted = sortKeys(body, ['title', 'emoji', 'parent', 'editMode']);
  const requests = [createRequest(orgSpacesPath(t.org), sorted, recoverByTitleInParent(t.live, spec.title))];
  const patch = {
    ...(typeof spec.defaultLevel === 'string' ? { defaultLevel: spec.defaultLevel } : {}),
    ...(rules ? { mergeRules: rules.body } : {}),
  };
  const createId = stepId(SPACE_KIND, t.org, entry.key, 'create');
  if (Object.keys(patch).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: patch });
  const after = {
    ...pick(spec, FIELDS),
    ...(spec.parent !== undefined ? { parent: spec.parent } : {}),
    ...(rules ? { mergeRules: rules.after } : {}),
  };
  return createStep(t, entry, { after, requests, dependsOn: refSteps(parent) });
}

/** A PATCH of the changed fields (merge rules as a delta over what apply reads), and a move to another collection. */
function updateSpace(t: SpaceScope, entry: DesiredEntry<SpaceSpec>, current: SpaceObject, r: Resolved): Step[] {
  const { spec } = entry;
  const { rules, parent } = r;
  const have = current.fields;
  const c = changedFields(spec, have, FIELDS);
  const steps: Step[] = [];
  if (c.changed.length > 0 || rules) {
    // A change of rules is a delta over the rules apply reads right before the PATCH (merge-rules.ts).
    const delta = rules ? mergeRulesDelta(have.mergeRules, rules.body) : undefined;
    const [before, after, body] = rules
      ? [
          { ...c.before, mergeRules: rules.before },
          { ...c.after, mergeRules: rules.after },
          { ...c.after, mergeRules: delta ?? rules.body },
        ]
      : [c.before, c.after, c.after];
    const merge = delta ? { merge: { pick: [], sets: [MERGE_RULES_SET] } } : {};
    const requests: RequestSpec[] = [{ method: 'PATCH', path: onePath(current.id), body, ...merge }];
    steps.push(updateStep(t, entry, { before, after, requests }));
  }
  const path = onePath(current.id);
  const written = spec.parent;
  const move = parentMoveStep({
    kind: SPACE_KIND,
    org: t.org,
    entry,
    wave: SPACE_DEPTH,
    path,
    live: have.parent,
    parent,
    written,
  });
  return move ? [...steps, move] : steps;
}

/** Unmatched spaces: soft-deleted under prune, but for those a Site manifest shows (blocked). */
function pruneSpec(t: SpaceScope): TitledPrune<SpaceObject> {
  const { ctx, org, unmatched } = t;
  const key = uniqueLiveKey(unmatched);
  // A space a Site manifest shows (by title or id) is kept: its site space would go when the space is purged.
  const shown = (at: string) =>
    `a Site manifest shows it (${at}), and the site space would go when the deleted space is purged; ` +
    'describe the space in a Space manifest, or take it out of the site';
  const deleted = t.prune ? deletedUnlessNamed(t, siteNamedSpaces(ctx, org), key, shown) : unmatched;
  const ids = deleted.map((o) => o.id);
  const later = t.prune ? purgeCascades(ctx, org, t.state.aux?.usage, ids, new Set(ids)) : undefined;
  return {
    objects: deleted,
    key,
    path: (o) => onePath(o.id),
    note: SOFT_DELETE,
    cascades: (o) => later?.get(o.id) ?? [],
  };
}

/** The body with its keys in the documented order (stable plans). */
function sortKeys(body: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(order.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
}
