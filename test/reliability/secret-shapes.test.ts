/**
 * A field marked secret is never quoted by a message, whatever its value looks like — above all when the schema
 * refuses it for its shape (the token written where its variable's name belongs, a URL without its scheme, a
 * number, a list, a value too short or too long). The fields are found by walking every schema docops validates
 * with (every file of schemas/, the config schema as the daemon assembles it), so a field marked later is covered
 * without a change here; for each, several values that fail the schema are validated with an empty secret
 * registry, and no message (as built, before any printer redacts it) may hold the value or a fragment of it.
 * Afterwards the value is registered, so no later message of the run shows it either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { ENV_OVERRIDES } from '../../src/config/overrides.js';
import { envOverrides } from '../../src/config/overrides.js';
import { validateWithSchema } from '../../src/manifests/schema.js';
import { SECRET_KEYWORD } from '../../src/manifests/secret-fields.js';
import { clearSecretsForTests, MIN_SECRET, redactText } from '../../src/secrets.js';
import { findLeaks } from '../helpers/output-collector.js';

type Node = Record<string, unknown>;
type Path = (string | number)[];
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A marked field: where its value goes in a document of its schema, and its mark. */
interface Field {
  schema: string;
  path: Path;
  mark: string;
}

/** The schemas validated with: the config as the daemon assembles it (its safety schema embedded), every other file as written. */
const SCHEMAS: [string, object][] = readdirSync('schemas')
  .filter((f) => f.endsWith('.schema.json'))
  .map((f): [string, object] => [
    f,
    f === 'config.schema.json' ? configSchema() : (JSON.parse(readFileSync(`schemas/${f}`, 'utf8')) as object),
  ]);

/** Keys tried for patternProperties (the first the pattern accepts is used). */
const PATTERN_KEYS = ['Team', 'team', 'org-a', 'x', 'A_1', 'en', '1'];

/** Every field of `schema` with a secret mark (not false), at an instance path a document can hold. */
function markedFields(name: string, schema: object): Field[] {
  const out = new Map<string, Field>();
  const ids = new Map<string, Node>();
  const collectIds = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(collectIds);
    if (!isNode(v)) return;
    if (typeof v['$id'] === 'string') ids.set(v['$id'], v);
    Object.values(v).forEach(collectIds);
  };
  collectIds(schema);
  const resolveRef = (ref: string, resource: Node): [Node, Node] | undefined => {
    const [file, hash = ''] = ref.split('#');
    const target = file === '' ? resource : [...ids].find(([id]) => id.endsWith(`/${file}`) || id === file)?.[1];
    if (!target) return undefined;
    let node: unknown = target;
    for (const raw of hash.split('/').slice(1)) node = (node as Node)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
    return isNode(node) ? [node, target] : undefined;
  };
  const walk = (node: Node, path: Path, resource: Node, seen: Set<Node>): void => {
    if (seen.has(node)) return;
    const next = new Set(seen).add(node);
    const res = typeof node['$id'] === 'string' ? node : resource;
    const mark = node[SECRET_KEYWORD];
    if (typeof mark === 'string') {
      const key = JSON.stringify(path);
      if (!out.has(key)) out.set(key, { schema: name, path, mark });
    }
    if (typeof node['$ref'] === 'string') {
      const found = resolveRef(node['$ref'], res);
      if (found) walk(found[0], path, found[1], next);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[k])) for (const s of node[k]) if (isNode(s)) walk(s, path, res, next);
    for (const k of ['if', 'then', 'else', 'not']) if (isNode(node[k])) walk(node[k], path, res, next);
    if (isNode(node['properties']))
      for (const [p, s] of Object.entries(node['properties'])) if (isNode(s)) walk(s, [...path, p], res, next);
    if (isNode(node['patternProperties']))
      for (const [p, s] of Object.entries(node['patternProperties'])) {
        const key = PATTERN_KEYS.find((k) => new RegExp(p, 'u').test(k));
        if (isNode(s) && key !== undefined) walk(s, [...path, key], res, next);
      }
    if (isNode(node['additionalProperties'])) walk(node['additionalProperties'], [...path, 'extra'], res, next);
    if (isNode(node['items'])) walk(node['items'], [...path, 0], res, next);
    for (const k of ['prefixItems', 'items'])
      if (Array.isArray(node[k]))
        node[k].forEach((s: unknown, i: number) => isNode(s) && walk(s, [...path, i], res, next));
  };
  walk(schema as Node, [], schema as Node, new Set());
  return [...out.values()];
}

/** `value` placed at `path` in an otherwise empty document. */
function placed(path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') return [placed(rest, value)];
  return { [head!]: placed(rest, value) };
}

const LONG = Array.from(
  { length: 10_050 },
  (_, i) => 'L0ngS3cr'[i % 8]! + String.fromCharCode(97 + ((i * 7) % 26)),
).join('');

/** Values a secret field refuses for their shape, each with the parts no message may show. */
const SHAPES: { name: string; value: unknown; secrets: string[] }[] = [
  {
    name: 'a token (with / + =)',
    value: 'gb_api_R2x/9d+T41c8a7e3b6==05e1',
    secrets: ['gb_api_R2x/9d+T41c8a7e3b6==05e1'],
  },
  { name: 'a short token', value: 'Sh0rt-s3cret', secrets: ['Sh0rt-s3cret'] },
  { name: 'a number', value: 73920184657392, secrets: ['73920184657392'] },
  { name: 'a list', value: ['arr-SECRET-0a9b8c7d6e5f'], secrets: ['arr-SECRET-0a9b8c7d6e5f'] },
  { name: 'an object', value: { value: 'obj-SECRET-1f2e3d4c5b6a' }, secrets: ['obj-SECRET-1f2e3d4c5b6a'] },
  { name: 'a long text', value: LONG, secrets: [LONG] },
  {
    name: 'a URL with credentials and another scheme',
    value: 'ftp://docops:pw-SECRET-71c3e9f2@api.test/v1',
    secrets: ['pw-SECRET-71c3e9f2'],
  },
  {
    name: 'credentials without a scheme',
    value: 'docops:pw-SECRET-0d1e2f3a@api.test/v1',
    secrets: ['docops:pw-SECRET-0d1e2f3a@api.test/v1', 'pw-SECRET-0d1e2f3a'],
  },
  {
    name: 'credentials after a broken scheme',
    value: 'https:/docops:pw-SECRET-9a8b7c6d@api.test',
    secrets: ['pw-SECRET-9a8b7c6d'],
  },
];

const pointer = (path: Path): string => path.map((s) => `/${String(s)}`).join('');
const FIELDS = SCHEMAS.flatMap(([name, schema]) => markedFields(name, schema));

beforeEach(() => clearSecretsForTests());

describe('every field a schema marks secret, refused for its shape, is never quoted', () => {
  it('the walk finds the marked fields of every variant', () => {
    const found = FIELDS.map((f) => `${f.schema}${pointer(f.path)} ${f.mark}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'config.schema.json/reconcileSecret credential',
        'config.schema.json/notify/0/url credential',
        'config.schema.json/notify/0/secretEnv env',
        'config.schema.json/apiUrl userinfo',
        'config.schema.json/organizations/0/tokenEnv env',
        'samlprovider.schema.json/certificate payload',
      ]),
    );
    expect(new Set(FIELDS.map((f) => f.mark))).toEqual(new Set(['credential', 'payload', 'env', 'userinfo']));
  });

  it.each(FIELDS.map((f) => [`${f.schema}${pointer(f.path)} (${f.mark})`, f] as const))('%s', (_, field) => {
    const schema = SCHEMAS.find(([n]) => n === field.schema)![1];
    let refused = 0;
    for (const shape of SHAPES) {
      clearSecretsForTests();
      const issues = validateWithSchema(
        placed(field.path, shape.value),
        schema,
        () => POS,
        '',
        () => POS,
      );
      const here = issues.filter((i) => (i.path ?? '').startsWith(pointer(field.path)));
      if (here.length === 0) continue;
      refused++;
      const said = issues.map((i) => i.message).join('\n');
      expect(findLeaks(said, shape.secrets, shape.name), said).toEqual([]);
      // Registered: no later message of the run shows it either.
      for (const s of shape.secrets.filter((x) => x.length >= MIN_SECRET))
        expect(redactText(`later: ${s}`), `${shape.name} registered`).not.toContain(s);
    }
    expect(refused, 'values the field refuses').toBeGreaterThanOrEqual(3);
  });

  it('the environment overrides of marked fields: neither the variable nor its value is shown', () => {
    const marked = FIELDS.filter((f) => f.schema === 'config.schema.json' && f.path.length === 1).map((f) => f.path[0]);
    const variables = Object.entries(ENV_OVERRIDES).filter(([, field]) => marked.includes(field));
    expect(variables.map(([v]) => v).sort()).toEqual(['DOCOPS_API_URL', 'DOCOPS_RECONCILE_SECRET']);
    for (const [variable] of variables)
      for (const shape of SHAPES.filter((s) => typeof s.value === 'string')) {
        clearSecretsForTests();
        const { problems } = envOverrides({ [variable]: shape.value as string });
        expect(findLeaks(problems.join('\n'), shape.secrets, `${variable}: ${shape.name}`)).toEqual([]);
      }
  });
});

const POS = { file: 'docops.yaml', line: 1, column: 1 };
