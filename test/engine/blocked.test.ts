import { describe, expect, it } from 'vitest';
import { ApplyError, BlockedError, EXIT } from '../../src/model/errors.js';
import type { DesiredEntry, KindDefinition } from '../../src/model/kind.js';
import { emptyPlan, type Plan } from '../../src/model/plan.js';
import { diffAll } from '../../src/engine/reconcile.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import { blockEntry, makeStep } from '../../src/kinds/common.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { fakeDoc } from '../kinds/helpers.js';

/** A kind whose entries name a target; a target that is neither desired nor live blocks the entry. */
const pointer: KindDefinition<{ target: string }> = {
  kind: 'Pointer',
  identity: 'by name',
  schema: {},
  depth: 10,
  toDesired: () => [],
  fetch: async () => ({ objects: [] }),
  diff: (_ctx, org, desired, live) => {
    const result = { steps: [] as ReturnType<typeof makeStep>[], unmanaged: [], warnings: [], blocked: [] };
    const known = new Set(live.objects.map((o) => o.key));
    for (const e of desired) {
      const target = String(e.spec.target);
      if (!known.has(target)) {
        blockEntry(result, e, e.doc.pos(['spec', 'target']), `target "${target}" names nothing`);
        continue;
      }
      result.steps.push(
        makeStep({
          id: `Pointer/${org}/${e.key}#create`,
          action: 'create',
          phase: 'create',
          kind: 'Pointer',
          org,
          key: e.key,
          wave: 10,
          before: null,
          after: { target },
          requests: [{ method: 'POST', path: `/orgs/${org}/pointers`, body: { target } }],
          entry: e,
        }),
      );
    }
    return result;
  },
};

const entry = (key: string, target: string): DesiredEntry<{ target: string }> => {
  const doc = fakeDoc('Pointer', 'o1', { name: key, target }, 'pointers.yaml');
  return { kind: 'Pointer', org: 'o1', key, spec: { target }, source: doc.pos(['spec']), doc };
};

function planOf(entries: DesiredEntry[]): Plan {
  const live: LiveState = new Map([
    [liveKey('Pointer', 'o1'), { objects: [{ kind: 'Pointer', org: 'o1', key: 'there', id: 'p1', fields: {} }] }],
  ]);
  return diffAll([pointer], new Map([['Pointer', entries]]), live);
}

describe('blocked objects', () => {
  it('leave their document out of the plan while the other documents still plan', () => {
    const plan = planOf([entry('good', 'there'), entry('typo', 'thre')]);
    expect(plan.steps.map((s) => s.id)).toEqual(['Pointer/o1/good#create']);
    expect(plan.blocked).toEqual([
      {
        kind: 'Pointer',
        org: 'o1',
        key: 'typo',
        message: 'target "thre" names nothing',
        source: { file: 'pointers.yaml', line: 10, column: 2 },
      },
    ]);
  });

  it('are never rendered as "No changes", in text or markdown, and name file:line:column', () => {
    const plan = planOf([entry('typo', 'thre')]);
    expect(plan.steps).toEqual([]);
    const text = renderText(plan);
    expect(text).not.toContain('No changes');
    expect(text).toContain('Blocked: 1 manifest object the plan cannot reach');
    expect(text).toContain('Pointer o1/typo: pointers.yaml:10:2: target "thre" names nothing');
    const md = renderMarkdown(plan);
    expect(md).not.toContain('No changes');
    expect(md).toContain('pointers.yaml:10:2: target "thre" names nothing');
    expect(renderText(emptyPlan())).toContain('No changes');
  });

  it('round-trip through the JSON plan, and a plan saved before they existed reads as having none', () => {
    const plan = planOf([entry('good', 'there'), entry('typo', 'thre')]);
    expect(parsePlanJson(renderJson(plan))).toEqual(plan);
    const old = JSON.parse(renderJson(emptyPlan())) as Record<string, unknown>;
    delete old['blocked'];
    expect(parsePlanJson(JSON.stringify(old)).blocked).toEqual([]);
    expect(() => parsePlanJson(JSON.stringify({ ...old, blocked: [{ kind: 'Pointer' }] }))).toThrow(
      /plan\.blocked\[0\]\.org: expected a string/,
    );
  });

  it('fail the run with exit 1, listing each object and where it is written', () => {
    const { blocked } = planOf([entry('typo', 'thre')]);
    const err = new BlockedError(blocked);
    expect(err.exitCode).toBe(EXIT.error);
    expect(err.message).toContain('- Pointer o1/typo: pointers.yaml:10:2: target "thre" names nothing');
    const applied = new ApplyError([], [], blocked);
    expect(applied.message).not.toContain('step(s) failed');
    expect(applied.message).toContain('1 manifest object(s) blocked');
  });
});
