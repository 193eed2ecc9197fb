/**
 * A plan that creates, changes and deletes objects of every kind (issue 33's world): the every-kind organization
 * (every-kind-world.ts) applied without faults is the "before"; the "after" manifests add a team, a translation,
 * a collection with a space, a section, a share link, an invitee, a second SAML provider and an OpenAPI spec;
 * change the organization, a member's role, a team's members, a collection's description and access, a space's
 * emoji, a site's visibility and a section's title, a SAML provider's sign-in URL and a spec's text; and remove
 * (prune) a team, a translation, a collection with its space, a section, a share link, a group, an access grant,
 * a SAML provider and an OpenAPI spec.
 *
 * `startChangeWorld()` gives a sandbox holding "before" and the desired state of "after"; what a test does under
 * its fault (plan, apply, the daemon) is its own. `worldIdentities` and `duplicateIdentities` (every-kind-world.ts)
 * say whether anything exists twice.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import type { ApiClient } from '../../src/model/api-client.js';
import type { PlanOptions } from '../../src/engine/reconcile.js';
import type { DesiredState } from '../../src/model/state.js';
import { everyKindManifests } from './every-kind-world.js';
import { fastClient, loadDesired, planAndApply, planOnce, tempDir } from '../helpers/pipeline.js';

/** Every manifest kind the world deletes objects of, pruned. */
export const WORLD_PRUNE: Record<string, boolean> = {
  Team: true,
  Translation: true,
  Collection: true,
  Space: true,
  SamlProvider: true,
  OpenAPISpec: true,
  Site: true,
};
export const WORLD_OPTIONS: PlanOptions = { prune: WORLD_PRUNE };

export const doc = (kind: string, spec: string): string =>
  `---\napiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;

/** Replace `from` by `to` in a manifest file, once; a world that no longer finds its text is a broken test. */
export function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`change world: ${file} has no ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

/** Replace the last `from` in a manifest file. */
function editLast(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const at = text.lastIndexOf(from);
  if (at < 0) throw new Error(`change world: ${file} has no ${JSON.stringify(from)}`);
  writeFileSync(path, text.slice(0, at) + to + text.slice(at + from.length));
}

/** Remove the YAML document of `file` that contains `marker`. */
function drop(dir: string, file: string, marker: string): void {
  const path = join(dir, file);
  const docs = readFileSync(path, 'utf8').split(/^---\n/m);
  const kept = docs.filter((d) => !d.includes(marker));
  if (kept.length !== docs.length - 1) throw new Error(`change world: ${file} has no single document with ${marker}`);
  writeFileSync(path, kept.join('---\n'));
}

/** The "before" manifests: the every-kind organization, with a SAML provider and a spec more to delete. */
export function beforeManifests(): string {
  const dir = everyKindManifests();
  appendFileSync(
    join(dir, 'saml.yaml'),
    doc(
      'SamlProvider',
      '  label: Legacy\n  entityID: https://idp.legacy.test/\n  ssoURL: https://idp.legacy.test/sso\n  certificate: { file: idp.pem }\n',
    ),
  );
  appendFileSync(
    join(dir, 'openapi.yaml'),
    doc(
      'OpenAPISpec',
      '  slug: legacy\n  source:\n    text: |\n      openapi: 3.1.0\n      info: { title: Legacy, version: 0.9.0 }\n      paths: {}\n',
    ),
  );
  edit(
    dir,
    'site.yaml',
    '    - { title: Reference, sections: [faq, local] }\n',
    '    - { title: Reference, sections: [faq] }\n    - { title: Extras, sections: [local] }\n',
  );
  appendFileSync(join(dir, 'site.yaml'), doc('Site', '  title: Old portal\n  visibility: public\n  basename: old\n'));
  return dir;
}

/** The "after" manifests, made from a copy of the every-kind "before" directory. */
export function afterManifests(before: string): string {
  const dir = tempDir('change-world');
  cpSync(before, dir, { recursive: true });
  // Creates.
  appendFileSync(
    join(dir, 'teams.yaml'),
    doc(
      'Team',
      '  title: Ops\n  members:\n    - { email: bob@acme.test, role: owner }\n    - { email: judy@acme.test }\n',
    ),
  );
  appendFileSync(join(dir, 'translations.yaml'), doc('Translation', '  title: Spanish docs\n'));
  appendFileSync(
    join(dir, 'spaces.yaml'),
    doc('Collection', '  title: Playbooks\n  description: How we run things\n') +
      doc('Space', '  title: Incident playbook\n  emoji: 🚨\n  parent: Playbooks\n'),
  );
  edit(
    dir,
    'members.yaml',
    '    - { email: third@acme.test, role: read }\n',
    '    - { email: third@acme.test, role: read }\n    - { email: fourth@acme.test, role: comment }\n',
  );
  appendFileSync(
    join(dir, 'saml.yaml'),
    doc(
      'SamlProvider',
      '  label: Azure\n  entityID: https://sts.windows.net/acme/\n  ssoURL: https://login.microsoftonline.com/acme/saml2\n  certificate: { file: idp.pem }\n  defaultRole: read\n',
    ),
  );
  appendFileSync(
    join(dir, 'openapi.yaml'),
    doc(
      'OpenAPISpec',
      '  slug: billing\n  source:\n    text: |\n      openapi: 3.1.0\n      info: { title: Billing, version: 1.0.0 }\n      paths: {}\n',
    ),
  );
  appendFileSync(
    join(dir, 'site.yaml'),
    doc('Site', '  title: Status page\n  visibility: public\n  basename: status\n'),
  );
  edit(
    dir,
    'site.yaml',
    '    - { path: faq, title: FAQ, spaces: [Partner FAQ] }\n',
    '    - { path: faq, title: FAQ, spaces: [Partner FAQ] }\n    - { path: playbooks, title: Playbooks, spaces: [Incident playbook] }\n',
  );
  edit(
    dir,
    'site.yaml',
    '    - { title: Reference, sections: [faq] }\n',
    '    - { title: Reference, sections: [faq, playbooks] }\n',
  );
  edit(dir, 'site.yaml', '    - { name: beta-partners }\n', '    - { name: gamma-partners }\n');
  // Changes.
  edit(dir, 'organization.yaml', 'inviteLinks: true', 'inviteLinks: false');
  edit(dir, 'members.yaml', '{ email: ivan@acme.test, role: read }', '{ email: ivan@acme.test, role: comment }');
  edit(
    dir,
    'teams.yaml',
    '  title: Docs guild\n  members:\n',
    '  title: Docs guild\n  members:\n    - { email: frank@acme.test }\n',
  );
  edit(dir, 'spaces.yaml', 'description: Guides from the field', 'description: Guides written in the field');
  edit(dir, 'spaces.yaml', '{ team: Docs guild, role: read }', '{ team: Docs guild, role: comment }');
  edit(dir, 'spaces.yaml', 'title: Field guide\n  emoji: 🧭', 'title: Field guide\n  emoji: 🗺');
  edit(dir, 'site.yaml', 'visibility: share-link\n  basename: partners', 'visibility: public\n  basename: partners');
  editLast(dir, 'site.yaml', '{ team: Support, role: read }', '{ team: Support, role: comment }');
  editLast(dir, 'spaces.yaml', '{ team: Security, role: edit }', '{ team: Security, role: read }');
  edit(dir, 'site.yaml', '{ path: guides, title: Guides,', '{ path: guides, title: Field guides,');
  edit(dir, 'saml.yaml', 'ssoURL: https://acme.okta.com/app/sso', 'ssoURL: https://acme.okta.com/app/sso2');
  edit(dir, 'openapi.yaml', 'info: { title: Orders, version: 1.0.0 }', 'info: { title: Orders, version: 1.1.0 }');
  // Deletes (pruned), and items removed from lists.
  drop(dir, 'teams.yaml', 'title: Reviewers');
  drop(dir, 'translations.yaml', 'title: Italian docs');
  drop(dir, 'spaces.yaml', 'title: Old notes');
  drop(dir, 'spaces.yaml', 'title: Archive');
  edit(dir, 'site.yaml', '    - { path: local, title: Local, spaces: [Local guide, Standalone] }\n', '');
  edit(dir, 'site.yaml', '    - { title: Extras, sections: [local] }\n', '');
  edit(
    dir,
    'site.yaml',
    'spaces: [Field guide, { space: Regional guide, path: regional }] }',
    'spaces: [Field guide] }',
  );
  drop(dir, 'site.yaml', 'title: Old portal');
  edit(
    dir,
    'spaces.yaml',
    '{ team: Docs guild, role: comment }\n    - { email: dan@acme.test, role: comment }\n',
    '{ team: Docs guild, role: comment }\n',
  );
  drop(dir, 'saml.yaml', 'label: Legacy');
  drop(dir, 'openapi.yaml', 'slug: legacy');
  return dir;
}

export interface ChangeWorld {
  sandbox: RunningSandbox;
  client: ApiClient;
  /** The "before" manifests (applied) and the "after" ones. */
  before: string;
  after: string;
  desired: DesiredState;
  options: PlanOptions;
  close(): Promise<void>;
}

/**
 * A sandbox holding the every-kind organization ("before" applied, without faults, until its plan is empty) and
 * the desired state of "after". The sandbox is the caller's to fault; `sandboxOptions` are passed on.
 */
export async function startChangeWorld(
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
  dirs: { before?: string; after?: string } = {},
): Promise<ChangeWorld> {
  const before = dirs.before ?? beforeManifests();
  const after = dirs.after ?? afterManifests(before);
  const sandbox = await startSandbox({ seed: 'demo', ...sandboxOptions });
  const client = fastClient(sandbox);
  const close = async (): Promise<void> => {
    await client.close();
    await sandbox.close();
  };
  try {
    const first = await loadDesired(before);
    await planAndApply(client, first);
    const left = await planOnce(client, first);
    if (left.steps.length > 0 || left.blocked.length > 0)
      throw new Error(`change world: "before" did not converge: ${left.steps.map((s) => s.id).join(', ')}`);
    return { sandbox, client, before, after, desired: await loadDesired(after), options: WORLD_OPTIONS, close };
  } catch (err) {
    await close();
    throw err;
  }
}
