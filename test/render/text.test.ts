import { describe, expect, it } from 'vitest';
import { emptyPlan } from '../../src/core/plan.js';
import { renderText } from '../../src/render/text.js';
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
      '      description: "old" → (removed)',
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
      before: { members: { 'ann@x.test': 'owner', 'bob@x.test': 'member', 'cy@x.test': 'member' }, settings: { a: { b: 1 } } },
      after: { members: { 'ann@x.test': 'owner', 'bob@x.test': 'admin', 'dan@x.test': 'member' }, settings: { a: { b: 2 } } },
      dependsOn: [],
      requests: [],
    });
    expect(renderText(plan).split('\n').slice(2, 8)).toEqual([
      '  ~ Team acme/w',
      '      members.bob@x.test: "member" → "admin"',
      '      members.dan@x.test: (unset) → "member"',
      '      members.cy@x.test: "member" → (removed)',
      '      settings.a.b: 1 → 2',
      '',
    ]);
  });
});
