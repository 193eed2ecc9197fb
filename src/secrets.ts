/**
 * The process-wide registry of secret values (the API token, the daemon's reconcile secret) and the one
 * redaction every printer of docops applies: CLI stdout/stderr, every log line, the daemon's HTTP answers,
 * saved plans, journals and exported manifests. Whoever reads a secret registers it at once (settings.ts for
 * the token, the daemon for its reconcile secret); printers never need to know where a secret came from.
 *
 * A registered value is redacted when it appears whole, URL-encoded or JSON-escaped, and — for values of
 * FRAGMENT_MIN_SECRET characters or more — when any FRAGMENT characters of it appear (an API or a YAML error
 * that quotes a truncated line still leaks the rest). This is the rule test/helpers/output-collector.ts checks.
 */

export const REDACTED = '[redacted]';
/** Shorter values are not registered: they would match ordinary words. */
export const MIN_SECRET = 8;
/** The shortest run of a secret's characters that counts as a leak (for long secrets). */
export const FRAGMENT = 12;
export const FRAGMENT_MIN_SECRET = 16;
/**
 * Longer values (a token file that is not a token, e.g. a manifest passed by mistake) are redacted whole only:
 * the fragment search costs one pass over the text per 4 characters of the value.
 */
export const FRAGMENT_MAX_SECRET = 4096;
/** Fragments are found through the secret's aligned 4-character grams: any 12 consecutive characters hold one. */
const GRAM = 4;

/** The forms a secret takes in output, longest first (deduplicated). */
let forms: string[] = [];
const values = new Set<string>();

/** Remember a secret value; from now on no printer of this process shows it. Short or empty values are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== 'string') return;
  const v = value.trim();
  if (v.length < MIN_SECRET || values.has(v)) return;
  values.add(v);
  const next = new Set(forms);
  for (const f of [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)]) if (f.length >= MIN_SECRET) next.add(f);
  forms = [...next].sort((a, b) => b.length - a.length);
}

/** The registered values themselves, for checks that must refuse them (manifest interpolation); never print them. */
export function registeredSecrets(): readonly string[] {
  return [...values];
}

/** How many secret values are registered (for tests and diagnostics; never the values). */
export function registeredSecretCount(): number {
  return values.size;
}

/** Forget every registered value. Only for tests that need a clean registry. */
export function clearSecretsForTests(): void {
  values.clear();
  forms = [];
}

/** `text` with every registered secret (whole, encoded, or a fragment of one) replaced by REDACTED. */
export function redactText(text: string): string {
  if (forms.length === 0 || text.length < MIN_SECRET) return text;
  const ranges: [number, number][] = [];
  for (const form of forms) {
    if (form.length < FRAGMENT_MIN_SECRET || form.length > FRAGMENT_MAX_SECRET) wholeMatches(text, form, ranges);
    else fragmentMatches(text, form, ranges);
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  // Overlapping and touching ranges merge into one REDACTED.
  let out = '';
  let pos = 0;
  let [start, end] = ranges[0]!;
  for (const [s, e] of ranges) {
    if (s <= end) {
      end = Math.max(end, e);
      continue;
    }
    out += text.slice(pos, start) + REDACTED;
    pos = end;
    [start, end] = [s, e];
  }
  return out + text.slice(pos, start) + REDACTED + text.slice(end);
}

function wholeMatches(text: string, form: string, ranges: [number, number][]): void {
  for (let p = text.indexOf(form); p !== -1; p = text.indexOf(form, p + form.length)) ranges.push([p, p + form.length]);
}

/**
 * Every run of at least FRAGMENT characters of `form` in `text`. Any such run contains one of the form's
 * grams at offsets 0, 4, 8 …, so a search for those grams (a few indexOf passes) finds every run; each hit is
 * extended both ways as far as text and form agree.
 */
function fragmentMatches(text: string, form: string, ranges: [number, number][]): void {
  for (let k = 0; k + GRAM <= form.length; k += GRAM) {
    const gram = form.slice(k, k + GRAM);
    for (let p = text.indexOf(gram); p !== -1; p = text.indexOf(gram, p + 1)) {
      let left = 0;
      while (k - left > 0 && p - left > 0 && text.charCodeAt(p - left - 1) === form.charCodeAt(k - left - 1)) left++;
      let right = 0;
      while (k + GRAM + right < form.length && p + GRAM + right < text.length && text.charCodeAt(p + GRAM + right) === form.charCodeAt(k + GRAM + right)) right++;
      if (left + GRAM + right >= FRAGMENT) ranges.push([p - left, p + GRAM + right]);
    }
  }
}

/**
 * A deep copy of a JSON-like value with every string (and object key) redacted; the value itself when
 * nothing needed redacting (so the common case allocates nothing).
 */
export function redactValue<T>(value: T): T {
  if (forms.length === 0) return value;
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v);
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = visit(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (v === null || typeof v !== 'object') return v;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const key = redactText(k);
      const y = visit(x);
      if (key !== k || y !== x) changed = true;
      out[key] = y;
    }
    return changed ? out : v;
  };
  return visit(value) as T;
}

export interface WritableText {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width, read at each use (it changes when the window is resized). */
  readonly columns?: number;
}

/** A stream whose every write is redacted first (each write on its own: printers write whole lines). */
export function redactingStream<S extends WritableText>(stream: S): WritableText {
  return {
    write: (chunk: string) => stream.write(typeof chunk === 'string' ? redactText(chunk) : chunk),
    ...(stream.isTTY !== undefined ? { isTTY: stream.isTTY } : {}),
    get columns() {
      return stream.columns;
    },
  };
}
