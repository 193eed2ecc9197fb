/**
 * JSON Schema validation with ajv, reporting every error with a source position. Compiled validators are
 * cached per schema object, so each kind's schema is compiled once per process.
 */
import { createRequire } from 'node:module';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { SourcePos, ValidationIssue } from '../core/errors.js';
import { describeError, selectErrors, withPath } from './ajv-messages.js';
import type { DocPath } from './paths.js';

// ajv-formats is CommonJS with `exports.default`; depending on the loader the default import is either.
type AddFormats = (ajv: Ajv) => Ajv;
const formatsModule = addFormatsImport as unknown as AddFormats | { default: AddFormats };
const addFormats: AddFormats = typeof formatsModule === 'function' ? formatsModule : formatsModule.default;

type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const instances = new Map<string, AnyAjv>();

/**
 * A new ajv for a schema's dialect (chosen by its `$schema`), with the options docops validates with.
 * `code` is merged into them: the build passes `{ source: true }` to generate standalone validators.
 */
export function createAjv(schema: object, code: Options['code'] = {}): AnyAjv {
  // strict off: schemas carry editor-only keywords (markdownDescription, …). addUsedSchema off: several
  // schema objects may share an $id (e.g. in tests) without clashing in ajv's registry.
  // validateSchema and code.optimize off: when a plan compiles the kind schemas cold, checking them
  // against the meta-schema (which ajv compiles first) plus the codegen optimisation pass were ~60 of
  // ~140 ms. The schemas are ours and fixed; test/manifests/schema-meta.test.ts checks them instead.
  const opts: Options = { allErrors: true, strict: false, addUsedSchema: false, validateSchema: false, code: { optimize: false, ...code } };
  const which = dialectOf(schema);
  const ajv = which === '2020' ? new Ajv2020(opts) : which === '2019' ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv as Ajv);
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

/** Where the build writes the kind schemas' standalone validators (see src/build/precompile-validators.ts). */
export const PRECOMPILED_INDEX = './validators/index.cjs';

/** Validators generated at build time, by the exact JSON text of the schema they were generated from. */
export type Precompiled = ReadonlyMap<string, ValidateFunction>;

let precompiled: Precompiled | undefined;

/**
 * The build's standalone validators, or none when they were not generated (tests run from src/). Compiling
 * the kind schemas at run time was ~80–100 ms of every cold plan.
 */
function loadPrecompiled(): Precompiled {
  if (!precompiled) {
    try {
      const entries = createRequire(import.meta.url)(PRECOMPILED_INDEX) as [string, ValidateFunction][];
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
    validate = (available.size > 0 ? available.get(JSON.stringify(schema)) : undefined) ?? ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

export type Locate = (path: DocPath) => SourcePos;

/**
 * Validate `value` against `schema`. `locate` maps a path relative to `value` to a position; `prefix` is how
 * `value` is named in messages (`spec`, or '' for a whole file). `locateKey`, when given, is used for
 * problems about a key (unknown fields).
 */
export function validateWithSchema(value: unknown, schema: object, locate: Locate, prefix: string, locateKey: Locate = locate): ValidationIssue[] {
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return selectErrors(validate.errors ?? []).map((e) => {
    const problem = describeError(e, value);
    const pos = problem.atKey ? locateKey(problem.at) : locate(problem.at);
    const pointer = toPointer(prefix === '' ? problem.path : [prefix, ...problem.path]);
    return { ...pos, message: withPath(prefix, problem.path, problem.message), path: pointer };
  });
}

function toPointer(path: DocPath): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
