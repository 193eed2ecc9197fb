/**
 * The OAuth scopes of the management API's operations, as the official spec names them (`security` per
 * operation in @gitbook/api's spec/openapi.json), and matching a request (method + concrete path) to its
 * operation (method + path template).
 *
 * The spec is a dev dependency (1.7 MB): `npm run build` extracts the table into dist/api/operation-scopes.json
 * (tools/build/extract-scopes.ts), which ships in the package. Run from src/ (tests) without a build, the table is
 * extracted from the spec on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One operation: method, path template below /v1 and its OAuth scopes (empty: the spec names none). */
export interface OperationScopes {
  method: string;
  path: string;
  scopes: string[];
}

/** Where the build writes the table: two levels below the package root from src/, dist/ and dist/cli's chunks alike. */
export const GENERATED_TABLE = fileURLToPath(new URL('../../dist/api/operation-scopes.json', import.meta.url));

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface SpecShape {
  paths?: Record<string, Record<string, { security?: Record<string, string[]>[] } | undefined>>;
}

/** The table out of the spec: every operation with its `oauth` scopes (operations without own `security` have none). */
export function extractScopes(spec: SpecShape): OperationScopes[] {
  const out: OperationScopes[] = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const scopes = new Set<string>();
      for (const requirement of op.security ?? []) for (const s of requirement.oauth ?? []) scopes.add(s);
      out.push({ method: method.toUpperCase(), path, scopes: [...scopes].sort() });
    }
  }
  return out.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}

let table: OperationScopes[] | undefined;

export function operationScopes(): OperationScopes[] {
  if (table) return table;
  if (existsSync(GENERATED_TABLE)) {
    table = JSON.parse(readFileSync(GENERATED_TABLE, 'utf8')) as OperationScopes[];
    return table;
  }
  // Not built (tests run from src/): the dev dependency is there. A packaged docops always has the generated file.
  const specFile = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  table = extractScopes(JSON.parse(readFileSync(specFile, 'utf8')) as SpecShape);
  return table;
}

interface Template {
  op: OperationScopes;
  segments: string[];
  literals: number;
}

let templates: Map<string, Template[]> | undefined;
/** Per method and segment count, the literal segments any template has at each position. */
let literalsAt: Map<string, Set<string>[]> | undefined;
/** Answers by shape (see `shapeOf`): a large plan sends thousands of requests of a few shapes. */
const byShape = new Map<string, OperationScopes | undefined>();

const isParam = (segment: string): boolean => segment.startsWith('{') && segment.endsWith('}');

function templatesByMethod(): Map<string, Template[]> {
  if (templates) return templates;
  templates = new Map();
  literalsAt = new Map();
  for (const op of operationScopes()) {
    const segments = op.path.split('/').slice(1);
    const list = templates.get(op.method) ?? [];
    list.push({ op, segments, literals: segments.filter((s) => !isParam(s)).length });
    templates.set(op.method, list);
    const key = `${op.method} ${segments.length}`;
    const at = literalsAt.get(key) ?? Array.from({ length: segments.length }, () => new Set<string>());
    segments.forEach((s, i) => void (isParam(s) ? undefined : at[i]!.add(s)));
    literalsAt.set(key, at);
  }
  // The most specific template wins (`/orgs/{id}/members/sso` before `/orgs/{id}/members/{userId}`).
  for (const list of templates.values()) list.sort((a, b) => b.literals - a.literals);
  return templates;
}

/**
 * The request with every segment no template has as a literal at its position replaced by `*`: requests of one
 * shape match the same template (matching compares literal positions only), so the answer is computed once.
 */
function shapeOf(method: string, decoded: readonly string[]): string {
  const at = literalsAt?.get(`${method} ${decoded.length}`);
  return `${method} ${decoded.map((s, i) => (at?.[i]?.has(s) ? s : '*')).join('/')}`;
}

/** A segment as a literal would read (a malformed escape stays as sent: it equals no literal). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The spec operation a request is sent to: same method, same number of segments, literal segments equal. */
export function matchOperation(method: string, path: string): OperationScopes | undefined {
  const bare = path.split('?')[0]!.replace(/^\/v1(?=\/)/, '');
  const upper = method.toUpperCase();
  const all = templatesByMethod().get(upper) ?? [];
  const decoded = bare.split('/').slice(1).map(decodeSegment);
  const shape = shapeOf(upper, decoded);
  if (byShape.has(shape)) return byShape.get(shape);
  let found: OperationScopes | undefined;
  for (const t of all) {
    if (t.segments.length !== decoded.length) continue;
    if (t.segments.every((s, i) => isParam(s) || s === decoded[i])) {
      found = t.op;
      break;
    }
  }
  byShape.set(shape, found);
  return found;
}
