/**
 * Validation-time reference checks: a reference that names no manifest is a warning (with file:line:column)
 * saying it must exist live, never an error; one that names a manifest (by title or pinned id) is silent.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { tempDir } from '../helpers/pipeline.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const doc = (kind: string, spec: string): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;

async function warningsOf(files: Record<string, string>): Promise<string[]> {
  const dir = tempDir('refs-validate');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { warnings } = await loadManifests(dir, KINDS, { env: {} });
  return warnings.map((w) => `${w.file.slice(dir.length + 1)}:${w.line}:${w.column}: ${w.message}`);
}

const live = (what: string, name: string, kind: string) =>
  `${what} "${name}" names no ${kind} manifest of organization org-demo: it must exist live (title or id), else plan blocks this document`;

describe('references naming no manifest are validation warnings', () => {
  it('site spaces, the default site space, space and collection parents, the default content site', async () => {
    const warnings = await warningsOf({
      'a.yaml': [
        doc('Collection', '  title: Guides\n  parent: Product docs\n'),
        doc('Collection', '  title: Nested\n  parent: Guides\n'),
        doc('Space', '  title: Setup\n  parent: Guidez\n'),
        doc('Space', '  title: Pinned\n  id: sp-pinned\n  parent: col-product\n'),
        doc('Site', '  title: Help\n  spaces: [Setup, sp-pinned, Ghost]\n  defaultSiteSpace: Ghosty\n'),
        doc('Organization', '  defaultContent: { type: site, site: Help Centre }\n'),
      ].join('---\n'),
    });
    expect(warnings).toEqual([
      `a.yaml:7:11: ${live('parent collection', 'Product docs', 'Collection')}`,
      `a.yaml:23:11: ${live('parent collection', 'Guidez', 'Collection')}`,
      `a.yaml:32:11: ${live('parent collection', 'col-product', 'Collection')}`,
      `a.yaml:40:30: ${live('space', 'Ghost', 'Space')}`,
      `a.yaml:41:21: ${live('space', 'Ghosty', 'Space')}`,
      `a.yaml:48:39: ${live('defaultContent.site', 'Help Centre', 'Site')}`,
    ]);
  });

  it('team members, when the organization has no Members documents: one warning per team', async () => {
    const team = doc('Team', '  title: Squad\n  members:\n    - { email: bob@acme.test }\n');
    expect(
      await warningsOf({ 't.yaml': [team, doc('Team', '  title: Empty\n  members: []\n')].join('---\n') }),
    ).toEqual([
      't.yaml:8:5: team "Squad" lists members, and organization org-demo has no Members documents: each must be an organization member live, else plan blocks this team',
    ]);
    // With a Members document the same reference is checked offline (an error when missing), so no warning.
    expect(
      await warningsOf({
        't.yaml': team,
        'm.yaml': doc('Members', '  members:\n    - { email: bob@acme.test, role: edit }\n'),
      }),
    ).toEqual([]);
  });

  it('the shipped example names only manifests: no warning', async () => {
    expect((await loadManifests('config.example/manifests', KINDS, { env: {} })).warnings).toEqual([]);
  });
});
