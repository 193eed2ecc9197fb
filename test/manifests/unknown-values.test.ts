/**
 * Values docops does not know in a document made from live state (src/manifests/unknown-values.ts): each is left
 * out at the smallest field a document may do without, the document then validates, and the YAML says what was
 * left out and why, with the value as the API sent it.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileSchema } from '../../src/manifests/schema.js';
import { renderWithNotes, setAsideInDocument, UNKNOWN_NOTE } from '../../src/manifests/unknown-values.js';
import { membersSchema } from '../../src/kinds/generated/members.js';
import { teamSchema } from '../../src/kinds/generated/team.js';
import { siteSchema } from '../../src/kinds/generated/site.js';
import { spaceSchema } from '../../src/kinds/generated/space.js';
import { organizationSchema } from '../../src/kinds/generated/organization.js';

const doc = (kind: string, spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'docops/v1',
  kind,
  metadata: { organization: 'o1' },
  spec,
});

/** Set aside, render, read the YAML back: its spec, and the comment lines. */
function roundTrip(d: Record<string, unknown>, schema: object): { spec: Record<string, unknown>; notes: string[] } {
  const text = renderWithNotes(setAsideInDocument(d, schema));
  const back = parse(text) as { spec: Record<string, unknown> };
  expect(compileSchema(schema)(back.spec), text).toBe(true);
  return { spec: back.spec, notes: text.split('\n').filter((l) => l.trim().startsWith('#')) };
}

describe('values docops does not know, set aside', () => {
  it('a member role: the role is left out (not managed), the note gives it', () => {
    const { spec, notes } = roundTrip(
      doc('Members', {
        members: [
          { email: 'ann@x.io', role: 'admin' },
          { email: 'bob@x.io', role: 'billing', sso: true },
        ],
      }),
      membersSchema,
    );
    expect(spec['members']).toEqual([
      { email: 'ann@x.io', role: 'admin' },
      { email: 'bob@x.io', sso: true },
    ]);
    expect(notes[0]).toContain(`${UNKNOWN_NOTE} role: "billing"`);
    expect(notes).toContain('      # role: billing');
  });

  it("a team role: a left-out role would mean member, so the team's members are left out, shown whole", () => {
    const { spec, notes } = roundTrip(
      doc('Team', {
        title: 'Ops',
        members: [
          { email: 'ann@x.io', role: 'owner' },
          { email: 'bob@x.io', role: 'maintainer' },
        ],
      }),
      teamSchema,
    );
    expect(spec).toEqual({ title: 'Ops' });
    expect(notes[0]).toContain(`${UNKNOWN_NOTE} members[1].role: "maintainer" — members is left out`);
    expect(notes.join('\n')).toContain('role: maintainer');
    expect(notes.join('\n')).toContain('ann@x.io');
  });

  it('an access role: the access list is left out (a list item cannot be), and its other grants are in the note', () => {
    const { spec, notes } = roundTrip(
      doc('Space', {
        title: 'Guide',
        access: [
          { team: 'Ops', role: 'edit' },
          { email: 'bob@x.io', role: 'suggest' },
        ],
      }),
      spaceSchema,
    );
    expect(spec).toEqual({ title: 'Guide' });
    expect(notes[0]).toContain('"suggest"');
    expect(notes.join('\n')).toContain('team: Ops');
  });

  it("a site's visibility and its customization's new members and theme, each left out alone", () => {
    const { spec, notes } = roundTrip(
      doc('Site', {
        title: 'Portal',
        visibility: 'internal',
        customization: {
          styling: { theme: 'aurora', primaryColor: { light: '#FF6600' }, glass: { blur: 12 } },
          search: { mode: 'semantic' },
        },
      }),
      siteSchema,
    );
    expect(spec).toEqual({ title: 'Portal', customization: { styling: { primaryColor: { light: '#FF6600' } } } });
    const text = notes.join('\n');
    for (const what of ['visibility: "internal"', 'theme: "aurora"', 'the field glass', 'the field search'])
      expect(text).toContain(`${UNKNOWN_NOTE} ${what}`);
  });

  it('an object left empty goes too (it would manage nothing), the note naming the value inside it', () => {
    const { spec, notes } = roundTrip(
      doc('Site', { title: 'Portal', customization: { styling: { theme: 'aurora' } } }),
      siteSchema,
    );
    expect(spec).toEqual({ title: 'Portal' });
    expect(notes[0]).toContain(`${UNKNOWN_NOTE} customization.styling.theme: "aurora" — customization is left out`);
  });

  it('merge rules of an unknown type: left out whole', () => {
    const { spec, notes } = roundTrip(
      doc('Organization', { title: 'Acme', mergeRules: { type: 'require-ci', checks: ['build'] } }),
      organizationSchema,
    );
    expect(spec).toEqual({ title: 'Acme' });
    expect(notes.join('\n')).toContain('checks:');
  });

  it('leaves a valid document as it is, and renders it as before', () => {
    const d = doc('Members', { members: [{ email: 'ann@x.io', role: 'admin' }] });
    expect(setAsideInDocument(d, membersSchema)).toBe(d);
    expect(renderWithNotes(d)).not.toContain('#');
  });
});
