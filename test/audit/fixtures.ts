/** Manifests that match the demo seed for the members and the Support team: a first plan finds nothing. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MEMBER_ROLES } from '../../packages/sandbox/src/seed.js';

export const CAROL = { token: 'carol-token-behind-docops', userId: 'u-carol' };

const MEMBERS = DEMO_MEMBER_ROLES;

export function membersYaml(overrides: Record<string, string> = {}): string {
  return (
    [
      'apiVersion: docops/v1',
      'kind: Members',
      'metadata:',
      '  organization: org-demo',
      'spec:',
      '  members:',
      ...MEMBERS.map(([n, role]) => `    - { email: ${n}@acme.test, role: ${overrides[n] ?? role} }`),
    ].join('\n') + '\n'
  );
}

export function teamYaml(title: string, emails: string[]): string {
  return (
    [
      'apiVersion: docops/v1',
      'kind: Team',
      'metadata:',
      '  organization: org-demo',
      'spec:',
      `  title: ${JSON.stringify(title)}`,
      ...(emails.length > 0 ? ['  members:', ...emails.map((e) => `    - { email: ${e} }`)] : []),
    ].join('\n') + '\n'
  );
}

export function writeManifests(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}
