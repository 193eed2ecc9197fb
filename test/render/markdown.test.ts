import { describe, expect, it } from 'vitest';
import { emptyPlan } from '../../src/model/plan.js';
import { MARKDOWN_MAX_LENGTH, escapeMarkdown, renderMarkdown } from '../../src/render/markdown.js';
import { hugePlan, samplePlan } from './fixture.js';

describe('renderMarkdown', () => {
  it('starts with a per-kind summary table and totals', () => {
    const md = renderMarkdown(samplePlan());
    expect(md).toContain('**Plan: 2 to add, 1 to change, 1 to delete.**');
    expect(md).toContain(
      [
        '| Kind | Add | Change | Delete |',
        '| --- | ---: | ---: | ---: |',
        '| Team | 1 | 1 | 1 |',
        '| TeamMember | 1 | 0 | 0 |',
        '| **Total** | 2 | 1 | 1 |',
      ].join('\n'),
    );
  });

  it('puts field-level before/after per kind in <details> diff blocks', () => {
    const md = renderMarkdown(samplePlan());
    expect(md).toContain('<details><summary>Team: 1 to add, 1 to change, 1 to delete</summary>\n\n```diff\n');
    expect(md).toContain('! Team acme/docs\n-     title: "Docs"\n+     title: "Documentation"\n');
    expect(md).toContain('+ TeamMember acme/platform/ann@example.com (invite by e-mail)\n+     team: "Platform"\n');
    expect(md).toContain('- Team acme/legacy (prune: not in any manifest)\n');
    expect(md).toContain('Unmanaged: 1 live object not in any manifest');
    expect(md).toContain('- Member acme/bob@example.com: not in the organization; pass --invite to invite');
    expect(md).not.toContain('should-never-print');
    expect(md).not.toContain('<<ref:');
    // Every opened block is closed.
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
  });

  it('says so when there is nothing to do', () => {
    expect(renderMarkdown(emptyPlan())).toBe('### docops plan\n\nNo changes. Live state matches the manifests.\n');
  });

  it('stays under the comment limit on a 5,000-step plan and says it truncated', () => {
    const plan = hugePlan(5000);
    const md = renderMarkdown(plan);
    expect(md.length).toBeLessThan(MARKDOWN_MAX_LENGTH);
    expect(md).toContain('| **Total** | 1667 | 1667 | 1666 |');
    const note = /(\d+) of 5000 steps shown/.exec(md);
    expect(note).not.toBeNull();
    const shown = Number(note![1]);
    expect(shown).toBeGreaterThan(100);
    expect(shown).toBeLessThan(5000);
    // The count in the note is the number of step headers actually printed.
    expect(md.match(/^[+!-] \S+ acme\/item-\d+$/gm)?.length).toBe(shown);
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect(md.match(/^```/gm)!.length % 2).toBe(0);
  });

  it('does not truncate a plan that fits', () => {
    const md = renderMarkdown(hugePlan(40));
    expect(md).not.toContain('truncated');
    expect(md.match(/^[+!-] \S+ acme\/item-\d+$/gm)?.length).toBe(40);
  });

  it('honours a smaller cap', () => {
    const md = renderMarkdown(hugePlan(200), { maxLength: 4000 });
    expect(md.length).toBeLessThanOrEqual(4000);
    expect(md).toContain('steps shown');
  });

  it('escapes Markdown and HTML in inline text', () => {
    expect(escapeMarkdown('a|b <x> *y*')).toBe('a\\|b &lt;x&gt; \\*y\\*');
  });
});
