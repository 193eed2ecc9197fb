/**
 * GitHub Actions expressions (`if:` and `${{ … }}`), as far as docops's workflows use them: contexts read by dotted
 * names (`github.event.repository.default_branch`, `needs.plan.outputs.changes`), string literals, `true`/`false`/
 * `null`, numbers, `==` `!=` `&&` `||` `!`, parentheses and the status functions. Anything else throws, so a
 * workflow that needs more fails the test instead of being read wrongly. GitHub's rules kept: strings compare
 * without regard to case, a missing property is null, `&&`/`||` return an operand, falsy is false, 0, '' and null.
 */

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
export type Context = Record<string, unknown>;
export interface Status {
  /** Every earlier step (or needed job) succeeded. */
  success: boolean;
}

const STATUS_FUNCTIONS = ['success', 'failure', 'always', 'cancelled'] as const;

type Token = { t: 'op'; v: string } | { t: 'str'; v: string } | { t: 'num'; v: number } | { t: 'name'; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`unclosed string in ${text}`);
        if (text[i] === "'" && text[i + 1] === "'") {
          s += "'";
          i += 2;
        } else if (text[i] === "'") break;
        else s += text[i++];
      }
      i++;
      tokens.push({ t: 'str', v: s });
    } else if (['==', '!=', '&&', '||'].includes(text.slice(i, i + 2))) {
      tokens.push({ t: 'op', v: text.slice(i, i + 2) });
      i += 2;
    } else if ('!()'.includes(c)) {
      tokens.push({ t: 'op', v: c });
      i++;
    } else {
      const m = /^(?:\d+(?:\.\d+)?|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)/.exec(text.slice(i));
      if (!m) throw new Error(`the stand-in runner does not read ${JSON.stringify(text.slice(i))} in: ${text}`);
      tokens.push(/^\d/.test(m[0]) ? { t: 'num', v: Number(m[0]) } : { t: 'name', v: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

const truthy = (v: unknown): boolean => !(v === false || v === 0 || v === '' || v === null || v === undefined);

function equal(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  if (typeof x === 'string' && typeof y === 'string') return x.toLowerCase() === y.toLowerCase();
  return x === y;
}

function lookup(context: Context, name: string): unknown {
  let v: unknown = context;
  for (const part of name.split('.')) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[part];
  }
  return v === undefined ? null : v;
}

/** Evaluate one expression (the text of an `if:`, or inside `${{ }}`). */
export function evaluate(text: string, context: Context, status: Status): unknown {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isOp = (v: string): boolean => peek()?.t === 'op' && peek()!.v === v;
  const expect = (v: string): void => {
    if (!isOp(v)) throw new Error(`expected ${v} in: ${text}`);
    pos++;
  };
  const primary = (): unknown => {
    const tok = tokens[pos++];
    if (!tok) throw new Error(`unexpected end of: ${text}`);
    if (tok.t === 'str' || tok.t === 'num') return tok.v;
    if (tok.t === 'op' && tok.v === '(') {
      const v = or();
      expect(')');
      return v;
    }
    if (tok.t === 'op' && tok.v === '!') return !truthy(primary());
    if (tok.t === 'name') {
      if (tok.v === 'true') return true;
      if (tok.v === 'false') return false;
      if (tok.v === 'null') return null;
      if (isOp('(')) {
        pos++;
        expect(')');
        switch (tok.v as (typeof STATUS_FUNCTIONS)[number]) {
          case 'success':
            return status.success;
          case 'failure':
            return !status.success;
          case 'always':
            return true;
          case 'cancelled':
            return false;
          default:
            throw new Error(`the stand-in runner does not know the function ${tok.v}() in: ${text}`);
        }
      }
      return lookup(context, tok.v);
    }
    throw new Error(`unexpected ${tok.v} in: ${text}`);
  };
  const comparison = (): unknown => {
    const left = primary();
    if (isOp('==') || isOp('!=')) {
      const op = (tokens[pos++] as { v: string }).v;
      const right = primary();
      return op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  };
  const and = (): unknown => {
    let v = comparison();
    while (isOp('&&')) {
      pos++;
      const r = comparison();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const or = (): unknown => {
    let v = and();
    while (isOp('||')) {
      pos++;
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const value = or();
  if (pos !== tokens.length) throw new Error(`unexpected ${JSON.stringify(tokens[pos])} in: ${text}`);
  return value;
}

/** An `if:` (with or without `${{ }}`): without a status function it holds only after success, as on GitHub. */
export function condition(text: string | undefined, context: Context, status: Status): boolean {
  if (text === undefined) return status.success;
  const inner = text.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const usesStatus = STATUS_FUNCTIONS.some((f) => new RegExp(`\\b${f}\\s*\\(`).test(inner));
  return (usesStatus || status.success) && truthy(evaluate(inner, context, status));
}

/** A string with `${{ … }}` replaced by the values (null as ''). */
export function interpolate(text: string, context: Context, status: Status): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, inner: string) => {
    const v = evaluate(inner, context, status);
    return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}
