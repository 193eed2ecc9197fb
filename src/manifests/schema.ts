/**
 * JSON Schema validation with ajv, reporting every error with a source position. Compiled validators are
 * cached per schema object, so each kind's schema is compiled once per process.
 */
import { Ajv, type ValidateFunction } from 'ajv';
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

/** One ajv per JSON Schema dialect; the dialect is chosen by the schema's `$schema`. */
function ajvFor(schema: object): AnyAjv {
  const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
  const which = dialect.includes('2020-12') ? '2020' : dialect.includes('2019-09') ? '2019' : '7';
  let ajv = instances.get(which);
  if (!ajv) {
    // strict off: schemas carry editor-only keywords (markdownDescription, …). addUsedSchema off: several
    // schema objects may share an $id (e.g. in tests) without clashing in ajv's registry.
    // validateSchema and code.optimize off: every plan compiles the kind schemas cold, and checking them
    // against the meta-schema (which ajv compiles first) plus the codegen optimisation pass were ~60 of
    // ~140 ms. The schemas are ours and fixed; test/manifests/schema-meta.test.ts checks them instead.
    const opts = { allErrors: true, strict: false, addUsedSchema: false, validateSchema: false, code: { optimize: false } };
    ajv = which === '2020' ? new Ajv2020(opts) : which === '2019' ? new Ajv2019(opts) : new Ajv(opts);
    addFormats(ajv as Ajv);
    instances.set(which, ajv);
  }
  return ajv;
}

const compiled = new WeakMap<object, ValidateFunction>();

export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
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
