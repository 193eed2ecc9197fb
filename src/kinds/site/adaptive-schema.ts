/**
 * The adaptive schema in the official spec's form (SiteAdaptiveJSONSchema): every claim carries a `description`
 * and `unsigned` carries the fixed `UNSIGNED_DESCRIPTION`. A manifest may leave both out (management-api.md does
 * not mention them): docops fills them in — the claim's name for a claim, the fixed text for `unsigned` — before it
 * compares or sends the schema, so the PUT body is always valid for the spec and a live schema holding the filled
 * texts compares equal to the manifest that left them out (no perpetual drift). A live schema stored without
 * descriptions (the older form) differs once: one PUT brings it to the official form. Export writes the texts
 * only where they are not the filled ones, so an exported manifest reads as a hand-written one.
 */
import { isRecord } from '../common.js';

/** The official spec's constant description of the `unsigned` claims object. */
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

type Claims = Record<string, unknown>;

/** Each claim with its description (the written one, else the claim name); other values untouched. */
function mapClaims(
  props: unknown,
  claim: (name: string, c: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (!isRecord(props)) return props;
  const out: Claims = {};
  for (const [name, c] of Object.entries(props)) out[name] = isRecord(c) ? claim(name, c) : c;
  return out;
}

const described = (name: string, c: Record<string, unknown>): Record<string, unknown> =>
  typeof c['description'] === 'string' ? c : { ...c, description: name };

/** The schema a manifest writes, with the descriptions the spec requires filled in where it leaves them out. */
export function officialAdaptiveSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const props = schema['properties'];
  if (!isRecord(props)) return schema;
  const out: Claims = {};
  for (const [name, c] of Object.entries(props)) {
    if (name !== 'unsigned' || !isRecord(c)) out[name] = isRecord(c) ? described(name, c) : c;
    else
      out[name] = {
        ...c,
        description: typeof c['description'] === 'string' ? c['description'] : UNSIGNED_DESCRIPTION,
        properties: mapClaims(c['properties'], described),
      };
  }
  return { ...schema, properties: out };
}

const undescribed = (name: string, c: Record<string, unknown>): Record<string, unknown> => {
  if (c['description'] !== name) return c;
  const { description: _filled, ...rest } = c;
  return rest;
};

/** A live schema as a manifest writes it: the descriptions docops would fill in left out. */
export function manifestAdaptiveSchema(schema: unknown): unknown {
  if (!isRecord(schema) || !isRecord(schema['properties'])) return schema;
  const out: Claims = {};
  for (const [name, c] of Object.entries(schema['properties'])) {
    if (name !== 'unsigned' || !isRecord(c)) out[name] = isRecord(c) ? undescribed(name, c) : c;
    else {
      const { description, ...rest } = c;
      out[name] = {
        ...(description === UNSIGNED_DESCRIPTION ? rest : c),
        properties: mapClaims(c['properties'], undescribed),
      };
    }
  }
  return { ...schema, properties: out };
}
