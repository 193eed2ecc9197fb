/**
 * What overrides single fields of docops.yaml (load.ts applies them): DOCOPS_* environment variables, each
 * checked against its field's schema, and then command-line flags.
 */
import type { Env } from '../manifests/interpolate.js';
import { validateWithSchema } from '../manifests/schema.js';
import { quotable, secretMarkAt } from '../manifests/secret-fields.js';
import { cronProblem, parseListen } from './checks.js';
import { configSchema } from './schema.js';

/** Command-line flags that override the file (and the environment). */
export interface ConfigOverrides {
  apiUrl?: string;
  listen?: string;
  sandbox?: boolean;
}

/** Environment variable → config field it overrides. */
export const ENV_OVERRIDES = {
  DOCOPS_API_URL: 'apiUrl',
  DOCOPS_MANIFESTS: 'manifests',
  DOCOPS_ALLOW_ENV: 'allowEnv',
  DOCOPS_MODE: 'mode',
  DOCOPS_SCHEDULE: 'schedule',
  DOCOPS_LISTEN: 'listen',
  DOCOPS_CONCURRENCY: 'concurrency',
  DOCOPS_RECONCILE_SECRET: 'reconcileSecret',
  DOCOPS_JOURNAL_DIR: 'journalDir',
  DOCOPS_HA_MODE: 'ha',
} as const;

/**
 * The fields the environment sets, and what is wrong with them (as lines: the variables have no positions). The
 * values of DOCOPS_MANIFESTS and DOCOPS_JOURNAL_DIR are relative to the working directory (load.ts).
 */
export function envOverrides(env: Env): { values: Record<string, unknown>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const schema = configSchema() as { properties: Record<string, object> };
  for (const [name, field] of Object.entries(ENV_OVERRIDES)) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    let value: unknown = text;
    if (field === 'concurrency') value = /^\d+$/.test(text) ? Number(text) : text;
    // The one field of `ha` a deployment sets (the kit's HA variant): the rest of `ha` stays the file's.
    if (field === 'ha') value = { mode: text };
    if (field === 'allowEnv')
      value = text
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
    const where = { file: name, line: 1, column: 1 };
    const fieldSchema = schema.properties[field]!;
    // Validating registers a secret value first; the schema's mark also says how the variable may be shown.
    const found = validateWithSchema(value, fieldSchema, () => where, field, undefined, { env });
    const shownAs = quotable(secretMarkAt(fieldSchema, value, []), text);
    const shown = shownAs ? `=${String(shownAs.value)}` : '';
    for (const issue of found) problems.push(`${name}${shown}: ${issue.message}`);
    if (field === 'schedule') {
      const problem = cronProblem(text);
      if (problem) problems.push(`${name}: ${problem}`);
    }
    if (field === 'listen' && found.length === 0 && !parseListen(text))
      problems.push(`${name}=${text}: the port must be 0..65535`);
    values[field] = value;
  }
  return { values, problems };
}
