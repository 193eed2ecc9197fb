/** Cascades (Step.cascades) in every format: listed under their step, counted in the summary, round-tripped in JSON. */
import { describe, expect, it } from 'vitest';
import type { Plan, Step } from '../../src/model/plan.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';

function pruneCollection(): Step {
  return {
    id: 'Collection/acme/Old docs#delete',
    action: 'delete',
    phase: 'prune',
    kind: 'Collection',
    org: 'acme',
    key: 'Old docs',
    wave: 24,
    before: { title: 'Old docs' },
    after: null,
    dependsOn: [],
    requests: [{ method: 'DELETE', path: '/collections/col-old' }],
    note: 'also deletes the spaces inside it',
    cascades: [
      { kind: 'Space', org: 'acme', key: 'Getting Started', id: 'sp-1', note: 'soft delete: restorable for 7 days' },
      {
        kind: 'SiteSpace',
        org: 'acme',
        key: 'Help/guides/Getting Started',
        id: 'ss-1',
        note: 'when the space is purged',
      },
    ],
  };
}

const plan = (): Plan => ({ formatVersion: 1, steps: [pruneCollection()], unmanaged: [], warnings: [], blocked: [] });

describe('cascades in the renderings', () => {
  it('text: each cascaded object under its step, and the count in the summary', () => {
    expect(renderText(plan()).split('\n')).toEqual([
      'docops will perform the following actions:',
      '',
      '  - Collection acme/Old docs (prune: not in any manifest; also deletes the spaces inside it)',
      '      also deletes: Space acme/Getting Started (soft delete: restorable for 7 days; id sp-1)',
      '      also deletes: SiteSpace acme/Help/guides/Getting Started (when the space is purged; id ss-1)',
      '',
      'Plan: 0 to add, 0 to change, 1 to delete (taking 2 more objects with them).',
      '',
    ]);
  });

  it('markdown: each cascaded object in the step diff, and a "Taken along" column by kind', () => {
    const md = renderMarkdown(plan());
    expect(md).toContain('**Plan: 0 to add, 0 to change, 1 to delete (taking 2 more objects with them).**');
    expect(md).toContain('| Kind | Add | Change | Delete | Taken along |');
    expect(md).toContain('| Collection | 0 | 0 | 1 | 0 |');
    expect(md).toContain('| Space | 0 | 0 | 0 | 1 |');
    expect(md).toContain('| SiteSpace | 0 | 0 | 0 | 1 |');
    expect(md).toContain('| **Total** | 0 | 0 | 1 | 2 |');
    expect(md).toContain(
      '-     also deletes: Space acme/Getting Started (soft delete: restorable for 7 days; id sp-1)\n',
    );
  });

  it('markdown without cascades keeps the four-column table', () => {
    const p = plan();
    delete p.steps[0]!.cascades;
    const md = renderMarkdown(p);
    expect(md).toContain('| Kind | Add | Change | Delete |\n');
    expect(md).not.toContain('Taken along');
    expect(md).not.toContain('also deletes:');
  });

  it('JSON: stable key order, and the parser round-trips it exactly', () => {
    const json = renderJson(plan());
    expect(json).toContain(
      '"cascades": [\n        {\n          "kind": "Space",\n          "org": "acme",\n          "key": "Getting Started",\n          "id": "sp-1",\n          "note": "soft delete: restorable for 7 days"\n        }',
    );
    expect(parsePlanJson(json)).toEqual(plan());
    expect(renderJson(parsePlanJson(json))).toBe(json);
  });

  it('JSON parser: refuses malformed cascades, naming where', () => {
    const bad = JSON.parse(renderJson(plan())) as { steps: { cascades: unknown[] }[] };
    bad.steps[0]!.cascades = [{ kind: 'Space', org: 'acme', id: 7, extra: true }, 'x'];
    expect(() => parsePlanJson(JSON.stringify(bad))).toThrow(
      /plan\.steps\[0\]\.cascades\[0\]\.extra: unknown field[\s\S]*plan\.steps\[0\]\.cascades\[0\]\.key: expected a string[\s\S]*plan\.steps\[0\]\.cascades\[0\]\.id: expected a string[\s\S]*plan\.steps\[0\]\.cascades\[1\]: expected an object/,
    );
    const notArray = JSON.parse(renderJson(plan())) as { steps: { cascades: unknown }[] };
    notArray.steps[0]!.cascades = {};
    expect(() => parsePlanJson(JSON.stringify(notArray))).toThrow(/plan\.steps\[0\]\.cascades: expected an array/);
  });

  it('markdown lists at most 100 cascaded objects per step and counts the rest', () => {
    const p = plan();
    p.steps[0]!.cascades = Array.from({ length: 130 }, (_, i) => ({
      kind: 'Space',
      org: 'acme',
      key: `s${i}`,
      id: `sp-${i}`,
    }));
    const md = renderMarkdown(p);
    expect(md.match(/also deletes: /g)).toHaveLength(100);
    expect(md).toContain('-     … and 30 more it takes with it (see the JSON or text plan)\n');
    expect(md).toContain('| Space | 0 | 0 | 0 | 130 |');
  });
});
