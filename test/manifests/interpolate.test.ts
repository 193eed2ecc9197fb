/** ${VAR} interpolation on single strings. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { interpolateString } from '../../src/manifests/index.js';

const value = (input: string, env: Record<string, string | undefined> = {}) => {
  const r = interpolateString(input, env);
  if ('errors' in r) throw new Error(r.errors.join('; '));
  return r.value;
};
const errors = (input: string, env: Record<string, string | undefined> = {}) => {
  const r = interpolateString(input, env);
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
  test('$${ is a literal ${ and is not interpolated', () => {
    expect(value('$${A} and ${B}', { B: 'b' })).toBe('${A} and b');
    expect(value('cost: $5, $$ and $ {x}')).toBe('cost: $5, $$ and $ {x}');
  });
  test('every unset variable is named', () => {
    expect(errors('${A} ${B:-ok} ${C}')).toEqual(['environment variable "A" is not set', 'environment variable "C" is not set']);
  });
  test('malformed references are errors, not silently kept', () => {
    expect(errors('${1X}')).toEqual(['invalid variable reference "${1X}" (names are [A-Za-z_][A-Za-z0-9_]*; write $${ for a literal ${)']);
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
});
