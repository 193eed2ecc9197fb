/**
 * The expression language of rules: CEL (cel.dev) through @marcbachmann/cel-js, loaded only when a policy is
 * configured. CEL has no loops, no recursion and no side effects; what a rule can cost is bounded here three ways:
 *  - at load: the library's structural limits (AST nodes, nesting depth, literal sizes) and at most
 *    MAX_COMPREHENSION_DEPTH nested comprehensions (`all`, `exists`, `map`, `filter` …), so one rule costs at most
 *    (changes in the plan)^2 steps of its body;
 *  - at evaluation: the whole policy runs under a deadline linear in its work (DEADLINE_BASE_MS plus
 *    DEADLINE_PER_EVALUATION_MS per rule and change; node:vm's timeout interrupts any JavaScript, a backtracking
 *    `matches()` included); a policy that runs out of time refuses the plan, never passes it.
 */
import { runInContext, createContext, type Context as VmContext } from 'node:vm';
import type { Environment, ParseResult } from '@marcbachmann/cel-js';

export const LIMITS = {
  maxAstNodes: 2000,
  maxDepth: 48,
  maxListElements: 500,
  maxMapEntries: 200,
  maxCallArguments: 16,
} as const;
export const MAX_COMPREHENSION_DEPTH = 2;
/** The deadline: a base, plus an allowance per (rule, change) pair, ~10× what one takes (6 µs measured on 2 cores). */
export const DEADLINE_BASE_MS = 2000;
export const DEADLINE_PER_EVALUATION_MS = 0.06;
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'transformList', 'transformMap']);

/** The fields of `change` (one step of the plan) and `plan`, as CEL sees them (view.ts builds the values). */
export const CHANGE_FIELDS = {
  id: 'string',
  action: 'string',
  phase: 'string',
  kind: 'string',
  org: 'string',
  key: 'string',
  before: 'map<string, dyn>',
  after: 'map<string, dyn>',
  fields: 'list<string>',
  file: 'string',
  line: 'int',
  note: 'string',
  cascades: 'list<map<string, string>>',
  origin: 'string',
  actor: 'string',
} as const;
export const PLAN_FIELDS = { changes: 'list<Change>', counts: 'map<string, map<string, int>>' } as const;

export interface CompiledRule {
  evaluate(vars: { change: unknown; plan: unknown }): unknown;
}

export type CompileResult = { ok: true; rule: CompiledRule } | { ok: false; message: string; offset: number };

export interface Cel {
  compile(expression: string): CompileResult;
}

let loaded: Promise<Cel> | undefined;

/** The CEL environment, loaded on first use. */
export function loadCel(): Promise<Cel> {
  return (loaded ??= import('@marcbachmann/cel-js').then((lib) =>
    makeCel(new lib.Environment({ enableOptionalTypes: true, limits: LIMITS })),
  ));
}

function makeCel(base: Environment): Cel {
  const env = base
    .registerType('Change', { fields: CHANGE_FIELDS })
    .registerType('Plan', { fields: PLAN_FIELDS })
    .registerVariable('change', 'Change')
    .registerVariable('plan', 'Plan');
  return {
    compile(expression) {
      let parsed: ParseResult;
      try {
        parsed = env.parse(expression);
      } catch (err) {
        return failure(err);
      }
      const checked = parsed.check();
      if (!checked.valid) return failure(checked.error);
      if (checked.type !== 'bool' && checked.type !== 'dyn')
        return { ok: false, message: `the expression must be true or false, but it is a ${checked.type}`, offset: 0 };
      // The library types its AST as an opaque node: isAst checks each node before it is read.
      const ast: unknown = parsed.ast;
      const deep = isAst(ast) ? comprehensionTooDeep(ast, 0) : undefined;
      if (deep)
        return {
          ok: false,
          message: `comprehensions (${[...COMPREHENSIONS].slice(0, 5).join(', ')} …) nest at most ${MAX_COMPREHENSION_DEPTH} deep`,
          offset: deep.pos,
        };
      return { ok: true, rule: { evaluate: (vars) => parsed(vars) } };
    },
  };
}

/** A CEL error's first line (the rest is a code frame of the expression) and where in the expression it points. */
function failure(err: unknown): { ok: false; message: string; offset: number } {
  const e = err as { message?: string; node?: { pos?: number }; range?: { start?: number } } | undefined;
  const message = String(e?.message ?? err)
    .split('\n')[0]!
    .trim();
  return { ok: false, message, offset: e?.node?.pos ?? e?.range?.start ?? 0 };
}

interface AstLike {
  op: string;
  pos: number;
  args: unknown;
}

const isAst = (v: unknown): v is AstLike =>
  typeof v === 'object' && v !== null && typeof (v as AstLike).op === 'string' && 'args' in v;

function comprehensionTooDeep(node: AstLike, depth: number): AstLike | undefined {
  const args = Array.isArray(node.args) ? node.args : [node.args];
  const here = node.op === 'rcall' && COMPREHENSIONS.has(String(args[0])) ? depth + 1 : depth;
  if (here > MAX_COMPREHENSION_DEPTH) return node;
  const stack: unknown[] = [...args];
  while (stack.length > 0) {
    const v = stack.pop();
    if (isAst(v)) {
      const found = comprehensionTooDeep(v, here);
      if (found) return found;
    } else if (Array.isArray(v)) stack.push(...(v as unknown[]));
  }
  return undefined;
}

/** Thrown when evaluation ran out of its deadline. */
export class DeadlineExceeded extends Error {}

const sandbox: VmContext = createContext({ run: () => undefined });

/**
 * Run `work` (synchronous) with at most `ms` of wall time. node:vm's watchdog interrupts whatever JavaScript runs
 * by then, a regular expression backtracking inside a CEL function included.
 */
export function withDeadline<T>(ms: number, work: () => T): T {
  let result: T | undefined;
  (sandbox as { run: () => void }).run = () => {
    result = work();
  };
  try {
    runInContext('run()', sandbox, { timeout: ms, displayErrors: false });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new DeadlineExceeded(`policy evaluation took longer than ${ms} ms`);
    throw err;
  } finally {
    (sandbox as { run: () => void }).run = () => undefined;
  }
  return result as T;
}
