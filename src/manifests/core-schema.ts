/**
 * A js-yaml schema whose implicit (plain scalar) typing is exactly the `yaml` package's YAML 1.2 core schema,
 * as docops uses it (`yaml` 2.x, `merge: true`). Regexes and conversions are copied from
 * yaml/dist/schema/core/{bool,int,float}.js and common/null.js, in the same order `yaml` tries them: null,
 * bool, int.oct, int, int.hex, float.nan, float.exp, float. No js-yaml extras (timestamps, binary, omap, set,
 * YAML 1.1 booleans, `0b`, `_`). A plain `<<` is the merge key, like `yaml` with `merge: true`.
 */
import jsyaml from 'js-yaml';

export const MERGE_TAG = 'tag:yaml.org,2002:merge';

type Rule = [test: RegExp, construct: (s: string) => unknown];

/** One js-yaml type per tag (js-yaml keeps only the last type of a tag), trying the rules in yaml's order. */
const family = (tag: string, rules: Rule[]): jsyaml.Type =>
  new jsyaml.Type(tag, {
    kind: 'scalar',
    resolve: (data: unknown) => typeof data === 'string' && rules.some(([test]) => test.test(data)),
    construct: (data: string) => rules.find(([test]) => test.test(data))?.[1](data),
  });

// The families' regexes exclude each other, so trying tags in this order equals yaml's single ordered list.
// Integers: parseInt(str.substring(offset), radix), as yaml's intResolve without intAsBigInt (`-0` stays -0).
const NULL = family('tag:yaml.org,2002:null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]);
const BOOL = family('tag:yaml.org,2002:bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T']]);
const INT = family('tag:yaml.org,2002:int', [
  [/^0o[0-7]+$/, (s) => parseInt(s.substring(2), 8)],
  [/^[-+]?[0-9]+$/, (s) => parseInt(s, 10)],
  [/^0x[0-9a-fA-F]+$/, (s) => parseInt(s.substring(2), 16)],
]);
const FLOAT = family('tag:yaml.org,2002:float', [
  [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (s) => (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY)],
  [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (s) => parseFloat(s)],
  [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (s) => parseFloat(s)],
]);
// js-yaml merges when the key's tag is MERGE_TAG; its own merge type also accepts null, which `yaml` does not.
const MERGE = family(MERGE_TAG, [[/^<<$/, (s) => s]]);

/** Plain scalars that match none of these stay strings (js-yaml leaves them untyped). */
export const YAML_CORE_SCHEMA: jsyaml.Schema = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [NULL, BOOL, INT, FLOAT, MERGE],
});
