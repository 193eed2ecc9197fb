import { describe, expect, it } from 'vitest';
import type { Plan, Step } from '../../src/model/plan.js';
import { MARKDOWN_MAX_LENGTH, renderMarkdown } from '../../src/render/markdown.js';

function step(
  kind: string,
  key: string,
  action: Step['action'],
  before: Step['before'],
  after: Step['after'],
  extra: Partial<Step> = {},
): Step {
  return {
    id: `${kind}/o/${key}#${action}`,
    action,
    phase: action,
    kind,
    org: 'org-demo',
    key,
    wave: 0,
    before,
    after,
    dependsOn: [],
    requests: [{ method: action === 'create' ? 'POST' : action === 'update' ? 'PATCH' : 'DELETE', path: `/x/${key}` }],
    ...extra,
  };
}

const FIXED: Plan = {
  formatVersion: 1,
  steps: [
    step('Team', 'Security', 'create', null, { title: 'Security' }),
    step('Members', 'frank@acme.test', 'update', { role: 'read' }, { role: 'comment' }),
    step('Team', 'Legacy', 'delete', { title: 'Legacy' }, null, { phase: 'prune' }),
  ],
  unmanaged: [{ kind: 'Translation', org: 'org-demo', key: 'French docs', id: 'tr-fr' }],
  warnings: [
    { kind: 'Members', org: 'org-demo', key: 'zoe@acme.test', message: 'not a member; set invite: true to invite' },
  ],
  blocked: [],
};

describe('markdown plan for pull requests', () => {
  it('renders summary table, cost note, per-kind collapsible diffs and unmanaged objects', () => {
    expect(renderMarkdown(FIXED, { notes: ['API cost: 3 requests, ~0.2s at concurrency 8 (100ms/request)'] })).toBe(
      [
        '### docops plan',
        '',
        '**Plan: 1 to add, 1 to change, 1 to delete.**',
        '',
        '| Kind | Add | Change | Delete |',
        '| --- | ---: | ---: | ---: |',
        '| Team | 1 | 0 | 1 |',
        '| Members | 0 | 1 | 0 |',
        '| **Total** | 1 | 1 | 1 |',
        '',
        'API cost: 3 requests, ~0.2s at concurrency 8 (100ms/request)',
        '',
        '**Warnings (1)**',
        '',
        '- Members org-demo/zoe@acme.test: not a member; set invite: true to invite',
        '',
        '<details><summary>Team: 1 to add, 0 to change, 1 to delete</summary>',
        '',
        '```diff',
        '+ Team org-demo/Security',
        '+     title: "Security"',
        '- Team org-demo/Legacy (prune: not in any manifest)',
        '```',
        '',
        '</details>',
        '',
        '<details><summary>Members: 0 to add, 1 to change, 0 to delete</summary>',
        '',
        '```diff',
        '! Members org-demo/frank@acme.test',
        '-     role: "read"',
        '+     role: "comment"',
        '```',
        '',
        '</details>',
        '',
        '<details><summary>Unmanaged: 1 live object not in any manifest (left alone)</summary>',
        '',
        '- Translation org-demo/French docs',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
  });

  function bigPlan(): Plan {
    const steps: Step[] = [];
    for (let i = 0; i < 3000; i++)
      steps.push(step('Members', `user-${i}@acme.test`, 'update', { role: 'read' }, { role: 'edit' }));
    for (let i = 0; i < 5; i++)
      steps.push(
        step('Team', `team-${i}`, 'create', null, {
          title: `Team ${i}`,
          members: { [`user-${i}@acme.test`]: 'member' },
        }),
      );
    steps.push(step('Translation', 'German', 'create', null, { title: 'German' }));
    return {
      formatVersion: 1,
      steps,
      unmanaged: Array.from({ length: 500 }, (_, i) => ({ kind: 'Space', org: 'org-demo', key: `space-${i}` })),
      warnings: [],
      blocked: [],
    };
  }

  it('truncates under the comment limit, keeping every kind its heading and saying what was left out', () => {
    const md = renderMarkdown(bigPlan());
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_MAX_LENGTH);
    for (const heading of [
      'Members: 0 to add, 3000 to change, 0 to delete',
      'Team: 5 to add, 0 to change, 0 to delete',
      'Translation: 1 to add, 0 to change, 0 to delete',
    ]) {
      expect(md).toContain(`<details><summary>${heading}</summary>`);
    }
    const shown = Number(/(\d+) of 3006 steps shown/.exec(md)?.[1]);
    expect(shown).toBe(md.match(/^[+!-] (Members|Team|Translation) org-demo\/\S+$/gm)?.length);
    expect(shown).toBeLessThan(3006);
    const hidden = [...md.matchAll(/(\d+) (?:more )?steps? not shown \(truncated\)/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    expect(shown + hidden).toBe(3006);
    expect(md).toMatch(/Unmanaged: 500 live objects not in any manifest/);
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect(md.match(/^```/gm)!.length % 2).toBe(0);
  });

  it('keeps every kind heading even when almost nothing fits', () => {
    const md = renderMarkdown(bigPlan(), { maxLength: 2500 });
    expect(md.length).toBeLessThanOrEqual(2500);
    expect(md).toContain('<details><summary>Members:');
    expect(md).toContain('<details><summary>Team:');
    expect(md).toContain('<details><summary>Translation:');
    expect(md).toContain('steps shown');
  });
});
