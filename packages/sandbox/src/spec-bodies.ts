/**
 * Request bodies are checked against the official spec's request schemas as well as the sandbox's own
 * validators (which carry management-api.md's limits and refuse unknown fields): a body must pass both, so the
 * stricter of the two rules wherever both speak (docs/dev/api-differences.md "What the official client meets").
 *
 * The spec's validators are generated at build time (tools/build/precompile-spec-bodies.ts) into a folder
 * beside the modules that load them (this package's dist/, and docops's dist/cli/, where the bundled CLI's chunks
 * are), so the installed package needs neither the spec (`@gitbook/api` is a dev dependency) nor ajv's compiler
 * at run time. Run from src/ (tests), they are compiled from the spec on first use.
 */
import { existsSync } from 'node:fs';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { badRequest } from './http.js';
import type { Validator } from './validate.js';
import { prepareSpecAjv, SPEC_AJV_OPTIONS, specBodyRef } from './spec-operations.js';

type AddFormats = Parameters<typeof prepareSpecAjv>[1];

/** An ajv validate function (standalone or compiled). */
interface ValidateFn {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
}

/** Where the build writes them: a folder beside this module (this package's dist/, or the bundle's dist/cli/). */
export const SPEC_BODIES_DIR = 'spec-bodies';
const SPEC_BODIES_INDEX = `./${SPEC_BODIES_DIR}/index.cjs`;

/**
 * Routes whose body is not checked against the spec, because management-api.md (normative) defines another
 * shape: translation settings take `{title}` where the spec's Translation takes `{source, language, …}`.
 */
export const SEED_SHAPED_BODIES: ReadonlySet<string> = new Set([
  'POST /v1/orgs/:organizationId/translations',
  'PUT /v1/orgs/:organizationId/translations/:translationId',
]);

/** Bodies management-api.md allows and the spec does not: skip the spec check for them. */
function seedOnly(key: string, body: unknown): boolean {
  // createSite: `spaces` may be the enum value that creates a new space (management-api.md), not only a list.
  return (
    key === 'POST /v1/orgs/:organizationId/sites' && typeof (body as { spaces?: unknown } | null)?.spaces === 'string'
  );
}

export type SpecBodies = (key: string) => ValidateFn | undefined;

/** The build's generated validators, else (run from src/) validators compiled from the spec, else none. */
export function loadSpecBodies(): SpecBodies {
  const require = createRequire(import.meta.url);
  if (existsSync(new URL(SPEC_BODIES_INDEX, import.meta.url))) {
    // Loaded with the first body checked (~15 ms), not when the sandbox starts.
    let generated: Record<string, ValidateFn> | undefined;
    return (key) => (generated ??= require(SPEC_BODIES_INDEX) as Record<string, ValidateFn>)[key];
  }
  // Run from src/ (tests): compile from the dev dependency on first use (ajv's compiler loads only here). A build
  // without the generated validators and without the dev dependency (a transpile-only build installed with
  // production dependencies) checks bodies with the sandbox's own validators only, rather than failing every write.
  try {
    require.resolve('@gitbook/api/spec/openapi.json');
  } catch {
    return () => undefined;
  }
  let compile: ((ref: string) => ValidateFn) | undefined;
  let spec: Record<string, unknown> | undefined;
  const cache = new Map<string, ValidateFn | undefined>();
  return (key) => {
    if (!cache.has(key)) {
      spec ??= require('@gitbook/api/spec/openapi.json') as Record<string, unknown>;
      const [method = '', pattern = ''] = key.split(' ');
      const ref = specBodyRef(spec, method, pattern);
      if (ref !== undefined && !compile) {
        const { Ajv2020 } = require('ajv/dist/2020.js') as typeof Ajv2020Module;
        const formats = require('ajv-formats') as AddFormats | { default: AddFormats };
        const ajv = prepareSpecAjv(
          new Ajv2020(SPEC_AJV_OPTIONS),
          typeof formats === 'function' ? formats : formats.default,
          spec,
        );
        compile = (r) => ajv.compile({ $ref: r }) as ValidateFn;
      }
      cache.set(key, ref === undefined || !compile ? undefined : compile(ref));
    }
    return cache.get(key);
  };
}

/** `hand` (the sandbox's validator) first, for its messages; then the spec's schema for the same body. */
export function withSpecCheck<B>(key: string, hand: Validator<B>, specBodies: SpecBodies): Validator<B> {
  if (SEED_SHAPED_BODIES.has(key)) return hand;
  return (value, path) => {
    const out = hand(value, path);
    const validate = seedOnly(key, value) ? undefined : specBodies(key);
    if (validate && !validate(value)) {
      const e = validate.errors?.[0];
      const where = `${path}${(e?.instancePath ?? '').replace(/\//g, '.')}`;
      const extra =
        e?.params && 'allowedValues' in e.params ? ` (${(e.params['allowedValues'] as unknown[]).join(', ')})` : '';
      throw badRequest(`${where}: ${e?.message ?? 'is not allowed'}${extra} (the official spec's request schema)`);
    }
    return out;
  };
}
