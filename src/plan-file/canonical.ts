/** Canonical JSON (object keys sorted, no whitespace) and SHA-256, the basis of every saved-plan checksum. */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level and `undefined` members dropped, so equal data hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const rec = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(rec)
        .filter((k) => rec[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys(rec[k])]),
    );
  }
  return value;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256:` + hex, the form every digest takes in a saved plan. */
export const digest = (data: string | Uint8Array): string => `sha256:${sha256(data)}`;
