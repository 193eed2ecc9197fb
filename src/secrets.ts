/**
 * The process-wide registry of secret values and the one redaction every printer of docops applies: CLI
 * stdout/stderr, every log line, the daemon's HTTP answers, notifications, saved plans, journals and exported
 * manifests. Whoever reads a secret registers it at once (settings.ts for the token, schema validation for every
 * field a schema marks `x-secret`, src/manifests/secret-fields.ts); printers never need to know where a secret
 * came from.
 *
 * Two kinds of secret:
 * - a **credential** is docops's own (the API token, the reconcile secret, a webhook URL, a signing key): it is
 *   redacted everywhere, and no `${VAR}` holding one is interpolated into a manifest;
 * - a **payload** is a secret a manifest asks docops to send (a SAML certificate): redacted from every message,
 *   but kept by the writers whose file exists to send it again (redactCredentials: a saved plan's request
 *   bodies, a delete journal's snapshot, export's files).
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
 * a run of 12 characters of a long text is likely to be ordinary words.
 */
export const FRAGMENT_MAX_SECRET = 4096;
/** Fragments are found through 4-character grams: any 12 consecutive characters hold one at every alignment. */
const GRAM = 4;
/**
 * Forms up to this long are searched gram by gram with indexOf (a few fast passes per line for a token); longer
 * ones (a certificate: ~400 grams) through one index of all their grams, looked up at every 8th position of the
 * text, whose cost does not grow with the secret (a 1.7 KB certificate: 10,000 log lines 580 → 17 ms).
 */
const INDEXOF_MAX_FORM = 128;

export type SecretKind = 'credential' | 'payload';

/** The forms of a set of secrets in output, and how each is searched. */
interface Redactor {
  /** Matched whole only (shorter than FRAGMENT_MIN_SECRET or longer than FRAGMENT_MAX_SECRET), longest first. */
  whole: string[];
  /** Fragments searched gram by gram. */
  small: string[];
  /** Fragments of the longer forms: gram → [form, offset] of every place it starts in one of them. */
  grams: Map<string, [string, number][]>;
  empty: boolean;
}

const values = new Map<string, SecretKind>();
let all: Redactor | undefined;
let credentials: Redactor | undefined;

/**
 * Remember a secret value; from now on no printer of this process shows it. Short or empty values are ignored.
 * A value registered as both kinds is a credential.
 */
export function registerSecret(value: string | undefined | null, kind: SecretKind = 'credential'): void {
  if (typeof value !== 'string') return;
  const v = value.trim();
  if (v.length < MIN_SECRET || values.get(v) === 'credential' || values.get(v) === kind) return;
  values.set(v, kind);
  // A value read from a file with CRLF line endings is usually sent and echoed with LF ones.
  const lf = v.replace(/\r\n?/g, '\n');
  if (lf !== v && !values.has(lf)) values.set(lf, kind);
  all = credentials = undefined;
}

/** The registered credentials themselves, for checks that must refuse them (manifest interpolation); never print them. */
export function registeredSecrets(): readonly string[] {
  return [...values].filter(([, k]) => k === 'credential').map(([v]) => v);
}

/** How many secret values are registered (for tests and diagnostics; never the values). */
export function registeredSecretCount(): number {
  return values.size;
}

/** Forget every registered value. Only for tests that need a clean registry. */
export function clearSecretsForTests(): void {
  values.clear();
  all = credentials = undefined;
}

function redactor(kinds: 'all' | 'credentials'): Redactor {
  const cached = kinds === 'all' ? all : credentials;
  if (cached) return cached;
  const forms = new Set<string>();
  for (const [v, kind] of values) {
    if (kinds === 'credentials' && kind !== 'credential') continue;
    for (const f of [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)])
      if (f.length >= MIN_SECRET) forms.add(f);
  }
  const r: Redactor = { whole: [], small: [], grams: new Map(), empty: forms.size === 0 };
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (form.length < FRAGMENT_MIN_SECRET || form.length > FRAGMENT_MAX_SECRET) r.whole.push(form);
    else if (form.length <= INDEXOF_MAX_FORM) r.small.push(form);
    else {
      for (let k = 0; k + GRAM <= form.length; k++) {
        const gram = form.slice(k, k + GRAM);
        const at = r.grams.get(gram);
        if (at) at.push([form, k]);
        else r.grams.set(gram, [[form, k]]);
      }
    }
  }
  if (kinds === 'all') all = r;
  else credentials = r;
  return r;
}

/** `text` with every registered secret (whole, encoded, or a fragment of one) replaced by REDACTED. */
export function redactText(text: string): string {
  return redactWith(redactor('all'), text);
}

/**
 * `text` without the registered credentials; payload secrets stay. Only for the files that exist to send those
 * again: a saved plan (apply sends its request bodies), a delete journal (undo sends the snapshot back), export.
 */
export function redactCredentials(text: string): string {
  return redactWith(redactor('credentials'), text);
}

function redactWith(r: Redactor, text: string): string {
  if (r.empty || text.length < MIN_SECRET) return text;
  const ranges: [number, number][] = [];
  for (const form of r.whole) wholeMatches(text, form, ranges);
  for (const form of r.small) fragmentMatches(text, form, ranges);
  if (r.grams.size > 0) indexedMatches(text, r.grams, ranges);
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
    for (let p = text.indexOf(gram); p !== -1; p = text.indexOf(gram, p + 1)) extend(text, p, form, k, ranges);
  }
}

/**
 * The same runs for the indexed forms. A run of FRAGMENT characters at text position s holds a whole gram at
 * every position s … s + FRAGMENT - GRAM (9 positions), one of which is divisible by FRAGMENT - GRAM (8); the
 * index holds every gram of every form, so looking up the text at every 8th position finds every run.
 */
function indexedMatches(text: string, grams: Map<string, [string, number][]>, ranges: [number, number][]): void {
  for (let p = 0; p + GRAM <= text.length; p += FRAGMENT - GRAM) {
    const hits = grams.get(text.slice(p, p + GRAM));
    if (hits) for (const [form, k] of hits) extend(text, p, form, k, ranges);
  }
}

/** Grow the match of form[k, k+GRAM) at text[p, p+GRAM) both ways; keep it when it is FRAGMENT characters or more. */
function extend(text: string, p: number, form: string, k: number, ranges: [number, number][]): void {
  let left = 0;
  while (k - left > 0 && p - left > 0 && text.charCodeAt(p - left - 1) === form.charCodeAt(k - left - 1)) left++;
  let right = 0;
  while (
    k + GRAM + right < form.length &&
    p + GRAM + right < text.length &&
    text.charCodeAt(p + GRAM + right) === form.charCodeAt(k + GRAM + right)
  )
    right++;
  if (left + GRAM + right >= FRAGMENT) ranges.push([p - left, p + GRAM + right]);
}

/**
 * A deep copy of a JSON-like value with every string (and object key) redacted; the value itself when
 * nothing needed redacting (so the common case allocates nothing). `which: 'credentials'` keeps payload secrets
 * (export's files: see redactCredentials).
 */
export function redactValue<T>(value: T, which: 'all' | 'credentials' = 'all'): T {
  const r = redactor(which);
  if (r.empty) return value;
  const redact = (text: string): string => redactWith(r, text);
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
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
      const key = redact(k);
      const y = visit(x);
      if (key !== k || y !== x) changed = true;
      out[key] = y;
    }
    return changed ? out : v;
  };
  return visit(value) as T;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The `user:password` of a URL as written, parseable or not: everything between `scheme://` and its last `@`
 * (a password may hold `/` or `@` unencoded); undefined without one.
 */
export function urlUserinfo(url: string): string | undefined {
  const scheme = SCHEME.exec(url)?.[0];
  const at = url.lastIndexOf('@');
  return scheme !== undefined && at > scheme.length ? url.slice(scheme.length, at) : undefined;
}

/**
 * A URL as a message may show it: its `user:password@` (urlUserinfo) replaced by REDACTED. Only for a value that
 * starts with `scheme://` (see shownUrl for one that may not).
 */
export function withoutUserinfo(url: string): string {
  const info = urlUserinfo(url);
  if (info === undefined) return url;
  const scheme = SCHEME.exec(url)![0];
  return `${scheme}${REDACTED}${url.slice(scheme.length + info.length)}`;
}

/**
 * A value meant to be a URL with credentials, as a message may show it: without its `user:password@` when it
 * starts with `scheme://`, else undefined: not shown at all (`user:pw@host`, `https:/user:pw@host` or a token
 * written where the URL belongs hold a secret where no URL syntax says which part it is).
 */
export function shownUrl(url: string): string | undefined {
  return SCHEME.test(url) ? withoutUserinfo(url) : undefined;
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
