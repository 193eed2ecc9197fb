/** ${VAR} interpolation on single strings, and what manifests may read. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  allowedVariables,
  everyVariable,
  interpolateString,
  parseAllowList,
  type VarSource,
} from '../../src/manifests/index.js';
import { clearSecretsForTests, registerSecret } from '../../src/secrets.js';

const value = (input: string, env: Record<string, string | undefined> = {}, vars: VarSource = everyVariable(env)) => {
  const r = interpolateString(input, vars);
  if ('errors' in r) throw new Error(r.errors.join('; '));
  return r.value;
};
const errors = (input: string, env: Record<string, string | undefined> = {}, vars: VarSource = everyVariable(env)) => {
  const r = interpolateString(input, vars);
  return 'errors' in r ? r.errors : [];
};

describe('interpolateString', () => {
  test('substitutes set variables, including empty ones', () => {
    expect(value('${A}-${_b2}', { A: 'x', _b2: '' })).toBe('x-');
  });
  test('defaults apply when unset or empty (like the shell :-)', () => {
    expect(value('${A:-fallback}')).toBe('fallback');
    expect(value('${A:-fallback}', { A: '' })).toBe('fallback');
    expect(value('${A:-fallback}', { A: 'set' })).toBe('set');
    expect(value('${A:-}')).toBe('');
    expect(value('${A:-a:-b c}')).toBe('a:-b c');
  });
  test('defaults may hold references, to any depth; they are read only when the default is used', () => {
    expect(value('${A:-${B}}', { B: 'b' })).toBe('b');
    expect(value('${A:-${B:-${C:-deep}}}')).toBe('deep');
    expect(value('x ${A:-pre ${B}-post} y', { B: 'b' })).toBe('x pre b-post y');
    expect(value('${A:-${B}}', { A: 'a' })).toBe('a'); // B unset, but not needed
    expect(value('${A:-$${B}}')).toBe('${B}'); // an escaped ${ in a default stays literal (the first } closes)
    expect(value('${A:-{braces}}')).toBe('{braces}'); // the first } closes, the second is text (as in the shell)
    expect(errors('${A:-${B}}')).toEqual(['environment variable "B" is not set']);
    expect(errors('${A:-${B}')).toEqual(['unterminated variable reference "${A:-${B}" (write $${ for a literal ${)']);
    expect(errors('${A:-${1B}}', { A: 'a' })).toEqual([
      'invalid variable reference "${1B}" (names are [A-Za-z_][A-Za-z0-9_]*; write $${ for a literal ${)',
    ]);
  });
  test('$${ is a literal ${ and is not interpolated', () => {
    expect(value('$${A} and ${B}', { B: 'b' })).toBe('${A} and b');
    expect(value('cost: $5, $$ and $ {x}')).toBe('cost: $5, $$ and $ {x}');
  });
  test('every unset variable is named', () => {
    expect(errors('${A} ${B:-ok} ${C}')).toEqual([
      'environment variable "A" is not set',
      'environment variable "C" is not set',
    ]);
  });
  test('malformed references are errors, not silently kept', () => {
    expect(errors('${1X}')).toEqual([
      'invalid variable reference "${1X}" (names are [A-Za-z_][A-Za-z0-9_]*; write $${ for a literal ${)',
    ]);
    expect(errors('x ${A')).toEqual(['unterminated variable reference "${A" (write $${ for a literal ${)']);
  });
  test('escaping every ${ of any text gives the text back', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[${}a_:-]*$/), (s) => {
        // (a function replacement: in a replacement string `$$` would mean a single `$`)
        expect(value(s.replaceAll('${', () => '$${'))).toBe(s);
      }),
    );
  });
  test('never throws, and an error never carries a value', () => {
    const env = { A: 'SECRET-VALUE-A', B: '', TEAM_X: 'SECRET-VALUE-T' };
    const vars = allowedVariables(env, ['A', 'B', 'TEAM_*']);
    fc.assert(
      fc.property(fc.stringMatching(/^(?:\$|\{|\}|:-|A|B|C|TEAM_X|DOCOPS_T| |1)*$/), (s) => {
        for (const e of errors(s, env, vars)) expect(e).not.toContain('SECRET-VALUE');
      }),
    );
  });
});

describe('what manifests may read (allowedVariables)', () => {
  const env = {
    ORG_ID: 'org-demo',
    TEAM_A: 'a',
    TEAM_B: 'b',
    HOME: '/home/me',
    DOCOPS_TOKEN: 'tok-0123456789',
    DOCOPS_X: 'x',
    docops_token: 'y',
    COPY: 'tok-0123456789',
    WRAPPED: 'Bearer tok-0123456789',
    SHORT: 'abc',
  };
  const vars = allowedVariables(
    env,
    ['ORG_ID', 'TEAM_*', 'COPY', 'WRAPPED', 'DOCOPS_*', 'docops_token', 'SHORT', 'UNSET'],
    ['tok-0123456789', 'ab'],
  );

  test('names and prefixes the user allows are read', () => {
    expect(value('${ORG_ID}/${TEAM_A}${TEAM_B}', {}, vars)).toBe('org-demo/ab');
    expect(value('${SHORT}', {}, vars)).toBe('abc'); // a short secret only counts when equal
    expect(errors('${UNSET}', {}, vars)).toEqual(['environment variable "UNSET" is not set']);
  });

  test('anything else is an error saying how to allow it, never its value — also with a default', () => {
    const how = 'allow it with --allow-env HOME (or DOCOPS_ALLOW_ENV, or allowEnv in the daemon config)';
    expect(errors('${HOME}', {}, vars)).toEqual([`environment variable "HOME" is not allowed in manifests: ${how}`]);
    expect(errors('${HOME:-/tmp}', {}, vars)).toEqual([
      `environment variable "HOME" is not allowed in manifests: ${how}`,
    ]);
    expect(errors('${ORG_ID:-${HOME}}', {}, vars)).toEqual([
      `environment variable "HOME" is not allowed in manifests: ${how}`,
    ]); // checked though unused
  });

  test("docops's own variables are refused even when allowed, whatever the case", () => {
    for (const name of ['DOCOPS_TOKEN', 'DOCOPS_X', 'docops_token']) {
      expect(errors(`\${${name}}`, {}, vars)).toEqual([
        `environment variable "${name}" is docops's own: DOCOPS_* variables are never interpolated into manifests`,
      ]);
    }
  });

  test('a variable holding the API token is refused (equal, or containing a token of 8+ characters)', () => {
    for (const name of ['COPY', 'WRAPPED']) {
      const e = errors(`\${${name}}`, {}, vars);
      expect(e).toEqual([
        `environment variable "${name}" holds the API token: it is never interpolated into manifests`,
      ]);
      expect(e.join()).not.toContain('tok-0123456789');
    }
  });

  test("a variable holding another of docops's credentials (a webhook URL registered from the daemon config) is refused as one", () => {
    const url = 'https://hooks.slack.test/services/T0/B0/credential-77';
    registerSecret(url);
    try {
      const e = errors('${HOOK}', {}, allowedVariables({ HOOK: url }, ['HOOK']));
      expect(e).toEqual([
        `environment variable "HOOK" holds one of docops's credentials (the API token, the reconcile secret, a notification URL or key): it is never interpolated into manifests`,
      ]);
    } finally {
      clearSecretsForTests();
    }
  });

  test('nothing is allowed by default', () => {
    expect(errors('${ORG_ID}', {}, allowedVariables(env, []))).toHaveLength(1);
  });
});

describe('parseAllowList', () => {
  test('comma-separated names and prefixes; blanks ignored; anything else is invalid', () => {
    expect(parseAllowList(['ORG_ID, TEAM_*', '', ' X '])).toEqual({ entries: ['ORG_ID', 'TEAM_*', 'X'], invalid: [] });
    expect(parseAllowList(['*', 'A-B', 'A*B', '1X', 'OK'])).toEqual({
      entries: ['OK'],
      invalid: ['*', 'A-B', 'A*B', '1X'],
    });
  });
});
