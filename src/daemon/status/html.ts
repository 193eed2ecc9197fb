/**
 * The status page: StatusData → one self-contained HTML document. No script, no external resource (the server
 * sends a CSP that allows neither), refreshed by `<meta http-equiv="refresh">`. Every piece of text goes through
 * `esc` — titles, keys, messages and values are user data. Status is said in words, not only by colour.
 */
import type { RunView, SpaceHealthView, StatusData } from './model.js';
import { formatAt } from '../../render/attribution.js';
import { badge, esc, REFRESH_SECONDS, RESULT_LABEL, STYLE, tone } from './html-base.js';
import { drift } from './html-drift.js';

function revisionText(s: StatusData): string {
  const r = s.manifests.revision;
  if (!r) return 'unknown';
  if (r.source === 'git')
    return `git ${r.commit.slice(0, 12)}${r.ref ? ` (${r.ref.replace(/^refs\/heads\//, '')})` : ''}`;
  return `digest sha256:${r.sha256.slice(0, 16)}`;
}

function overview(s: StatusData): string {
  const d = s.daemon;
  const demoRow: [string, string][] = d.demo
    ? [['API', 'the in-process sandbox, seeded with the demo organization (nothing leaves this machine)']]
    : [];
  const rows: [string, string][] = [
    ['Mode', d.mode === 'apply' ? 'apply (writes changes)' : 'plan (reports drift, never writes)'],
    ['Role', d.role],
    ['Ready', d.ready ? 'yes' : `no${d.reason ? `: ${d.reason}` : ''}`],
    ['Schedule', d.schedule ?? 'none (file changes and POST /reconcile only)'],
    ...demoRow,
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
  if (m.ok)
    return `<section aria-labelledby="manifests">${head}<p>${badge('Valid', 'ok')} The last load found no problem.</p></section>`;
  if (m.error !== null)
    return (
      `<section aria-labelledby="manifests">${head}<p>${badge('Invalid', 'bad')} The manifests could not be read: ` +
      `<span data-field="load-error">${esc(m.error)}</span>. Nothing is sent to the API until a valid version is loaded.</p></section>`
    );
  const rows = m.problems
    .map(
      (p) =>
        `<tr><td class="pos">${esc(`${p.file}:${p.line}:${p.column}`)}</td><td class="text">${esc(p.message)}</td></tr>`,
    )
    .join('');
  return (
    `<section aria-labelledby="manifests">${head}<p>${badge('Invalid', 'bad')} The last load failed with ${m.problems.length} problem(s); ` +
    `nothing is sent to the API until a valid version is loaded.</p>` +
    `<table><caption>Load errors</caption><thead><tr><th scope="col">Where</th><th scope="col">Problem</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/**
 * The demo organization's API Reference has a broken link on purpose (its open change request adds the missing page):
 * said as what it is, so the demo does not greet a new user with a warning.
 */
const DEMO_HEALTH =
  'The demo organization comes with a broken link in its API Reference on purpose, to show what this section ' +
  'reports (its open change request #1 adds the missing page); a count beyond that one is from your edits.';

/** Broken links per managed space, the most broken first. */
function health(list: SpaceHealthView[], demo: boolean): string {
  const head = `<h2 id="health">Docs health</h2>`;
  if (list.length === 0)
    return `<section aria-labelledby="health">${head}<p>No managed space read yet (spaces a Space manifest describes are read at the end of the first run, then at most every healthMinutes).</p></section>`;
  const broken = list.filter((h) => h.broken > 0).length;
  const summary =
    broken === 0
      ? `${badge('No broken links', 'ok')} in the ${list.length} managed space(s).`
      : demo
        ? `${badge(`${broken} space(s) with broken links`, 'info')} ${esc(DEMO_HEALTH)}`
        : `${badge(`${broken} space(s) with broken links`, 'warn')}`;
  const rows = list
    .map(
      (h) =>
        `<tr><td>${esc(`${h.org}/${h.space}`)}</td><td>${h.broken}</td><td>${h.inChangeRequests}</td><td>${esc(`#${h.run}, ${formatAt(h.at)}`)}</td></tr>`,
    )
    .join('');
  return (
    `<section aria-labelledby="health">${head}<p>${summary}</p><table><caption>Broken links the API reports per managed space</caption><thead><tr><th scope="col">Space</th>` +
    `<th scope="col">Broken links</th><th scope="col">In change requests</th><th scope="col">Read by run</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

function runNote(r: RunView): string {
  if (r.refusedBecause.length > 0)
    return `<ul>${r.refusedBecause.map((v) => `<li>[${esc(v.rule)}] ${esc(v.message)}</li>`).join('')}</ul>`;
  if (r.result === 'invalid_manifests' && r.problems !== null) return `${r.problems} problem(s) (see Manifests)`;
  if (r.error) return esc(r.error);
  return '';
}

/** How each organization's live state is read: following its audit events, or full reads (and why). */
function informer(i: StatusData['informer']): string {
  if (!i) return '';
  const head = `<h2 id="informer">Live state</h2><p>Audit events polled every ${i.pollSeconds} s; a full read in the background every ${i.resyncMinutes} min.</p>`;
  if (i.orgs.length === 0) return `<section aria-labelledby="informer">${head}<p>Not read yet.</p></section>`;
  const rows = i.orgs.map((o) => {
    const mode =
      o.mode === 'informer'
        ? '<span class="badge ok">informer</span>'
        : `<span class="badge warn">fallback: full reads</span>`;
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
        `<td>${r.planned ?? '–'}</td><td>${r.applied ?? '–'}</td><td>${r.failed ?? '–'}</td><td class="text">${runNote(r)}</td></tr>`,
    )
    .join('');
  return (
    `<section aria-labelledby="runs">${head}<table><caption>Newest first</caption><thead><tr><th scope="col">Run</th><th scope="col">Started</th>` +
    `<th scope="col">Trigger</th><th scope="col">Duration</th><th scope="col">Result</th><th scope="col">Planned</th><th scope="col">Applied</th>` +
    `<th scope="col">Failed</th><th scope="col">Why</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/** The pull request proposing drift (kinds with drift: propose), and why it could not be updated. */
function proposalSection(p: StatusData['proposal']): string {
  if (!p) return '';
  const head = `<h2 id="proposal">Drift proposal</h2>`;
  const pr = p.pullRequest;
  const parts = [`<section aria-labelledby="proposal">${head}`];
  if (pr)
    parts.push(
      `<p>Pull request <a href="${esc(pr.url)}">#${pr.number}</a> (${esc(pr.state)}) proposes ${p.objects} drifted object(s) as a manifest change.</p>`,
    );
  else parts.push(`<p>No drift proposed.</p>`);
  if (p.problem) parts.push(`<p>${badge('not updated', 'warn')} ${esc(p.problem)}</p>`);
  if (p.skipped.length > 0)
    parts.push(
      `<ul>${p.skipped.map((x) => `<li>${esc(x.step)}: kept, not proposed (${esc(x.why)})</li>`).join('')}</ul>`,
    );
  return parts.join('') + '</section>';
}

/** A plan waiting for approval: its checksum, the rules that ask for it, and how to approve it. */
function approvalSection(a: StatusData['approval']): string {
  if (!a || (!a.waiting && !a.lastApplied)) return '';
  const head = `<h2 id="approval">Approval</h2>`;
  const parts = [`<section aria-labelledby="approval">${head}`];
  if (a.waiting) {
    const w = a.waiting;
    const how = [
      a.githubTeam
        ? `a member of the GitHub team ${a.githubTeam} comments <code>/docops approve ${esc(w.checksum)}</code> on the pull request`
        : '',
      a.endpoint ? 'POST /approve with the approver token' : '',
    ]
      .filter((x) => x !== '')
      .join(', or ');
    parts.push(
      `<p>${badge('Waiting for approval', 'warn')} since ${esc(formatAt(w.since))} (run #${w.run}): nothing is written until this exact plan is approved.</p>` +
        `<p>Checksum <code data-field="approval-checksum">${esc(w.checksum)}</code>${how ? `; to approve, ${how}` : ''}. Any change to the manifests or to the live objects it touches voids an approval.</p>` +
        `<ul>${w.rules.map((r) => `<li><strong>${esc(r.rule)}</strong>: ${esc(r.message)} (${esc(r.objects.slice(0, 10).join(', '))}${r.objects.length > 10 ? ', …' : ''})</li>`).join('')}</ul>`,
    );
  }
  if (a.lastApplied)
    parts.push(
      `<p class="note">Last approved plan applied: <code>${esc(a.lastApplied.checksum)}</code>, approved by ${esc(a.lastApplied.by)} at ${esc(formatAt(a.lastApplied.at))}.</p>`,
    );
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
    health(s.health, s.daemon.demo) +
    informer(s.informer) +
    runs(s.runs, api) +
    `</main><footer>Generated ${esc(formatAt(s.generatedAt))}; refreshes every ${REFRESH_SECONDS} s. The same data as JSON: <a href="${esc(api)}/status">${esc(api)}/status</a>.</footer></body></html>\n`
  );
}
