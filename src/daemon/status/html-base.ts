/**
 * What every status page shares (this daemon's, html.ts, and a fleet's, fleet/status-html.ts): escaping (every
 * piece of text is user data), badges that say a state in words as well as in colour, and the style sheet.
 */

export const REFRESH_SECONDS = 15;

export function esc(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export const RESULT_LABEL: Record<string, string> = {
  success: 'Success',
  failed: 'Failed',
  refused: 'Refused by the safety gate',
  invalid_manifests: 'Invalid manifests',
};

export function badge(text: string, tone: 'ok' | 'bad' | 'warn' | 'info'): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`;
}

export function tone(result: string): 'ok' | 'bad' | 'warn' {
  return result === 'success' ? 'ok' : result === 'refused' ? 'warn' : 'bad';
}

export const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:.8rem 1.5rem}header h1{margin:0;font-size:1.25rem}header p{margin:.2rem 0 0;color:#d0d7de}
main{padding:1rem 1.5rem;max-width:78rem}section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem 1rem;margin:0 0 1rem}
h2{font-size:1.1rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}h3{font-size:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.5rem;margin:0}.facts dt{font-weight:600;color:#57606a}.facts dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;font-weight:600;font-size:.85rem;border:1px solid}
.ok{background:#dafbe1;color:#116329;border-color:#4ac26b}.bad{background:#ffebe9;color:#82071e;border-color:#ff8182}.warn{background:#fff8c5;color:#7d4e00;border-color:#d4a72c}.info{background:#ddf4ff;color:#0a3069}
del{background:#ffebe9;text-decoration:line-through}ins{background:#dafbe1;text-decoration:none}.changes{margin:0;padding-left:1rem}
.pos{font-family:ui-monospace,monospace}td{overflow-wrap:break-word}p,li,.pos,.text{overflow-wrap:anywhere}.badge{white-space:nowrap}.note{color:#7d4e00}code{font-family:ui-monospace,monospace}
footer{padding:0 1.5rem 1.5rem;color:#57606a;font-size:.85rem}`;
