/**
 * The config schema, self-contained: schemas/config.schema.json refers to `safety.schema.json` (written
 * separately); the referenced schema is embedded under its resolved $id so the one compiled validator can
 * resolve the $ref without a shared schema registry. Until schemas/safety.schema.json exists, any object is
 * accepted there.
 */
import { existsSync, readFileSync } from 'node:fs';

const SAFETY_REF = 'safety.schema.json';

let cached: object | undefined;

export function configSchema(): object {
  if (cached) return cached;
  const root = readJson(new URL('../../schemas/config.schema.json', import.meta.url)) as {
    $id: string;
    definitions?: Record<string, unknown>;
  };
  const safetyUrl = new URL(`../../schemas/${SAFETY_REF}`, import.meta.url);
  const safety = existsSync(safetyUrl) ? (readJson(safetyUrl) as Record<string, unknown>) : { type: 'object' };
  // An embedded schema with its own $id is a separate resource: its internal `#/...` refs stay its own.
  const { $schema: _dialect, ...embedded } = safety;
  void _dialect;
  cached = {
    ...root,
    definitions: { ...root.definitions, safetySchema: { ...embedded, $id: new URL(SAFETY_REF, root.$id).href } },
  };
  return cached;
}

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8'));
}
