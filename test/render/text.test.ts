import { describe, expect, it } from 'vitest';
import { emptyPlan, type Step } from '../../src/model/plan.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { summaryLine, textTotals } from '../../src/render/values.js';
import { stripAnsi } from '../../src/render/ansi.js';
import { samplePlan } from './fixture.js';

describe('renderText', () => {
  it('renders steps Terraform-style with field changes, refs, unmanaged objects and warnings', () => {
    expect(renderText(samplePlan()).split('\n')).toEqual([
      'docops will perform the following actions:',
      '',
      '  + Team acme/platform',
      '      title: "Platform"',
      '  ~ Team acme/docs',
      '      title: "Docs" → "Documentation"',
      '      labels: ["a"] → ["a","b"]',
      '      apiToken: (unset) → (sensitive)',
      '      description: "old" → (unset)',
      '  + TeamMember acme/platform/ann@example.com (invite by e-mail)',
      '      team: "Platform"',
      '      role: "member"',
      '  - Team acme/legacy (prune: not in any manifest)',
      '',
      'Plan: 2 to add, 1 to change, 1 to delete.',
      '',
      'Unmanaged: 1 live object not in any manifest (left alone; enable prune to delete):',
      '  Space acme/Scratch (id s7)',
      '',
      'Warnings:',
      '  ! Member acme/bob@example.com: not in the organization; pass --invite to invite',
      '',
    ]);
  });

  it('never prints a secret-looking value or a raw ref', () => {
    const out = renderText(samplePlan());
    expect(out).not.toContain('should-never-print');
    expect(out).not.toContain('<<ref:');
  });

  it('says so when there is nothing to do', () => {
    expect(renderText(emptyPlan())).toBe('No changes. Live state matches the manifests.\n');
  });

  it('colours symbols only when asked, and the text is otherwise identical', () => {
    const plain = renderText(samplePlan(), { color: false });
    const coloured = renderText(samplePlan(), { color: true });
    expect(plain).not.toContain('\u001b[');
    expect(coloured).toContain('\u001b[32m+\u001b[39m');
    expect(coloured).toContain('\u001b[31m-\u001b[39m');
    expect(stripAnsi(coloured)).toBe(plain);
  });

  it('lists at most maxUnmanaged unmanaged objects and counts the rest', () => {
    const plan = emptyPlan();
    plan.unmanaged = Array.from({ length: 5 }, (_, i) => ({ kind: 'Team', org: 'acme', key: `t${i}` }));
    const lines = renderText(plan, { maxUnmanaged: 2 }).split('\n');
    expect(lines).toContain('  Team acme/t1');
    expect(lines).not.toContain('  Team acme/t2');
    expect(lines).toContain('  … and 3 more');
  });
});

describe('renderText nested changes', () => {
  it('reports changes inside object fields per nested key', () => {
    const plan = emptyPlan();
    plan.steps.push({
      id: 'Team/acme/w#members',
      action: 'update',
      phase: 'update',
      kind: 'Team',
      org: 'acme',
      key: 'w',
      wave: 1,
      before: {
        members: { 'ann@x.test': 'owner', 'bob@x.test': 'member', 'cy@x.test': 'member' },
        settings: { a: { b: 1 } },
      },
      after: {
        members: { 'ann@x.test': 'owner', 'bob@x.test': 'admin', 'dan@x.test': 'member' },
        settings: { a: { b: 2 } },
      },
      dependsOn: [],
      requests: [],
    });
    expect(renderText(plan).split('\n').slice(2, 8)).toEqual([
      '  ~ Team acme/w',
      '      members.bob@x.test: "member" → "admin"',
      '      members.dan@x.test: (unset) → "member"',
      '      members.cy@x.test: "member" → (unset)',
      '      settings.a.b: 1 → 2',
      '',
    ]);
  });
});

describe('one plan text for a newcomer', () => {
  const step = (over: Partial<Step> & Pick<Step, 'id' | 'action' | 'key'>): Step => ({
    phase: over.action,
    kind: 'Site',
    org: 'acme',
    wave: 1,
    before: null,
    after: null,
    dependsOn: [],
    requests: [],
    ...over,
  });

  it('shows a missing value one way, absent or null, before or after', () => {
    const plan = emptyPlan();
    plan.steps.push(
      step({
        id: 'Site/acme/a#update',
        action: 'update',
        key: 'a',
        before: { title: 'A', defaultSection: null, icon: 'x' },
        after: { title: 'A', defaultSection: 'intro', icon: null, extra: 1 },
      }),
    );
    const text = renderText(plan);
    expect(text).toContain('defaultSection: (unset) → "intro"');
    expect(text).toContain('icon: "x" → (unset)');
    expect(text).toContain('extra: (unset) → 1');
    expect(text).not.toMatch(/\bnull\b|\(removed\)/);
  });

  it('shows the fields set right after a create under that create, not as a separate update; the plan data keeps both steps', () => {
    const plan = emptyPlan();
    plan.steps.push(
      step({ id: 'Site/acme/Help#create', action: 'create', key: 'Help', after: { title: 'Help' } }),
      step({
        id: 'Site/acme/Other#update',
        action: 'update',
        key: 'Other',
        before: { title: 'O' },
        after: { title: 'P' },
      }),
      step({
        id: 'Site/acme/Help#defaultSection',
        action: 'update',
        key: 'Help',
        before: { defaultSection: null },
        after: { defaultSection: 'intro' },
        note: 'after its sections exist',
      }),
    );
    const text = renderText(plan);
    expect(text.split('\n').slice(2, 7)).toEqual([
      '  + Site acme/Help',
      '      title: "Help"',
      '      defaultSection: "intro" (set right after the create; after its sections exist)',
      '  ~ Site acme/Other',
      '      title: "O" → "P"',
    ]);
    expect(text).toContain('Plan: 1 to add, 1 to change, 0 to delete.');
    expect(plan.steps).toHaveLength(3);
    const md = renderMarkdown(plan);
    expect(md).toContain('+     defaultSection: "intro" (set right after the create; after its sections exist)');
    expect(md).not.toContain('! Site acme/Help');
    expect(md).toContain('**Plan: 1 to add, 1 to change, 0 to delete.**');
  });

  it('one new team is one add: the membership step that follows its create folds into it (text, markdown, notifications)', () => {
    const plan = emptyPlan();
    plan.steps.push(
      step({
        id: 'Team/acme/Security#create',
        action: 'create',
        kind: 'Team',
        key: 'Security',
        after: { title: 'Security', members: { 'grace@acme.test': 'owner' } },
      }),
      step({
        id: 'Team/acme/Security#members',
        action: 'create',
        kind: 'Team',
        key: 'Security',
        after: { members: { 'grace@acme.test': 'owner' } },
        note: 'owners and members invited in this plan',
      }),
    );
    const text = renderText(plan);
    expect(text.match(/^ {2}\+ Team acme\/Security$/gm)).toHaveLength(1);
    expect(text).toContain(
      '      members: {"grace@acme.test":"owner"} (set right after the create; owners and members invited in this plan)',
    );
    expect(text).toContain('Plan: 1 to add, 0 to change, 0 to delete.');
    expect(renderMarkdown(plan)).toContain('**Plan: 1 to add, 0 to change, 0 to delete.**');
    expect(summaryLine(textTotals(plan.steps))).toBe('Plan: 1 to add, 0 to change, 0 to delete.');
    expect(plan.steps).toHaveLength(2);
  });
});
