/**
 * The adaptive schema in the official spec's form (SiteAdaptiveJSONSchema): every claim carries a `description`
 * and `unsigned` carries the fixed `UNSIGNED_DESCRIPTION`. A manifest may leave both out (management-api.md does
 * not mention them): docops fills them in — the claim's name for a claim, the fixed text for `unsigned` — before it
 * compares or sends the schema, so the PUT body is always valid for the spec and a live schema holding the filled
 * texts compares equal to the manifest that left them out (no perpetual drift). A live schema stored without
 * descriptions (the older form) differs once: one PUT brings it to the official form. Export writes the texts
 * only where they are not the filled ones, so an exported manifest reads as a hand-written one.
 */
import type { RequestSpec } from '../../model/plan.js';
import { isRecord, sameValue } from '../common.js';

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

const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** What `wanted` changes of `have`, member by member where both are objects; `remove` gets the members it drops. */
function changesOf(have: Claims, wanted: Claims, pointer: string, remove: string[]): Claims {
  const out: Claims = {};
  for (const [k, v] of Object.entries(wanted)) {
    const was = have[k];
    if (sameValue(v, was)) continue;
    out[k] = isRecord(v) && isRecord(was) ? changesOf(was, v, `${pointer}/${escapePointer(k)}`, remove) : v;
  }
  for (const k of Object.keys(have)) if (!(k in wanted)) remove.push(`${pointer}/${escapePointer(k)}`);
  return out;
}

/**
 * The PUT of a changed schema (the API takes it only whole): the plan holds what changes, member by member, and
 * apply lays it over the schema it reads right before sending (MergeSpec), so a claim another actor added since
 * the plan stays; the members the manifest drops are removed from what is read. A schema not read (a new site's)
 * is sent as written.
 */
export function adaptiveSchemaRequest(path: string, have: unknown, wanted: Claims): RequestSpec {
  if (!isRecord(have))
    return { method: 'PUT', path, body: { jsonSchema: wanted }, merge: { pick: [], whole: ['/jsonSchema'] } };
  const remove: string[] = [];
  const jsonSchema = changesOf(have, wanted, '/jsonSchema', remove);
  return {
    method: 'PUT',
    path,
    body: { jsonSchema },
    merge: { pick: [], ...(remove.length > 0 ? { remove } : {}) },
  };
}
