/**
 * A fleet's status page: one section per organization (its mode, role, readiness, manifests, last plan and last
 * run), each linking to the organization's own page. Every text goes through `esc`: ids and messages are data.
 */
import { formatAt } from '../../render/attribution.js';
import { badge, esc, REFRESH_SECONDS, RESULT_LABEL, STYLE, tone } from '../status/html-base.js';
import type { FleetStatus } from './types.js';

function orgSection(o: FleetStatus['organizations'][number]): string {
  const page = `/orgs/${encodeURIComponent(o.org)}/`;
  const last = o.runs[0];
  const state =
    o.manifests.ok === false
      ? badge('manifests invalid', 'bad')
      : o.drift && o.drift.total > 0
        ? badge(`${o.drift.total} change(s)`, 'warn')
        : o.drift
          ? badge('in sync', 'ok')
          : badge('starting', 'info');
  const rows: [string, string][] = [
    ['Role', o.daemon.role],
    ['Ready', o.daemon.ready ? 'yes' : `no${o.daemon.reason ? `: ${o.daemon.reason}` : ''}`],
    ['Schedule', o.daemon.schedule ?? 'none'],
    ['Manifests', o.manifests.dir],
    ...(o.shard !== null ? ([['Shard', String(o.shard)]] as [string, string][]) : []),
    ['Last run', last ? `#${last.id} ${formatAt(last.startedAt)} (${last.reasons.join(', ')})` : 'none yet'],
  ];
  const id = `org-${encodeURIComponent(o.org).replace(/%/g, '_')}`;
  return (
    `<section aria-labelledby="${esc(id)}" data-org="${esc(o.org)}"><h2 id="${esc(id)}"><a href="${esc(page)}">${esc(o.org)}</a> ${state}` +
    `${last ? ` ${badge(RESULT_LABEL[last.result] ?? last.result, tone(last.result))}` : ''}</h2><dl class="facts">` +
    rows
      .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd data-field="${esc(k.toLowerCase())}">${esc(v)}</dd></div>`)
      .join('') +
    `</dl></section>`
  );
}

export function renderFleetHtml(s: FleetStatus): string {
  const bad = s.organizations.filter(
    (o) => o.manifests.ok === false || (o.runs[0]?.result !== undefined && o.runs[0].result !== 'success'),
  ).length;
  const summary = `${s.organizations.length} organization(s)${s.fleet.configured !== s.organizations.length ? ` of ${s.fleet.configured} (this daemon's shard)` : ''}${bad > 0 ? ` · ${bad} with a problem` : ''}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta http-equiv="refresh" content="${REFRESH_SECONDS}"><title>${esc(`docops: ${summary}`)}</title><style>${STYLE}</style></head><body>` +
    `<header><h1>docops status</h1><p>${esc(summary)}</p></header><main>` +
    s.organizations.map(orgSection).join('') +
    `</main><footer>Generated ${esc(formatAt(s.generatedAt))}; refreshes every ${REFRESH_SECONDS} s. The same data as JSON: <a href="/api/status">/api/status</a>.</footer></body></html>\n`
  );
}
