/**
 * Manifest documents (apiVersion/kind/metadata/spec) that describe a generated organization exactly, for
 * the kinds docops has registered. Written as YAML files for the plan benchmark, used in memory for the
 * CPU benchmark.
 */
import { stringify } from 'yaml';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenOrg } from './org-model.js';

export interface PlainDocument {
  apiVersion: 'docops/v1';
  kind: string;
  metadata: { organization: string };
  spec: Record<string, unknown>;
}

const doc = (org: GenOrg, kind: string, spec: Record<string, unknown>): PlainDocument => ({
  apiVersion: 'docops/v1',
  kind,
  metadata: { organization: org.id },
  spec,
});

/** Documents per file name; only kinds in `kinds` (manifest kind names) are written. */
export function orgDocuments(org: GenOrg, kinds: ReadonlySet<string>): Map<string, PlainDocument[]> {
  const files = new Map<string, PlainDocument[]>();
  const add = (file: string, kind: string, docs: PlainDocument[]): void => {
    if (kinds.has(kind) && docs.length > 0) files.set(file, docs);
  };
  add('organization.yaml', 'Organization', [doc(org, 'Organization', { title: org.title, defaultRole: 'read' })]);
  add('members.yaml', 'Members', [
    doc(org, 'Members', { members: org.members.map((m) => ({ email: m.email, role: m.role })) }),
  ]);
  add(
    'teams.yaml',
    'Team',
    org.teams.map((t) =>
      doc(org, 'Team', {
        title: t.title,
        members: t.members.map(({ member, role }) =>
          role === 'owner' ? { email: org.members[member]!.email, role } : { email: org.members[member]!.email },
        ),
      }),
    ),
  );
  add(
    'translations.yaml',
    'Translation',
    org.translations.map((t) => doc(org, 'Translation', { title: t.title })),
  );
  add(
    'spaces.yaml',
    'Space',
    org.spaces.map((s) => doc(org, 'Space', { title: s.title })),
  );
  add(
    'sites.yaml',
    'Site',
    org.sites.map((s) => {
      const spec: Record<string, unknown> = {
        title: s.title,
        sections: s.sections.map((x) => ({
          path: x.path,
          title: x.title,
          spaces: x.spaces.map((i) => org.spaces[i]!.title),
        })),
      };
      if (s.group) spec['sectionGroups'] = [{ title: s.group.title, sections: s.group.sections }];
      return doc(org, 'Site', spec);
    }),
  );
  return files;
}

/** Write the documents as multi-document YAML files into `dir`. */
export async function writeManifests(dir: string, files: ReadonlyMap<string, PlainDocument[]>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, docs] of files) await writeFile(join(dir, name), manifestText(docs));
}

/** The YAML text of one manifest file holding `docs`. */
export const manifestText = (docs: readonly PlainDocument[]): string =>
  docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');

/**
 * The same documents with the Members list spread over files of at most `perFile` members (one Members
 * document each), as an organization too large for one 2 MiB manifest file would keep it.
 */
export function splitMembers(
  files: ReadonlyMap<string, PlainDocument[]>,
  perFile: number,
): Map<string, PlainDocument[]> {
  const out = new Map<string, PlainDocument[]>();
  for (const [name, docs] of files) {
    const only = docs.length === 1 ? docs[0] : undefined;
    const members =
      only?.kind === 'Members' && Array.isArray(only.spec['members']) ? (only.spec['members'] as unknown[]) : undefined;
    if (!only || !members || members.length <= perFile) {
      out.set(name, docs);
      continue;
    }
    for (let i = 0; i * perFile < members.length; i++) {
      const spec = { ...only.spec, members: members.slice(i * perFile, (i + 1) * perFile) };
      out.set(name.replace(/\.yaml$/, `-${i + 1}.yaml`), [{ ...only, spec }]);
    }
  }
  return out;
}

/** Files of many documents (teams, spaces, …) spread over files of at most `perFile` documents, in order. */
export function splitDocuments(
  files: ReadonlyMap<string, PlainDocument[]>,
  perFile: number,
): Map<string, PlainDocument[]> {
  const out = new Map<string, PlainDocument[]>();
  for (const [name, docs] of files) {
    if (docs.length <= perFile) {
      out.set(name, docs);
      continue;
    }
    for (let i = 0; i * perFile < docs.length; i++)
      out.set(name.replace(/\.yaml$/, `-${i + 1}.yaml`), docs.slice(i * perFile, (i + 1) * perFile));
  }
  return out;
}
