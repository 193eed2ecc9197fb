import { describe, expect, it } from 'vitest';
import { DocopsError } from '../../src/model/errors.js';
import { emptyPlan } from '../../src/model/plan.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { planJsonProblems } from '../helpers/plan-json.js';
import { hugePlan, samplePlan } from './fixture.js';

describe('renderJson / parsePlanJson', () => {
  it('round-trips a plan exactly', () => {
    for (const plan of [samplePlan(), emptyPlan(), hugePlan(30)]) {
      const text = renderJson(plan);
      const parsed = parsePlanJson(text);
      expect(parsed).toStrictEqual(JSON.parse(JSON.stringify(plan)));
      expect(renderJson(parsed)).toBe(text);
    }
  });

  it('round-trips what the ownership modes add: a step mode, reported changes, owned objects, unmanaged by mode', () => {
    const plan = samplePlan();
    plan.steps[0]!.mode = 'additive';
    plan.reported = [
      {
        id: 'Members/acme/bob@x.io#update',
        action: 'update',
        phase: 'update',
        kind: 'Members',
        org: 'acme',
        key: 'bob@x.io',
        wave: 3,
        before: { role: 'read' },
        after: { role: 'edit' },
        mode: 'observe',
        source: { file: 'm.yaml', line: 7, column: 7 },
      },
    ];
    plan.owned = [
      {
        kind: 'Site',
        org: 'acme',
        key: 'Docs',
        id: 'site-1',
        what: 'sections, section groups and site spaces',
        owner: 'Git Sync (repository acme/docs)',
      },
    ];
    plan.unmanaged.push({ kind: 'TeamMember', org: 'acme', key: 'platform/carol@x.io', mode: 'additive' });
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toStrictEqual(JSON.parse(JSON.stringify(plan)));
    expect(renderJson(parsePlanJson(text))).toBe(text);
    const printed = JSON.parse(text) as { steps: Record<string, unknown>[]; reported: Record<string, unknown>[] };
    expect(Object.keys(printed.steps[0]!).slice(0, 8)).toEqual([
      'id',
      'action',
      'phase',
      'kind',
      'org',
      'key',
      'wave',
      'mode',
    ]);
    expect(printed.reported[0]).not.toHaveProperty('requests');
    const bad = JSON.parse(text) as { reported: Record<string, unknown>[] };
    bad.reported[0]!.mode = 'authoritative';
    bad.reported[0]!.requests = [];
    const message = planJsonProblems(bad);
    expect(message).toContain('plan.reported[0].mode: expected one of additive, observe');
    expect(message).toContain('plan.reported[0].requests: unknown field');
  });

  it('is stable: 2-space indent, fixed step key order, sorted keys inside free-form values', () => {
    const plan = samplePlan();
    const step = plan.steps[1]!;
    // Same data, keys inserted in another order.
    plan.steps[1] = Object.fromEntries(Object.entries(step).reverse()) as typeof step;
    plan.steps[1].after = { labels: ['a', 'b'], title: 'Documentation', apiToken: 'should-never-print' };
    expect(renderJson(plan)).toBe(renderJson(samplePlan()));
    const text = renderJson(samplePlan());
    expect(
      text.startsWith(
        '{\n  "formatVersion": 1,\n  "steps": [\n    {\n      "id": "Team/acme/platform#create",\n      "action": "create",',
      ),
    ).toBe(true);
    expect(Object.keys((JSON.parse(text) as { steps: Record<string, unknown>[] }).steps[1]!.after as object)).toEqual([
      'apiToken',
      'labels',
      'title',
    ]);
  });

  it('rejects what is not a plan, listing every problem', () => {
    const bad = JSON.parse(renderJson(samplePlan())) as { formatVersion: number; steps: Record<string, unknown>[] };
    bad.steps[0]!.action = 'replace';
    bad.steps[1]!.wave = -1;
    bad.steps[2]!.dependsOn = ['nope'];
    bad.steps[3]!.extra = true;
    let err: unknown;
    try {
      parsePlanJson(JSON.stringify(bad));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocopsError);
    const msg = (err as Error).message;
    expect(msg).toContain('plan.steps[0].action: expected one of create, update, delete');
    expect(msg).toContain('plan.steps[1].wave: expected an integer ≥ 0');
    expect(msg).toContain('unknown step nope');
    expect(msg).toContain('plan.steps[3].extra: unknown field');
  });

  it('rejects another format version and invalid JSON', () => {
    expect(() => parsePlanJson('{"formatVersion":2,"steps":[],"unmanaged":[],"warnings":[]}')).toThrow(
      /unsupported plan format 2/,
    );
    expect(() => parsePlanJson('{')).toThrow(/not valid JSON/);
    expect(() => parsePlanJson('[]')).toThrow(/plan: expected an object/);
  });

  it('rejects a request path that is not below the API base', () => {
    const bad = JSON.parse(renderJson(samplePlan())) as { steps: { requests: { path: string }[] }[] };
    bad.steps[0]!.requests[0]!.path = 'https://evil.example/x';
    expect(() => parsePlanJson(JSON.stringify(bad))).toThrow(/requests\[0\]\.path: expected a string starting with \//);
  });

  // The schema is the reader: what it describes reads back (the hand parser refused a daemon plan's manifestChanges,
  // which the schema has always listed), and what a reader says names the member a plan lacks, not only its type.
  it('reads back every member the schema describes, and says which members are missing', () => {
    const plan = { ...samplePlan(), manifestChanges: [samplePlan().steps[0]!.id] };
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toStrictEqual(JSON.parse(JSON.stringify(plan)));
    const bad = JSON.parse(text) as { steps: Record<string, unknown>[] };
    delete bad.steps[0]!['wave'];
    delete bad.steps[1]!['requests'];
    const message = planJsonProblems(bad);
    expect(message).toContain('plan.steps[0].wave: expected an integer ≥ 0 (missing)');
    expect(message).toContain('plan.steps[1].requests: expected an array (missing)');
  });
});
