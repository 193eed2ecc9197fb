/**
 * Space diff (pure): per desired space a create (POST, with a PATCH of defaultLevel and merge rules in the same
 * step), an update (PATCH) and a move to another collection; access lists through the access planner; live spaces
 * no manifest mentions listed as unmanaged, or soft-deleted under prune unless a Site manifest shows them.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RequestSpec } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { accessPlanner } from '../access/diff.js';
import { splitAccess } from '../access/state.js';
import { ambiguousParent, parentMoveStep, resolveCollection } from '../collection/parent-refs.js';
import { unresolvedParentMessage } from '../collection/parents.js';
import { SOFT_DELETE } from '../collection/prune.js';
import { blockEntry, changedFields, makeStep, pick, plainSource, refSteps, stepId } from '../common.js';
import { withDisplayKeys, matchByIdOrTitle, stalePinWarnings } from '../match.js';
import { uniqueLiveKey, unmatchedLive } from '../unmatched.js';
import { mergeRulesChange } from './merge-rules.js';
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
import { purgeCascades, siteNamedSpaces } from './purge.js';

export function diffSpaces(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<SpaceSpec>[],
  state: SpaceKindState,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { own, grants } = splitAccess(state.objects);
  const live: SpaceState = { ...state, objects: own };
  const access = accessPlanner(ctx, org, SPACE_ACCESS, { objects: grants, aux: state.aux });
  const { matched, unmatched, stalePins } = matchByIdOrTitle(SPACE_KIND, desired, live.objects);
  result.warnings.push(...stalePinWarnings(SPACE_KIND, org, stalePins));
  const collections = live.aux?.collections ?? [];

  for (const entry of desired) {
    const spec = entry.spec;
    const current = matched.get(entry);
    // An access entry naming nothing blocks the space before anything of it is planned or registered.
    if (access.block(result, entry)) continue;
    let parent: string | null | undefined = spec.parent;
    if (typeof spec.parent === 'string') {
      const target = resolveCollection(ctx, org, spec.parent, collections);
      if (target && 'ambiguous' in target) {
        // Moving the space into one of them would be a guess, and leaving it would look like "no changes".
        blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), ambiguousParent(spec.parent, target.ambiguous));
        if (current) ctx.register(SPACE_KIND, org, entry.key, current.id);
        continue;
      }
      parent = target?.id;
      if (parent === undefined) {
        // Nothing of the space is planned or registered: a Site naming it (if it is new) is blocked in turn.
        blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), unresolvedParentMessage(spec.parent));
        continue;
      }
    }
    const rules = mergeRulesChange(ctx, org, entry, current?.fields, live.aux?.members ?? {});
    if (rules && 'message' in rules) {
      blockEntry(
        result,
        entry,
        entry.doc.pos(rules.at),
        `${rules.message}; nothing of the space is planned until it names a member`,
      );
      continue;
    }
    const base = { kind: SPACE_KIND, org, key: entry.key, entry };
    if (!current) {
      const createId = stepId(SPACE_KIND, org, entry.key, 'create');
      const body: Record<string, unknown> = pick(spec, ['title', 'emoji', 'editMode']);
      if (typeof parent === 'string') body['parent'] = parent;
      const requests: RequestSpec[] = [
        {
          method: 'POST',
          path: orgSpacesPath(org),
          body: sortKeys(body, ['title', 'emoji', 'parent', 'editMode']),
          capture: { id: 'id' },
          recover: recoverByTitleInParent(live.objects, spec.title),
        },
      ];
      const patch = {
        ...(typeof spec.defaultLevel === 'string' ? { defaultLevel: spec.defaultLevel } : {}),
        ...(rules ? { mergeRules: rules.body } : {}),
      };
      if (Object.keys(patch).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: patch });
      const after = {
        ...pick(spec, FIELDS),
        ...(spec.parent !== undefined ? { parent: spec.parent } : {}),
        ...(rules ? { mergeRules: rules.after } : {}),
      };
      result.steps.push(
        makeStep({
          ...base,
          id: createId,
          action: 'create',
          phase: 'create',
          wave: SPACE_DEPTH,
          before: null,
          after,
          requests,
          dependsOn: refSteps(parent),
        }),
      );
      ctx.register(SPACE_KIND, org, entry.key, ref(createId));
      continue;
    }
    ctx.register(SPACE_KIND, org, entry.key, current.id);
    const have = current.fields;
    const c = changedFields(spec, have, FIELDS);
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
      result.steps.push(
        makeStep({
          ...base,
          id: stepId(SPACE_KIND, org, entry.key, 'update'),
          action: 'update',
          phase: 'update',
          wave: SPACE_DEPTH,
          before,
          after,
          requests: [
            {
              method: 'PATCH',
              path: onePath(current.id),
              body,
              ...(delta ? { merge: { pick: [], sets: [MERGE_RULES_SET] } } : {}),
            },
          ],
        }),
      );
    }
    const move = parentMoveStep({
      kind: SPACE_KIND,
      org,
      entry,
      wave: SPACE_DEPTH,
      path: onePath(current.id),
      live: have.parent,
      parent,
      written: spec.parent,
    });
    if (move) result.steps.push(move);
  }
  access.plan(result, desired);

  const prune = ctx.prune(SPACE_KIND, org);
  const key = uniqueLiveKey(unmatched);
  const deleted = prune ? pruneSpaces(ctx, org, unmatched, key, result) : unmatched;
  const later = prune
    ? purgeCascades(
        ctx,
        org,
        live.aux?.usage,
        deleted.map((o) => o.id),
        new Set(deleted.map((o) => o.id)),
      )
    : undefined;
  unmatchedLive(result, {
    kind: SPACE_KIND,
    org,
    prune,
    objects: deleted,
    key,
    wave: () => SPACE_DEPTH,
    path: (o) => onePath(o.id),
    before: (o) => ({ title: o.key }),
    note: SOFT_DELETE,
    cascades: (o) => later?.get(o.id) ?? [],
  });
  return result;
}

/**
 * The unmatched spaces a prune deletes: all but those a Site manifest shows (by title or id), whose delete would
 * drop that site space at the purge — each of those is a blocked object naming where the site shows it.
 */
function pruneSpaces(
  ctx: DiffContext,
  org: string,
  unmatched: SpaceObject[],
  key: (o: SpaceObject) => string,
  result: DiffResult,
): SpaceObject[] {
  const named = siteNamedSpaces(ctx, org);
  if (named.size === 0) return unmatched;
  return unmatched.filter((o) => {
    const at = named.get(o.id) ?? named.get(o.key);
    if (!at) return true;
    result.blocked.push({
      kind: SPACE_KIND,
      org,
      key: key(o),
      message:
        `not deleted (prune): a Site manifest shows it (${at.file}:${at.line}:${at.column}), and the site space would go when the deleted space is purged; ` +
        'describe the space in a Space manifest, or take it out of the site',
      source: plainSource(at),
    });
    return false;
  });
}

/** The body with its keys in the documented order (stable plans). */
function sortKeys(body: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(order.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
}
