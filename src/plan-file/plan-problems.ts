/**
 * ajv's errors on a plan said as the plan's reader has always said them, each with its path in the plan
 * (`plan.steps[1].wave: expected an integer ≥ 0`): what is expected there is read from the schema itself, so a rule
 * added to schemas/plan.schema.json is reported without a line here. A rule over several members says it with
 * `x-message` (docs/dev/formats.md).
 */
import type { ErrorObject } from 'ajv';
import { planSchema, resolveRef, type SchemaNode } from '../model/format-schemas.js';
import { formatPath, pointerToPath } from '../manifests/paths.js';
import { isRecord } from '../model/json.js';

type Walked = Record<string, unknown> | undefined;
const isNode = (v: unknown): v is SchemaNode => isRecord(v);

/** The alternative of a conditional or a union that is of value's type (a request's `recover`: one or a list). */
function branchOf(root: SchemaNode, node: SchemaNode, value: unknown): SchemaNode {
  if (node.properties || node.items) return node;
  const branches = node.if ? [node.then, node.else] : (node.oneOf ?? node.anyOf ?? []);
  const type = Array.isArray(value) ? 'array' : isNode(value) ? 'object' : undefined;
  return branches.map((b) => b && resolveRef(root, b)).find((b) => b?.type === type) ?? node;
}

/** The schema nodes that describe each place along `pointer` in `value`, from the root's. */
function nodesAt(root: SchemaNode, pointer: string, value: unknown): SchemaNode[] {
  const out = [root];
  let node: SchemaNode | undefined = root;
  let here = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = branchOf(root, resolveRef(root, node), here);
    const extra = node.additionalProperties;
    node = Array.isArray(here) ? node.items : (node.properties?.[key] ?? (isNode(extra) ? extra : undefined));
    here = (here as Walked)?.[key];
    if (!node) break;
    out.push(resolveRef(root, node));
  }
  return out;
}

/**
 * The nodes an error's `schemaPath` walks through, up to the one holding the failed keyword. ajv gives the path from
 * the schema it called (the root, or the definition a `$ref` names), which is one of the nodes at the error's place
 * or above it: the deepest from which the whole path exists.
 */
function nodesAlong(root: SchemaNode, e: ErrorObject, value: unknown): SchemaNode[] {
  const segments = e.schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .slice(0, -1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const base of nodesAt(root, e.instancePath, value).reverse()) {
    const nodes = [base];
    for (const seg of segments) {
      const last = nodes[nodes.length - 1]!;
      const next: unknown = seg === '$ref' ? resolveRef(root, last) : (last as Walked)?.[seg];
      if (!isNode(next) && !Array.isArray(next)) break;
      nodes.push(next as SchemaNode);
    }
    if (nodes.length === segments.length + 1) return nodes.filter(isNode);
  }
  return [root];
}

const TYPE_WORDS: Record<string, string> = {
  array: 'an array',
  boolean: 'a boolean',
  integer: 'an integer',
  null: 'null',
  number: 'a number',
  object: 'an object',
  string: 'a string',
};

/** What a value valid under `node` is, in words: `an integer ≥ 1`, `one of create, update, delete`. */
function expected(root: SchemaNode, node: SchemaNode): string {
  const n = resolveRef(root, node);
  if (n.const !== undefined) return JSON.stringify(n.const);
  if (n.enum) return `one of ${n.enum.map(String).join(', ')}`;
  if (n.if && n.then && n.else) return `${expected(root, n.then)} or ${expected(root, n.else)}`;
  const types = Array.isArray(n.type) ? n.type : n.type !== undefined ? [n.type] : [];
  const words = types.map((t) => {
    if (t === 'string' && n.pattern !== undefined)
      return n.pattern === '^/' ? 'a string starting with /' : `a string matching ${n.pattern}`;
    if (t === 'integer' && n.minimum !== undefined) return `an integer ≥ ${n.minimum}`;
    return TYPE_WORDS[t] ?? t;
  });
  return words.length > 0 ? words.join(' or ') : 'a value';
}

/** Branches that only say which members must be there (`{required: [body]}`): their combination is one rule. */
const presenceOnly = (branches: SchemaNode[] | undefined): branches is SchemaNode[] =>
  branches !== undefined && branches.every((b) => Object.keys(b).length === 1 && b.required?.length === 1);

/**
 * The problem one error states, or undefined when another error says it better. `order` lists an object's own
 * problems before those inside its members: the members it should not have first, then the others in the schema's
 * order (what the reader checked first is said first), a list's items in their order.
 */
function problemOf(root: SchemaNode, e: ErrorObject, value: unknown): Problem | undefined {
  const text = statement(root, e, value);
  if (text === undefined) return undefined;
  const p = e.params as Record<string, unknown>;
  const segments = e.instancePath.split('/').slice(1);
  let object = e.instancePath;
  let member: string | undefined = (p['missingProperty'] as string | undefined) ?? undefined;
  if (e.keyword === 'additionalProperties')
    return { text, order: `${orderOf(object)}\u00000${String(p['additionalProperty'])}` };
  const last = segments.at(-1);
  if (member === undefined && last !== undefined && !Array.isArray(valueAtPointer(value, parentOf(object)))) {
    member = last.replace(/~1/g, '/').replace(/~0/g, '~');
    object = parentOf(object);
  }
  if (member === undefined) return { text, order: orderOf(object) };
  const node = branchOf(root, nodesAt(root, object, value).at(-1)!, valueAtPointer(value, object));
  const index = Object.keys(node.properties ?? {}).indexOf(member);
  return { text, order: `${orderOf(object)}\u00001${String(index < 0 ? 999 : index).padStart(3, '0')}${member}` };
}

const parentOf = (pointer: string): string => pointer.slice(0, pointer.lastIndexOf('/'));
/** A pointer that sorts as the places it names do: `/steps/2` before `/steps/10`, an object before its members. */
const orderOf = (pointer: string): string =>
  pointer.replace(/\/(\d+)(?=\/|$)/g, (_m, n: string) => `/${n.padStart(9, '0')}`).replace(/\//g, '\u0001');

function valueAtPointer(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer.split('/').slice(1)) node = (node as Walked)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

interface Problem {
  text: string;
  order: string;
}

function statement(root: SchemaNode, e: ErrorObject, value: unknown): string | undefined {
  const at = formatPath('plan', pointerToPath(e.instancePath, value));
  const nodes = nodesAlong(root, e, value);
  const holder = nodes[nodes.length - 1]!;
  const message = [...nodes].reverse().find((n) => n['x-message'] !== undefined)?.['x-message'];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
      return undefined; // the failing `then`/`else` errors say it
    case 'additionalProperties':
      return `${at}.${String(p['additionalProperty'])}: unknown field`;
    case 'required': {
      const field = String(p['missingProperty']);
      if (message !== undefined) return `${at}.${field}: ${message}`;
      const owner = [...nodes].reverse().find((n) => n.properties?.[field] !== undefined);
      return `${at}.${field}: expected ${owner ? expected(root, owner.properties![field]!) : 'a value'} (missing)`;
    }
    case 'oneOf':
    case 'anyOf': {
      const branches = holder[e.keyword];
      if (!presenceOnly(branches)) return `${at}: expected ${expected(root, holder)}`;
      const names = branches.map((b) => b.required![0]).join(' and ');
      return `${at}: expected ${e.keyword === 'oneOf' ? 'exactly' : 'at least'} one of ${names}`;
    }
    case 'minItems': {
      const n = Number(p['limit']);
      return `${at}: expected at least ${n === 1 ? 'one item' : `${n} items`}`;
    }
    case 'const':
      if (e.instancePath === '/formatVersion')
        return `${at}: unsupported plan format ${JSON.stringify(valueAtPointer(value, e.instancePath))} (expected 1)`;
      return `${at}: expected ${message ?? expected(root, holder)}`;
    default:
      return `${at}: ${message ?? `expected ${expected(root, holder)}`}`;
  }
}

/** The errors of a rule of presence-only branches are said once, by the rule (`expected exactly one of …`). */
function insidePresenceRules(
  root: SchemaNode,
  errors: readonly ErrorObject[],
  value: unknown,
): (e: ErrorObject) => boolean {
  const rules = errors
    .filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')
    .filter((e) => {
      const holder = nodesAlong(root, e, value).at(-1)!;
      return presenceOnly(holder[e.keyword as 'oneOf' | 'anyOf']);
    });
  return (e) =>
    rules.some((r) => e !== r && e.instancePath === r.instancePath && e.schemaPath.startsWith(`${r.schemaPath}/`));
}

/** Every problem ajv found, once each, in the order of their places in the plan. */
export function schemaProblems(errors: readonly ErrorObject[], value: unknown): string[] {
  const root = planSchema();
  const inside = insidePresenceRules(root, errors, value);
  const problems = errors
    .filter((e) => !inside(e))
    .map((e) => problemOf(root, e, value))
    .filter((x): x is Problem => x !== undefined)
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return [...new Set(problems.map((x) => x.text))];
}
