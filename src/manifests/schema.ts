/**
 * JSON Schema validation with ajv, reporting every error with a source position. Compiled validators are
 * cached per schema object, so each schema is compiled once per process.
 *
 * Every schema docops ships has a validator generated at build time (tools/build/precompile-validators.ts), so a
 * normal run loads neither ajv's compiler nor any meta-schema: ajv, ajv-formats and the one dialect a schema
 * declares are loaded here only when a schema without a generated validator is compiled (tests run from
 * src/, a changed schema, a build without the step).
 */
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type * as Ajv2019Module from 'ajv/dist/2019.js';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { SourcePos, ValidationIssue } from '../model/errors.js';
import { describeError, selectErrors, withPath } from './ajv-messages.js';
import { valueAt, type DocPath } from './paths.js';
import { schemaText } from './schema-text.js';
import { markAt, markedValues, registerMarkedValues, registerRefused, type RegisterOptions } from './secret-fields.js';

// ajv and ajv-formats are CommonJS: loaded synchronously, on first run-time compile.
const load = createRequire(import.meta.url);

type AddFormats = (ajv: Ajv) => Ajv;

type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const instances = new Map<string, AnyAjv>();

/**
 * A new ajv for a schema's dialect (chosen by its `$schema`), with the options docops validates with.
 * `code` is merged into them: the build passes `{ source: true }` to generate standalone validators;
 * `options` too (the build's `inlineRefs: false` for a schema with shared subschemas, tools/build/shared-subschemas.ts).
 */
export function createAjv(schema: object, code: Options['code'] = {}, options: Options = {}): AnyAjv {
  // strict off: schemas carry editor-only keywords (markdownDescription, …). addUsedSchema off: several
  // schema objects may share an $id (e.g. in tests) without clashing in ajv's registry.
  // validateSchema and code.optimize off: when a plan compiles the kind schemas cold, checking them
  // against the meta-schema (which ajv compiles first) plus the codegen optimisation pass were ~60 of
  // ~140 ms. The schemas are ours and fixed; test/manifests/schema-meta.test.ts checks them instead.
  const opts: Options = {
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    validateSchema: false,
    ...options,
    code: { optimize: false, ...code },
  };
  const which = dialectOf(schema);
  // Only the declared dialect is loaded: each of ajv's dialect modules brings its own meta-schemas.
  const ajv =
    which === '2020'
      ? new (load('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020(opts)
      : which === '2019'
        ? new (load('ajv/dist/2019.js') as typeof Ajv2019Module).Ajv2019(opts)
        : new (load('ajv') as typeof AjvModule).Ajv(opts);
  (load('ajv-formats') as AddFormats)(ajv as Ajv);
  return ajv;
}

function dialectOf(schema: object): string {
  const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
  return dialect.includes('2020-12') ? '2020' : dialect.includes('2019-09') ? '2019' : '7';
}

/** One ajv per JSON Schema dialect. */
function ajvFor(schema: object): AnyAjv {
  const which = dialectOf(schema);
  let ajv = instances.get(which);
  if (!ajv) instances.set(which, (ajv = createAjv(schema)));
  return ajv;
}

/** Where the build writes the kind schemas' standalone validators (see tools/build/precompile-validators.ts). */
// Relative to dist/manifests/ (this module) and to dist/cli/ (the bundled CLI's chunks) alike.
export const PRECOMPILED_INDEX = '../manifests/validators/index.cjs';

/** Validators generated at build time (each loaded when first asked for), by the exact JSON text of their schema. */
export type Precompiled = ReadonlyMap<string, () => ValidateFunction>;

let precompiled: Precompiled | undefined;

/**
 * The build's standalone validators, or none when they were not generated (tests run from src/). Compiling
 * the kind schemas at run time was ~80–100 ms of every cold plan.
 */
function loadPrecompiled(): Precompiled {
  if (!precompiled) {
    try {
      const entries = createRequire(import.meta.url)(PRECOMPILED_INDEX) as [string, () => ValidateFunction][];
      precompiled = new Map(entries);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
      precompiled = new Map();
    }
  }
  return precompiled;
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The validator of `schema`: a build-time one when one was generated from exactly this schema (same JSON
 * text), else compiled by ajv. `available` is for tests.
 */
export function compileSchema(schema: object, available: Precompiled = loadPrecompiled()): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate =
      (available.size > 0 ? available.get(schemaText(schema))?.() : undefined) ?? ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

export type Locate = (path: DocPath) => SourcePos;

/**
 * Validate `value` against `schema`. `locate` maps a path relative to `value` to a position; `prefix` is how
 * `value` is named in messages (`spec`, or '' for a whole file). `locateKey`, when given, is used for
 * problems about a key (unknown fields).
 *
 * First, every value the schema marks `x-secret` is registered as a secret (secret-fields.ts): it is a secret
 * before it is known to be valid, so no message — these, a later check's, an API's echo — shows it; and these
 * messages never quote one, whatever it looks like. A marked value refused for its shape is registered whole too
 * (a token written where a variable's name belongs: secret-fields.ts, registerRefused).
 */
export function validateWithSchema(
  value: unknown,
  schema: object,
  locate: Locate,
  prefix: string,
  locateKey: Locate = locate,
  secrets: RegisterOptions = {},
): ValidationIssue[] {
  const marked = markedValues(schema, value);
  registerMarkedValues(marked, secrets);
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return selectErrors(validate.errors ?? []).map((e) => {
    const problem = describeError(e, value, (path) => markAt(marked, path));
    registerRefused(marked, problem.path, valueAt(value, problem.path));
    const pos = problem.atKey ? locateKey(problem.at) : locate(problem.at);
    const pointer = toPointer(prefix === '' ? problem.path : [prefix, ...problem.path]);
    return { ...pos, message: withPath(prefix, problem.path, problem.message), path: pointer };
  });
}

function toPointer(path: DocPath): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
