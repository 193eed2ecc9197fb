/**
 * The adaptive-content visitor schema of a site: GET / PUT (full replace) and the template conditions
 * derived from it. Accepted shape: the official spec's SiteAdaptiveJSONSchema restricted to what
 * management-api.md lists (boolean claims): a draft-07 object schema whose properties are boolean claims, each
 * with a `description`, plus an optional `unsigned` object of boolean claims carrying the spec's fixed
 * `description` (UNSIGNED_DESCRIPTION); `additionalProperties` false at both levels. The form without
 * descriptions (management-api.md is silent about them; the spec requires them) is refused like the platform
 * refuses it, so a client that drops them fails here too; a schema stored in that form earlier (a state file) is
 * still answered as stored. The schema is answered exactly as it was PUT. Anything else ⇒ 400 naming the
 * offending path (docs/dev/api-differences.md §5.3).
 */
import type { RequestContext } from '../context.js';
import { badRequest, ok } from '../http.js';
import type { SiteRec } from '../site-records.js';
import { sites } from '../site-records.js';
import { isPlainObject, literal, object, string, type Validator } from '../validate.js';
import { SITE, requireSite } from './site-common.js';
import { route, type RouteTable } from './table.js';

const ADAPTIVE = `${SITE}/adaptive-schema`;
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const onlyFalse: Validator<false> = (v, path) => {
  if (v !== false) throw badRequest(`${path}: must be false (got ${JSON.stringify(v)})`);
  return false;
};

const claim = object({ type: literal('boolean'), description: string() }, ['type', 'description']);
type Claim = ReturnType<typeof claim>;

/** A map of claim name → boolean claim; `unsigned` (top level only) is the nested object of unsigned claims. */
function claims(allowUnsigned: boolean): Validator<Record<string, unknown>> {
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object of claims`);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      if (key === '') throw badRequest(`${path}: a claim name must not be empty`);
      out[key] =
        allowUnsigned && key === 'unsigned' ? unsigned(value, `${path}.unsigned`) : claim(value, `${path}.${key}`);
    }
    return out;
  };
}

/** The official spec's constant description of the `unsigned` claims object. */
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

const unsigned = object(
  {
    type: literal('object'),
    description: literal(UNSIGNED_DESCRIPTION),
    properties: claims(false),
    additionalProperties: onlyFalse,
  },
  ['type', 'description', 'properties', 'additionalProperties'],
);

export const adaptiveJsonSchema = object(
  { $schema: literal(DRAFT_07), type: literal('object'), properties: claims(true), additionalProperties: onlyFalse },
  ['type', 'properties', 'additionalProperties'],
);
const putBody = object({ jsonSchema: adaptiveJsonSchema }, ['jsonSchema']);

function presentSchema(site: SiteRec): Record<string, unknown> {
  return {
    object: 'site-adaptive-schema',
    jsonSchema: structuredClone(site.adaptiveSchema),
    updatedAt: site.adaptiveSchemaUpdatedAt,
  };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const access = (base: string, name: string): string =>
  IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;

/** One condition per boolean claim, signed claims first, in schema order (a claim stored without a description gets one). */
export function templateConditions(site: SiteRec): { description: string; condition: string }[] {
  const props = (site.adaptiveSchema['properties'] ?? {}) as Record<string, unknown>;
  const items: { description: string; condition: string }[] = [];
  const add = (base: string, name: string, c: Claim): void => {
    items.push({
      description: c.description ?? `Visitor claim "${name}" is true`,
      condition: `${access(base, name)} === true`,
    });
  };
  for (const [name, value] of Object.entries(props))
    if (name !== 'unsigned') add('visitor.claims', name, value as Claim);
  const nested = props['unsigned'] as { properties?: Record<string, Claim> } | undefined;
  for (const [name, value] of Object.entries(nested?.properties ?? {})) add('visitor.claims.unsigned', name, value);
  return items;
}

export const siteAdaptiveRoutes: RouteTable = {
  getSiteAdaptiveSchema: route({
    method: 'GET',
    pattern: ADAPTIVE,
    handler: (ctx) => ok(presentSchema(requireSite(ctx))),
  }),
  updateSiteAdaptiveSchema: route({
    method: 'PUT',
    pattern: ADAPTIVE,
    body: putBody,
    handler: (ctx: RequestContext, b) => {
      const site = requireSite(ctx);
      site.adaptiveSchema = structuredClone(b.jsonSchema) as Record<string, unknown>;
      site.adaptiveSchemaUpdatedAt = ctx.now().toISOString();
      sites(ctx.store).put(site);
      return ok(presentSchema(site));
    },
  }),
  listSiteAdaptiveTemplateConditions: route({
    method: 'GET',
    pattern: `${ADAPTIVE}/template-conditions`,
    handler: (ctx) => ok({ items: templateConditions(requireSite(ctx)) }),
  }),
};
