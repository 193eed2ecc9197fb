import { readFileSync } from 'node:fs';

/** The OAuth scopes docs/getting-started.md gives a command in its scopes table. */
export function documentedScopes(command: string): string[] {
  const doc = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');
  const row = doc.split('\n').find((l) => l.startsWith(`| \`${command}\``));
  if (!row) throw new Error(`no row for ${command} in docs/getting-started.md`);
  const cell = row.split('|')[3]!;
  return [...cell.matchAll(/`([^`]+)`/g)]
    .flatMap((m) => m[1]!.split(' '))
    .filter((s) => s.includes(':'))
    .sort();
}
