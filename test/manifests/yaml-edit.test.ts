/**
 * Minimal edits of manifest files (src/manifests/yaml-edit.ts): a changed scalar changes only its own bytes; a
 * structural change re-renders its document only, comments and order kept; a value that differs from what the
 * edit expects is a conflict, never overwritten.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { applyFileEdits, diffOps, type DocumentRef } from '../../src/manifests/yaml-edit.js';

const FILE = `# Teams of the docs org
apiVersion: docops/v1
kind: Team
metadata: { organization: org-demo }   # keep this spacing
spec:
  title: Platform    # the platform team
  members:
    - { email: alice@acme.test, role: admin }   # lead
    - { email: bob@acme.test }
---
# the space
apiVersion: docops/v1
kind: Space
metadata: { organization: org-demo }
spec: { title: "Getting Started", visibility: public }
`;

const spec = (text: string, i: number): Record<string, unknown> =>
  (parseAllDocuments(text)[i]!.toJS() as { spec: Record<string, unknown> }).spec;
const team: DocumentRef = { index: 0, kind: 'Team', org: 'org-demo', identity: 'Platform' };
const space: DocumentRef = { index: 1, kind: 'Space', org: 'org-demo', identity: 'Getting Started' };

describe('minimal YAML edits', () => {
  it('a changed scalar changes only its bytes, in its quoting style', () => {
    const target = { title: 'Getting Started', visibility: 'unlisted' };
    const out = applyFileEdits(FILE, [{ type: 'edit', doc: space, ops: diffOps(spec(FILE, 1), target) }]);
    expect(out).toEqual({ text: FILE.replace('visibility: public', 'visibility: unlisted') });
    const renamed = applyFileEdits(FILE, [
      { type: 'edit', doc: space, ops: diffOps(spec(FILE, 1), { ...target, title: 'Start here: now' }) },
    ]);
    expect('text' in renamed && renamed.text).toBe(
      FILE.replace('visibility: public', 'visibility: unlisted').replace('"Getting Started"', '"Start here: now"'),
    );
  });

  it('an added and a removed list item re-render that document only, its comments kept', () => {
    const before = spec(FILE, 0);
    const target = { ...before, members: [{ email: 'alice@acme.test', role: 'admin' }, { email: 'carol@acme.test' }] };
    const ops = diffOps(before, target);
    expect(ops.map((o) => o.path.join('.'))).toEqual(['members.1', 'members.1']);
    const out = applyFileEdits(FILE, [{ type: 'edit', doc: team, ops }]);
    if (!('text' in out)) throw new Error(out.conflict);
    expect(spec(out.text, 0)).toEqual(target);
    expect(out.text).toContain('# the platform team');
    expect(out.text).toContain('# lead');
    expect(out.text).toContain('# Teams of the docs org');
    // The other document is byte for byte what it was.
    expect(out.text.slice(out.text.indexOf('---'))).toBe(FILE.slice(FILE.indexOf('---')));
  });

  it('another version of the file: a value changed there is a conflict; the same change is none', () => {
    const ops = diffOps(spec(FILE, 1), { title: 'Getting Started', visibility: 'unlisted' });
    const edited = FILE.replace('visibility: public', 'visibility: share-link');
    expect(applyFileEdits(edited, [{ type: 'edit', doc: space, ops }])).toEqual({
      conflict: 'Space org-demo/Getting Started: spec.visibility is "share-link" there, not "public"',
    });
    const same = FILE.replace('visibility: public', 'visibility: unlisted');
    expect(applyFileEdits(same, [{ type: 'edit', doc: space, ops }])).toEqual({ text: same });
    // The document moved: found by kind, organization and title.
    const moved = FILE.split('---\n').reverse().join('---\n');
    const out = applyFileEdits(moved, [{ type: 'edit', doc: space, ops }]);
    expect('text' in out && out.text).toBe(moved.replace('visibility: public', 'visibility: unlisted'));
  });

  it('a removed document leaves its neighbours; the last one removed empties the file; an appended one follows', () => {
    const out = applyFileEdits(FILE, [{ type: 'remove', doc: space }]);
    if (!('text' in out)) throw new Error(out.conflict);
    expect(parseAllDocuments(out.text).map((d) => (d.toJS() as { kind: string }).kind)).toEqual(['Team']);
    expect(out.text.startsWith(FILE.slice(0, FILE.indexOf('---')))).toBe(true);
    const both = applyFileEdits(FILE, [
      { type: 'remove', doc: space },
      { type: 'remove', doc: team },
    ]);
    expect(both).toEqual({ text: '' });
    const added = applyFileEdits(FILE, [
      {
        type: 'append',
        value: {
          apiVersion: 'docops/v1',
          kind: 'Space',
          metadata: { organization: 'org-demo' },
          spec: { title: 'Runbooks' },
        },
      },
    ]);
    expect('text' in added && added.text.startsWith(FILE)).toBe(true);
    expect('text' in added && spec(added.text, 2)).toEqual({ title: 'Runbooks' });
  });
});
