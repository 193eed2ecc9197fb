/**
 * Small stand-in kinds for the loader tests, so they do not depend on the real kinds (src/kinds/*).
 * Team: one entry per document keyed by title; Members: one `Member` entry per e-mail (lower-cased).
 * Team.crossValidate checks that every team member is listed in the org's Members.
 */
import type { DesiredEntry, KindDefinition, Report } from '../../src/model/kind.js';
import type { ManifestDocument } from '../../src/model/document.js';

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

const memberSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: {
    email: { type: 'string', format: 'email' },
    role: { enum: ROLES, markdownDescription: 'The member **role**.' },
  },
};

const teamSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 64 },
    id: { type: 'string' },
    slug: { type: 'string', minLength: 1, pattern: '^[a-z0-9-]+$' },
    description: { type: 'string' },
    notes: { type: 'string' },
    members: { type: 'array', items: memberSchema },
  },
};

const membersSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['members'],
  properties: { members: { type: 'array', items: memberSchema } },
};

type Member = { email: string; role: string };

function notUsed(): never {
  throw new Error('not used by the loader tests');
}

export function fakeTeamKind(calls: { toDesired: number } = { toDesired: 0 }): KindDefinition<Record<string, unknown>> {
  return {
    kind: 'Team',
    identity: 'title',
    schema: teamSchema,
    depth: 1,
    toDesired(doc: ManifestDocument): DesiredEntry<Record<string, unknown>>[] {
      calls.toDesired++;
      const spec = doc.spec as { title: string; id?: string };
      const entry: DesiredEntry<Record<string, unknown>> = {
        kind: 'Team',
        org: doc.metadata.organization,
        key: spec.title,
        spec: doc.spec,
        source: doc.pos(['spec', 'title']),
        doc,
      };
      if (spec.id !== undefined) entry.id = spec.id;
      return [entry];
    },
    crossValidate(
      entries: DesiredEntry<Record<string, unknown>>[],
      all: ReadonlyMap<string, DesiredEntry[]>,
      report: Report,
    ): void {
      const known = new Set((all.get('Members') ?? []).map((m) => `${m.org}/${m.key}`));
      for (const team of entries) {
        ((team.spec.members ?? []) as Member[]).forEach((m, i) => {
          if (!known.has(`${team.org}/${m.email.toLowerCase()}`)) {
            report(
              team.doc.pos(['spec', 'members', i, 'email']),
              `spec.members[${i}].email: ${m.email} is not a member of ${team.org}`,
            );
          }
        });
      }
    },
    fetch: notUsed,
    diff: notUsed,
  };
}

export function fakeMembersKind(): KindDefinition {
  return {
    kind: 'Members',
    identity: 'e-mail',
    schema: membersSchema,
    depth: 0,
    toDesired(doc: ManifestDocument): DesiredEntry[] {
      return (doc.spec.members as Member[]).map((m, i) => ({
        kind: 'Member',
        org: doc.metadata.organization,
        key: m.email.toLowerCase(),
        spec: { role: m.role },
        source: doc.pos(['spec', 'members', i]),
        doc,
      }));
    },
    fetch: notUsed,
    diff: notUsed,
  };
}
