/**
 * The one guard for a JSON object read from outside (a parsed file, an API body, a spec): a value that is an
 * object, not null and not an array. Every module takes it from here; the lint refuses a private copy
 * (eslint.config.js, "one JSON type guard").
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
