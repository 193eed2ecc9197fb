/** `docops whoami` and `docops orgs` as text: aligned columns, what the API said, and what it did not. */
import type { VisibleOrg } from './orgs.js';
import { tokenAccess, type OrgAccess, type TokenReport } from './token.js';

function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i]!.length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

export function renderOrgs(orgs: readonly VisibleOrg[]): string {
  if (orgs.length === 0) return 'The token sees no organization.\n';
  return `${columns([['ID', 'TITLE'], ...orgs.map((o) => [o.id, o.title])]).join('\n')}\n`;
}

function roleText(o: OrgAccess): string {
  if (o.role === undefined) return 'role not readable';
  return o.role === null ? 'guest' : `role ${o.role}`;
}

function mayText(o: OrgAccess): string {
  if (o.admin === undefined) return 'the API does not say whether its user is an admin';
  return o.admin ? 'admin: plan, export and apply' : 'not an admin: plan and export (apply needs an admin)';
}

const ACCESS_LINE = {
  write: 'May: write (its user is an admin of an organization above) — if the token carries write scopes, see below.',
  'read-only':
    'May: read only — its user is an admin of none of these organizations: plan, export and whoami work; apply is refused (403).',
  unknown: 'May: not known — the API did not say whether its user is an admin.',
} as const;

export function renderTokenReport(r: TokenReport): string {
  const lines: string[] = [];
  if (r.user) {
    const name = [r.user.displayName, r.user.email ? `<${r.user.email}>` : undefined].filter(Boolean).join(' ');
    lines.push(`Token of ${name ? `${name} ` : ''}(user ${r.user.id}) at ${r.apiUrl}`);
  } else {
    lines.push(`Token at ${r.apiUrl}: its user could not be read (GET /user refused, below)`);
  }
  lines.push('');
  if (r.orgs) {
    lines.push(`Organizations it sees (${r.orgs.length}):`);
    lines.push(...columns(r.orgs.map((o) => [o.id, o.title, roleText(o), mayText(o)])).map((l) => `  ${l}`));
    lines.push('', ACCESS_LINE[tokenAccess(r)]);
  } else {
    lines.push('Organizations: not readable (GET /orgs refused, below).');
  }
  lines.push(
    'Scopes: the API does not say which OAuth scopes a token carries. A personal access token carries none and',
    'may do what its user may; an OAuth token without write scopes is refused every write (403) even for an',
    'admin, which only a write shows. `docops plan` names the scopes a plan and its apply need ("Token scopes:").',
  );
  if (r.refused.length > 0) {
    lines.push('', 'Refused (403) — the token lacks these scopes, or its user may not read this:');
    for (const f of r.refused)
      lines.push(
        `  ${f.request}: needs ${f.scopes.length > 0 ? f.scopes.join(', ') : 'a personal token (no OAuth scope)'} — ${f.message}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
