/**
 * The status page: StatusData → one self-contained HTML document. No script, no external resource (the server
 * sends a CSP that allows neither), refreshed by `<meta http-equiv="refresh">`. Every piece of text goes through
 * `esc` — titles, keys, messages and values are user data. Status is said in words, not only by colour.
 */
import type { DriftStep, DriftView, RunView, SpaceHealthView, StatusData } from './model.js';
import { formatAt } from '../../render/attribution.js';

export const REFRESH_SECONDS = 15;

export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export const RESULT_LABEL: Record<string, string> = {
  success: 'Success',
  failed: 'Failed',
  refused: 'Refused by the safety gate',
  invalid_manifests: 'Invalid manifests',
};

const OUTCOME_LABEL: Record<string, string> = {
  applied: 'applied (reverted)',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'pending (plan mode: not written)',
  refused: 'not written (refused)',
  'not applied': 'not applied',
  reported: 'reported only (not written)',
};

/** What a line's ownership mode lets docops do (docs/kinds.md, "Who owns what"). */
const MODE_LABEL: Record<string, string> = {
  additive: 'additive: creates and updates only',
  observe: 'observe: reports, never writes',
};

export function badge(text: string, tone: 'ok' | 'bad' | 'warn' | 'info'): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`;
}

export function tone(result: string): 'ok' | 'bad' | 'warn' {
  return result === 'success' ? 'ok' : result === 'refused' ? 'warn' : 'bad';
}

function revisionText(s: StatusData): string {
  const r = s.manifests.revision;
  if (!r) return 'unknown';
  if (r.source === 'git') return `git ${r.commit.slice(0, 12)}${r.ref ? ` (${r.ref.replace(/^refs\/heads\//, '')})` : ''}`;
  return `digest sha256:${r.sha256.slice(0, 16)}`;
}

function overview(s: StatusData): string {
  const d = s.daemon;
  const rows: [string, string][] = [
    ['Mode', d.mode === 'apply' ? 'apply (writes changes)' : 'plan (reports drift, never writes)'],
    ['Role', d.role],
    ['Ready', d.ready ? 'yes' : `no${d.reason ? `: ${d.reason}` : ''}`],
    ['Schedule', d.schedule ?? 'none (file changes and POST /reconcile only)'],
    ['Manifests', s.manifests.dir],
    ['Revision', revisionText(s)],
  ];
  return `<section aria-labelledby="overview"><h2 id="overview">Overview</h2><dl class="facts">${rows
    .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd data-field="${esc(k.toLowerCase())}">${esc(v)}</dd></div>`)
    .join('')}</dl></section>`;
}

function manifests(s: StatusData): string {
  const m = s.manifests;
  const head = `<h2 id="manifests">Manifests</h2>`;
  if (m.ok === null) return `<section aria-labelledby="manifests">${head}<p>Not loaded yet.</p></section>`;
  if (m.ok) return `<section aria-labelledby="manifests">${head}<p>${badge('Valid', 'ok')} The last load found no problem.</p></section>`;
  const rows = m.problems.map((p) => `<tr><td class="pos">${esc(`${p.file}:${p.line}:${p.column}`)}</td><td>${esc(p.message)}</td></tr>`).join('');
  return (
    `<section aria-labelledby="manifests">${head}<p>${badge('Invalid', 'bad')} The last load failed with ${m.problems.length} problem(s); ` +
    `nothing is sent to the API until a valid version is loaded.</p>` +
    `<table><caption>Load errors</caption><thead><tr><th scope="col">Where</th><th scope="col">Problem</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

function stepRow(st: DriftStep): string {
  const changes =
    st.changes.length === 0
      ? st.action === 'delete'
        ? `<em>${st.prune ? 'not in any manifest: deleted by prune' : 'to delete'}</em>`
        : ''
      : `<ul class="changes">${st.changes
          .map((c) => `<li><code>${esc(c.field)}</code>: <del>${esc(c.live)}</del> → <ins>${esc(c.desired)}</ins></li>`)
          .join('')}</ul>`;
  const by =
    st.origin === 'manifests'
      ? 'manifest edit'
      : st.changedBy
        ? `${esc(st.changedBy.actor)}<br><small>${esc(formatAt(st.changedBy.at))} · ${esc(st.changedBy.action)}</small>`
        : '<small>unknown</small>';
  const label = st.outcome === 'applied' && st.origin !== 'drift' ? 'applied' : (OUTCOME_LABEL[st.outcome] ?? st.outcome);
  const outcome = `${esc(label)}${st.outcomeDetail ? `<br><small>${esc(st.outcomeDetail)}</small>` : ''}`;
  const mode = MODE_LABEL[st.mode];
  return (
    `<tr><td>${esc(st.action)}</td><td><strong>${esc(st.key)}</strong><br><small>${esc(st.org)}${st.source ? ` · ${esc(st.source)}` : ''}</small>` +
    `${st.note ? `<br><small>${esc(st.note)}</small>` : ''}</td><td>${changes}</td><td>${by}</td><td>${outcome}${mode ? `<br><small data-mode="${esc(st.mode)}">mode ${esc(mode)}</small>` : ''}</td></tr>`
  );
}

function drift(d: DriftView | null): string {
  const head = `<h2 id="drift">Drift</h2>`;
  if (!d) return `<section aria-labelledby="drift">${head}<p>No plan computed yet.</p></section>`;
  const when = `run #${d.run}, ${formatAt(d.at)}`;
  const parts = [`<section aria-labelledby="drift">${head}`];
  const reported = d.reported.total;
  if (d.total === 0 && reported > 0) parts.push(`<p>${badge(`${reported} reported`, 'warn')} The last plan (${esc(when)}) found nothing to apply, but ${reported} drifted object(s) are only reported: their ownership mode or drift setting leaves them as they are.</p>`);
  else if (d.total === 0) parts.push(`<p>${badge('In sync', 'ok')} The last plan (${esc(when)}) found no drift${d.scopedTo ? ' in what it compared' : ': the organization matches the manifests'}.</p>`);
  else parts.push(`<p>${badge(`${d.total} change(s)`, 'warn')} found by the last plan (${esc(when)}).</p>`);
  if (d.scopedTo) parts.push(`<p class="note">A scoped run: it compared only ${esc(d.scopedTo.join(', ') || 'nothing')}; the next full run compares everything.</p>`);
  if (d.attributionUnavailable) parts.push(`<p class="note">Who changed it: unknown, ${esc(d.attributionUnavailable)}.</p>`);
  for (const k of d.byKind) {
    parts.push(
      `<table class="drift"><caption>${esc(k.kind)} (${k.steps.length})</caption><thead><tr><th scope="col">Action</th><th scope="col">Object</th>` +
        `<th scope="col">Live → manifests</th><th scope="col">Changed by</th><th scope="col">Outcome</th></tr></thead><tbody>${k.steps.map(stepRow).join('')}</tbody></table>`,
    );
  }
  if (d.blocked.length > 0) {
    parts.push(
      `<h3>Blocked (${d.blocked.length})</h3><ul>${d.blocked
        .map((b) => `<li>${esc(`${b.kind} ${b.org}/${b.key}`)}: ${b.source ? `<span class="pos">${esc(b.source)}</span>: ` : ''}${esc(b.message)}</li>`)
        .join('')}</ul>`,
    );
  }
  if (reported > 0) {
    parts.push(
      `<table class="drift reported"><caption>Reported, not written (${reported})</caption><thead><tr><th scope="col">Action</th><th scope="col">Object</th>` +
        `<th scope="col">Live → manifests</th><th scope="col">Changed by</th><th scope="col">Outcome</th></tr></thead><tbody>${d.reported.items.map(stepRow).join('')}</tbody></table>` +
        (reported > d.reported.items.length ? `<p>… and ${reported - d.reported.items.length} more</p>` : ''),
    );
  }
  if (d.owned.length > 0) {
    parts.push(
      `<h3 id="owned">Owned by another writer (${d.owned.length})</h3><ul class="owned">${d.owned
        .map((o) => `<li>${esc(`${o.kind} ${o.org}/${o.key}`)}: ${esc(o.what)} owned by ${esc(o.owner)}</li>`)
        .join('')}</ul>`,
    );
  }
  parts.push(`<h3 id="unmanaged">Unmanaged objects (${d.unmanaged.total})</h3>`);
  if (d.unmanaged.total === 0) parts.push('<p>None: every live object is in a manifest.</p>');
  else {
    parts.push(
      `<p>Live objects no manifest mentions (left alone unless prune is on):</p><ul class="unmanaged">${d.unmanaged.items
        .map((u) => `<li>${esc(`${u.kind} ${u.org}/${u.key}`)}${u.id ? ` <small>(id ${esc(u.id)})</small>` : ''}${u.mode ? ` <small>(${esc(u.mode)}: left in place)</small>` : ''}</li>`)
        .join('')}</ul>${d.unmanaged.total > d.unmanaged.items.length ? `<p>… and ${d.unmanaged.total - d.unmanaged.items.length} more</p>` : ''}`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}

/** Broken links per managed space, the most broken first. */
function health(list: SpaceHealthView[]): string {
  const head = `<h2 id="health">Docs health</h2>`;
  if (list.length === 0) return `<section aria-labelledby="health">${head}<p>No managed space read yet (spaces a Space manifest describes are read after each run).</p></section>`;
  const broken = list.filter((h) => h.broken > 0).length;
  const summary = broken === 0 ? `${badge('No broken links', 'ok')} in the ${list.length} managed space(s).` : `${badge(`${broken} space(s) with broken links`, 'warn')}`;
  const rows = list
    .map((h) => `<tr><td>${esc(`${h.org}/${h.space}`)}</td><td>${h.broken}</td><td>${h.inChangeRequests}</td><td>${esc(`#${h.run}, ${formatAt(h.at)}`)}</td></tr>`)
    .join('');
  return (
    `<section aria-labelledby="health">${head}<p>${summary}</p><table><caption>Broken links the API reports per managed space</caption><thead><tr><th scope="col">Space</th>` +
    `<th scope="col">Broken links</th><th scope="col">In change requests</th><th scope="col">Read by run</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

function runNote(r: RunView): string {
  if (r.refusedBecause.length > 0) return `<ul>${r.refusedBecause.map((v) => `<li>[${esc(v.rule)}] ${esc(v.message)}</li>`).join('')}</ul>`;
  if (r.result === 'invalid_manifests') return `${r.problems ?? 0} problem(s) (see Manifests)`;
  if (r.error) return esc(r.error);
  return '';
}

/** How each organization's live state is read: following its audit events, or full reads (and why). */
function informer(i: StatusData['informer']): string {
  if (!i) return '';
  const head = `<h2 id="informer">Live state</h2><p>Audit events polled every ${i.pollSeconds} s; a full read in the background every ${i.resyncMinutes} min.</p>`;
  if (i.orgs.length === 0) return `<section aria-labelledby="informer">${head}<p>Not read yet.</p></section>`;
  const rows = i.orgs.map((o) => {
    const mode = o.mode === 'informer' ? '<span class="badge ok">informer</span>' : `<span class="badge warn">fallback: full reads</span>`;
    const why = o.why ? `${o.why}${o.status !== undefined ? ` (HTTP ${o.status})` : ''}` : '';
    const at = (t: string | undefined): string => (t ? esc(formatAt(t)) : '—');
    return (
      `<tr><td>${esc(o.org)}</td><td>${mode}</td><td>${esc(why)}</td><td>${at(o.lastPollAt)}</td><td>${at(o.lastFullReadAt)}</td>` +
      `<td>${o.resyncing ? 'now' : at(o.nextResyncAt)}</td><td>${o.events}</td></tr>`
    );
  });
  return (
    `<section aria-labelledby="informer">${head}<table><thead><tr><th scope="col">Organization</th><th scope="col">Read by</th><th scope="col">Why</th>` +
    `<th scope="col">Last poll</th><th scope="col">Last full read</th><th scope="col">Next resync</th><th scope="col">Events followed</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}

function runs(list: RunView[], api: string): string {
  const head = `<h2 id="runs">Last runs</h2>`;
  if (list.length === 0) return `<section aria-labelledby="runs">${head}<p>No run yet.</p></section>`;
  const rows = list
    .map(
      (r) =>
        `<tr><td><a href="${esc(api)}/runs/${r.id}">#${r.id}</a></td><td>${esc(formatAt(r.startedAt))}</td><td>${esc(r.reasons.join(', '))}</td>` +
        `<td>${(r.durationMs / 1000).toFixed(1)} s</td><td>${badge(RESULT_LABEL[r.result] ?? r.result, tone(r.result))}</td>` +
        `<td>${r.planned ?? '–'}</td><td>${r.applied ?? '–'}</td><td>${r.failed ?? '–'}</td><td>${runNote(r)}</td></tr>`,
    )
    .join('');
  return (
    `<section aria-labelledby="runs">${head}<table><caption>Newest first</caption><thead><tr><th scope="col">Run</th><th scope="col">Started</th>` +
    `<th scope="col">Trigger</th><th scope="col">Duration</th><th scope="col">Result</th><th scope="col">Planned</th><th scope="col">Applied</th>` +
    `<th scope="col">Failed</th><th scope="col">Why</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

export const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:.8rem 1.5rem}header h1{margin:0;font-size:1.25rem}header p{margin:.2rem 0 0;color:#d0d7de}
main{padding:1rem 1.5rem;max-width:78rem}section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem 1rem;margin:0 0 1rem}
h2{font-size:1.1rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}h3{font-size:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.5rem;margin:0}.facts dt{font-weight:600;color:#57606a}.facts dd{margin:0;word-break:break-all}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;font-weight:600;font-size:.85rem;border:1px solid}
.ok{background:#dafbe1;color:#116329;border-color:#4ac26b}.bad{background:#ffebe9;color:#82071e;border-color:#ff8182}.warn{background:#fff8c5;color:#7d4e00;border-color:#d4a72c}.info{background:#ddf4ff;color:#0a3069}
del{background:#ffebe9;text-decoration:line-through}ins{background:#dafbe1;text-decoration:none}.changes{margin:0;padding-left:1rem}
.pos{font-family:ui-monospace,monospace;white-space:nowrap}.note{color:#7d4e00}code{font-family:ui-monospace,monospace}
footer{padding:0 1.5rem 1.5rem;color:#57606a;font-size:.85rem}`;

/** The pull request proposing drift (kinds with drift: propose), and why it could not be updated. */
function proposalSection(p: StatusData['proposal']): string {
  if (!p) return '';
  const head = `<h2 id="proposal">Drift proposal</h2>`;
  const pr = p.pullRequest;
  const parts = [`<section aria-labelledby="proposal">${head}`];
  if (pr) parts.push(`<p>Pull request <a href="${esc(pr.url)}">#${pr.number}</a> (${esc(pr.state)}) proposes ${p.objects} drifted object(s) as a manifest change.</p>`);
  else parts.push(`<p>No drift proposed.</p>`);
  if (p.problem) parts.push(`<p>${badge('not updated', 'warn')} ${esc(p.problem)}</p>`);
  if (p.skipped.length > 0) parts.push(`<ul>${p.skipped.map((x) => `<li>${esc(x.step)}: kept, not proposed (${esc(x.why)})</li>`).join('')}</ul>`);
  return parts.join('') + '</section>';
}

/** A plan waiting for approval: its checksum, the rules that ask for it, and how to approve it. */
function approvalSection(a: StatusData['approval']): string {
  if (!a || (!a.waiting && !a.lastApplied)) return '';
  const head = `<h2 id="approval">Approval</h2>`;
  const parts = [`<section aria-labelledby="approval">${head}`];
  if (a.waiting) {
    const w = a.waiting;
    const how = [a.githubTeam ? `a member of the GitHub team ${a.githubTeam} comments <code>/docops approve ${esc(w.checksum)}</code> on the pull request` : '', a.endpoint ? 'POST /approve with the approver token' : '']
      .filter((x) => x !== '')
      .join(', or ');
    parts.push(
      `<p>${badge('Waiting for approval', 'warn')} since ${esc(formatAt(w.since))} (run #${w.run}): nothing is written until this exact plan is approved.</p>` +
        `<p>Checksum <code data-field="approval-checksum">${esc(w.checksum)}</code>${how ? `; to approve, ${how}` : ''}. Any change to the manifests or to the live objects it touches voids an approval.</p>` +
        `<ul>${w.rules.map((r) => `<li><strong>${esc(r.rule)}</strong>: ${esc(r.message)} (${esc(r.objects.slice(0, 10).join(', '))}${r.objects.length > 10 ? ', …' : ''})</li>`).join('')}</ul>`,
    );
  }
  if (a.lastApplied) parts.push(`<p class="note">Last approved plan applied: <code>${esc(a.lastApplied.checksum)}</code>, approved by ${esc(a.lastApplied.by)} at ${esc(formatAt(a.lastApplied.at))}.</p>`);
  return parts.join('') + '</section>';
}

/** `api`: where this page's JSON lives (a fleet's organization: /api/orgs/{id}). */
export function renderStatusHtml(s: StatusData, api = '/api'): string {
  const state =
    s.manifests.ok === false
      ? 'manifests invalid'
      : s.drift && s.drift.total > 0
        ? `${s.drift.total} change(s)`
        : s.drift && s.drift.reported.total > 0
          ? `${s.drift.reported.total} reported`
          : s.drift
            ? 'in sync'
            : 'starting';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta http-equiv="refresh" content="${REFRESH_SECONDS}"><title>${esc(`docops: ${state}`)}</title><style>${STYLE}</style></head><body>` +
    `<header><h1>docops status</h1><p>${esc(`${s.daemon.mode} mode · ${s.daemon.role} · ${state}`)}</p></header><main>` +
    overview(s) +
    manifests(s) +
    approvalSection(s.approval) +
    proposalSection(s.proposal) +
    drift(s.drift) +
    health(s.health) +
    informer(s.informer) +
    runs(s.runs, api) +
    `</main><footer>Generated ${esc(formatAt(s.generatedAt))}; refreshes every ${REFRESH_SECONDS} s. The same data as JSON: <a href="${esc(api)}/status">${esc(api)}/status</a>.</footer></body></html>\n`
  );
}
