/**
 * The status page's drift section (html.ts): what the last plan found, by kind, with who changed each object and
 * what became of its step; what was blocked, only reported, owned by another writer, or not managed at all.
 */
import type { DriftStep, DriftView } from './model.js';
import { formatAt } from '../../render/attribution.js';
import { badge, esc } from './html-base.js';

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
  const label =
    st.outcome === 'applied' && st.origin !== 'drift' ? 'applied' : (OUTCOME_LABEL[st.outcome] ?? st.outcome);
  const outcome = `${esc(label)}${st.outcomeDetail ? `<br><small>${esc(st.outcomeDetail)}</small>` : ''}`;
  const mode = MODE_LABEL[st.mode];
  return (
    `<tr><td>${esc(st.action)}</td><td class="text"><strong>${esc(st.key)}</strong><br><small>${esc(st.org)}${st.source ? ` · ${esc(st.source)}` : ''}</small>` +
    `${st.note ? `<br><small>${esc(st.note)}</small>` : ''}</td><td class="text">${changes}</td><td>${by}</td><td>${outcome}${mode ? `<br><small data-mode="${esc(st.mode)}">mode ${esc(mode)}</small>` : ''}</td></tr>`
  );
}

export function drift(d: DriftView | null): string {
  const head = `<h2 id="drift">Drift</h2>`;
  if (!d) return `<section aria-labelledby="drift">${head}<p>No plan computed yet.</p></section>`;
  const when = `run #${d.run}, ${formatAt(d.at)}`;
  const parts = [`<section aria-labelledby="drift">${head}`];
  const reported = d.reported.total;
  if (d.total === 0 && reported > 0)
    parts.push(
      `<p>${badge(`${reported} reported`, 'warn')} The last plan (${esc(when)}) found nothing to apply, but ${reported} drifted object(s) are only reported: their ownership mode or drift setting leaves them as they are.</p>`,
    );
  else if (d.total === 0)
    parts.push(
      `<p>${badge('In sync', 'ok')} The last plan (${esc(when)}) found no drift${d.scopedTo ? ' in what it compared' : ': the organization matches the manifests'}.</p>`,
    );
  else parts.push(`<p>${badge(`${d.total} change(s)`, 'warn')} found by the last plan (${esc(when)}).</p>`);
  if (d.scopedTo)
    parts.push(
      `<p class="note">A scoped run: it compared only ${esc(d.scopedTo.join(', ') || 'nothing')}; the next full run compares everything.</p>`,
    );
  if (d.attributionUnavailable)
    parts.push(`<p class="note">Who changed it: unknown, ${esc(d.attributionUnavailable)}.</p>`);
  for (const k of d.byKind) {
    parts.push(
      `<table class="drift"><caption>${esc(k.kind)} (${k.steps.length})</caption><thead><tr><th scope="col">Action</th><th scope="col">Object</th>` +
        `<th scope="col">Live → manifests</th><th scope="col">Changed by</th><th scope="col">Outcome</th></tr></thead><tbody>${k.steps.map(stepRow).join('')}</tbody></table>`,
    );
  }
  if (d.blocked.length > 0) {
    parts.push(
      `<h3>Blocked (${d.blocked.length})</h3><ul>${d.blocked
        .map(
          (b) =>
            `<li>${esc(`${b.kind} ${b.org}/${b.key}`)}: ${b.source ? `<span class="pos">${esc(b.source)}</span>: ` : ''}${esc(b.message)}</li>`,
        )
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
        .map(
          (u) =>
            `<li>${esc(`${u.kind} ${u.org}/${u.key}`)}${u.id ? ` <small>(id ${esc(u.id)})</small>` : ''}${u.mode ? ` <small>(${esc(u.mode)}: left in place)</small>` : ''}</li>`,
        )
        .join(
          '',
        )}</ul>${d.unmanaged.total > d.unmanaged.items.length ? `<p>… and ${d.unmanaged.total - d.unmanaged.items.length} more</p>` : ''}`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}
