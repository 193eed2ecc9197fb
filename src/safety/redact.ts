/**
 * Secrets never reach a journal: fields named like a token, secret, password, API key or share key are
 * dropped, and so is `urls.published` (for share-link sites it carries the link's secret token). Secret-named
 * query parameters inside any string (`…?shareKey=…`) are blanked too, and so is every credential of the
 * process-wide secret registry (src/secrets.ts: the API token wherever it turns up). Payload secrets (a SAML
 * certificate) stay: a journal keeps what undo must send back.
 */
import { redactCredentials } from '../secrets.js';

const SECRET_NAME = /token|secret|password|passwd|apikey|api_key|sharekey|share_key|credential|private_?key/i;

export function isSecretField(name: string, parent?: string): boolean {
  return SECRET_NAME.test(name) || (parent === 'urls' && name === 'published');
}

const SECRET_PARAM = /([?&#](?:[a-z_]*(?:token|secret|sharekey|share_key|password|apikey|api_key)[a-z_]*)=)[^&#\s]*/gi;

/** A deep copy of a JSON-like value without secret fields. */
export function redactSecrets<T>(value: T): T {
  return redactSecretsReporting(value).value;
}

/**
 * `redactSecrets`, also saying which fields it dropped (dotted paths from the value's root; list items by
 * index), so a reader of the copy can tell what is missing. Blanked query parameters are not listed.
 */
export function redactSecretsReporting<T>(value: T, root = ''): { value: T; dropped: string[] } {
  const dropped: string[] = [];
  const visit = (v: unknown, parent: string | undefined, at: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => visit(x, parent, `${at}[${i}]`));
    if (typeof v === 'string') return redactCredentials(v.replace(SECRET_PARAM, '$1REDACTED'));
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const path = at === '' ? redactCredentials(k) : `${at}.${redactCredentials(k)}`;
      if (isSecretField(k, parent)) dropped.push(path);
      else out[redactCredentials(k)] = visit(x, k, path);
    }
    return out;
  };
  return { value: visit(value, undefined, root) as T, dropped };
}
