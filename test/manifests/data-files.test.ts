/**
 * Files a manifest names with `{file}` (OpenAPI specs, certificates, brand files) are data of their kind
 * (docs/reliability.md, "Data files"):
 * - limits that fit the kind (a spec up to 25 MiB, a certificate what can hold the API's 10,000 characters, a
 *   brand file 2 MiB), each refusal naming the kind, never "split it into several files";
 * - read once and held once (the text, no copy of the bytes beside it), never parsed as manifests;
 * - a file is one thing: a manifest, the daemon's config or one kind of data, never two (an error at each place);
 * - never interpolated: `${VAR}` in a brand file is text, and no message suggests --allow-env for it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/model/errors.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests, parseYamlFile, type LoadOptions } from '../../src/manifests/index.js';

const MiB = 1024 * 1024;
const PEM = readFileSync(new URL('../fixtures/saml/idp-a.pem', import.meta.url), 'utf8');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'docops-datafiles-'));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

/** A file of `size` bytes that is never read (sparse): enough for a size check. */
function sparse(root: string, rel: string, size: number): void {
  writeFileSync(path.join(root, rel), '');
  truncateSync(path.join(root, rel), size);
}

const head = (kind: string): string => `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: org-demo }\n`;
const specDoc = (file: string, slug = 'big'): string =>
  `${head('OpenAPISpec')}spec:\n  slug: ${slug}\n  source: { file: ${file} }\n`;
const samlDoc = (file: string): string =>
  `${head('SamlProvider')}spec:\n  label: Okta\n  certificate: { file: ${file} }\n`;
const siteDoc = (file: string): string => `${head('Site')}spec:\n  title: Docs\n  customization: { file: ${file} }\n`;
const teamDoc = `${head('Team')}spec:\n  title: Platform\n`;

/** A YAML OpenAPI document of about `bytes` bytes (its bulk a block scalar, which holds `${…}` as text). */
function bigSpec(bytes: number): string {
  const line = '    Lorem ipsum dolor sit amet, ${HOME} consectetur adipiscing elit, sed do eiusmod tempor.\n';
  return `openapi: 3.1.0\ninfo:\n  title: Big\n  version: "1"\n  description: |\n${line.repeat(Math.ceil(bytes / line.length))}paths: {}\n`;
}

async function issuesOf(dir: string, opts: LoadOptions = {}): Promise<string[]> {
  try {
    await loadManifests(dir, KINDS, { env: {}, ...opts });
  } catch (e) {
    // Paths in messages as well as at the start, relative to the tree.
    if (e instanceof ValidationError)
      return e.issues.map(
        (i) => `${path.relative(dir, i.file)}:${i.line}:${i.column}: ${i.message.replaceAll(`${dir}/`, '')}`,
      );
    throw e;
  }
  return [];
}

describe('limits that fit the data', () => {
  it('a 3 MiB OpenAPI spec loads: its text and digest reach the kind, and it is never parsed as a manifest', async () => {
    const text = bigSpec(3 * MiB);
    const dir = tree({ 'openapi.yaml': specDoc('specs/big.yaml'), 'specs/big.yaml': text });
    const parsed: string[] = [];
    const parseManifest: LoadOptions['parseManifest'] = (file, bytes, opts) => (
      parsed.push(path.relative(dir, file)),
      parseYamlFile(file, bytes, opts)
    );
    const { desired } = await loadManifests(dir, KINDS, { env: {}, parseManifest });
    const source = desired.get('OpenAPISpec')![0]!.spec as { source: { text: string; sha256: string; file: string } };
    expect(source.source.file).toBe('specs/big.yaml');
    expect(source.source.text).toBe(text);
    expect(source.source.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    // The manifest went through the parser; the data file never did.
    expect(parsed).toEqual(['openapi.yaml']);
  });

  it("each kind's file has its own limit, and a refusal names it (never 'split it into several files')", async () => {
    const dir = tree({
      'openapi.yaml': specDoc('huge.yaml'),
      'saml.yaml': samlDoc('idp.pem'),
      'site.yaml': siteDoc('brand.yaml'),
    });
    sparse(dir, 'huge.yaml', 25 * MiB + 1);
    sparse(dir, 'idp.pem', 3 * MiB);
    sparse(dir, 'brand.yaml', 2 * MiB + 1);
    const issues = await issuesOf(dir);
    expect(issues).toEqual([
      `openapi.yaml:6:19: source.file "huge.yaml": an OpenAPI spec file may be at most 25 MiB (this one is ${25 * MiB + 1} bytes)`,
      `saml.yaml:6:24: certificate.file "idp.pem": a certificate file may be at most 64 KiB (this one is ${3 * MiB} bytes): the API takes a certificate of at most 10000 characters`,
      `site.yaml:6:26: customization.file "brand.yaml": a customization file may be at most 2 MiB (this one is ${2 * MiB + 1} bytes)`,
    ]);
  });

  it('a certificate within its file limit but over the API limit is refused by the character count', async () => {
    const dir = tree({ 'saml.yaml': samlDoc('idp.pem'), 'idp.pem': `${PEM}\n${'#'.repeat(20000)}\n` });
    expect(await issuesOf(dir)).toEqual([
      expect.stringMatching(
        /^saml\.yaml:6:24: certificate file "idp\.pem" holds \d+ characters; the API takes at most 10000$/,
      ),
    ]);
  });

  it("a spec is held once: its text, without the file's bytes beside it", async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    // Twice: V8 frees array buffers concurrently after a collection; the second one waits for the first's.
    const buffers = (): number => (collect(), collect(), process.memoryUsage().arrayBuffers);
    const size = 1.5 * MiB;
    const dir = tree({ 'openapi.yaml': specDoc('specs/big.yaml'), 'specs/big.yaml': bigSpec(size) });
    const before = buffers();
    const result = await loadManifests(dir, KINDS, { env: {} });
    const held = buffers() - before;
    expect(result.documents).toHaveLength(1);
    expect(held).toBeLessThan(size / 4);
  });
});

describe('a file cannot be two things', () => {
  it('a {file} naming a manifest is an error naming both places, and the manifest stays a manifest', async () => {
    const dir = tree({ 'openapi.yaml': specDoc('teams.yaml'), 'teams.yaml': teamDoc });
    expect(await issuesOf(dir)).toEqual([
      'openapi.yaml:6:19: source.file "teams.yaml": is the docops manifest teams.yaml (apiVersion: docops/v1), not data: name the file that holds an OpenAPI spec',
    ]);
  });

  it('a {file} naming a manifest in flow or JSON style, or one whose YAML does not parse, is still a manifest', async () => {
    const dir = tree({
      'a.yaml': specDoc('flow.yaml', 'a'),
      'b.yaml': specDoc('json.yml', 'b'),
      'c.yaml': specDoc('broken.yaml', 'c'),
      'flow.yaml':
        '{ apiVersion: docops/v1, kind: Team, metadata: { organization: org-demo }, spec: { title: Flow } }\n',
      'json.yml':
        '{"apiVersion": "docops/v1", "kind": "Team", "metadata": {"organization": "org-demo"}, "spec": {"title": "Json"}}\n',
      'broken.yaml': `${head('Team')}spec: { title: [unclosed\n`,
    });
    const issues = await issuesOf(dir);
    for (const [doc, file] of [
      ['a', 'flow.yaml'],
      ['b', 'json.yml'],
      ['c', 'broken.yaml'],
    ]) {
      expect(issues).toContain(
        `${doc}.yaml:6:19: source.file "${file}": is the docops manifest ${file} (apiVersion: docops/v1), not data: name the file that holds an OpenAPI spec`,
      );
    }
    // The broken manifest's own syntax error is reported too (it used to vanish with the manifest).
    expect(issues.filter((i) => i.startsWith('broken.yaml:'))).toEqual([
      expect.stringMatching(/^broken\.yaml:\d+:\d+: unclosed "\[": .* \(YAML: Flow sequence in block collection/),
    ]);
  });

  it('one file named as two kinds of data is an error at each reference', async () => {
    const dir = tree({ 'openapi.yaml': specDoc('shared.txt'), 'saml.yaml': samlDoc('shared.txt'), 'shared.txt': PEM });
    expect(await issuesOf(dir)).toEqual([
      'openapi.yaml:6:19: source.file "shared.txt": is also named as a certificate (saml.yaml:6:24); a file holds one kind of data',
      'saml.yaml:6:24: certificate.file "shared.txt": is also named as an OpenAPI spec (openapi.yaml:6:19); a file holds one kind of data',
    ]);
  });

  it('one file named as the same kind of data by several manifests is fine (a brand shared by sites)', async () => {
    const dir = tree({
      'a.yaml': siteDoc('brand.yaml'),
      'b.yaml': siteDoc('brand.yaml').replace('title: Docs', 'title: Status'),
      'brand.yaml': 'styling:\n  corners: straight\n',
    });
    expect(await issuesOf(dir)).toEqual([]);
  });

  it('a data file holding the API token is refused, and the token never quoted', async () => {
    const token = 'tok_live_0123456789abcdef';
    const dir = tree({ 'saml.yaml': samlDoc('token.pem'), 'token.pem': `${token}\n` });
    const issues = await issuesOf(dir, { secrets: [token] });
    expect(issues).toEqual([
      'saml.yaml:6:24: certificate.file "token.pem": holds the API token (or another secret docops holds): it is never sent as data',
    ]);
  });

  it("files of other tools (a hidden file or directory, node_modules) are never data: git's config, an .env", async () => {
    const dir = tree({
      'a.yaml': specDoc('.git/config', 'a'),
      'b.yaml': samlDoc('.env'),
      'c.yaml': specDoc('node_modules/pkg/openapi.json', 'c'),
      'd.yaml': specDoc('link.txt', 'd'),
      '.git/config': '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic czNjcjN0\n',
      '.env': 'TOKEN=s3cr3t\n',
      'node_modules/pkg/openapi.json': '{"openapi": "3.1.0"}',
    });
    symlinkSync(path.join(dir, '.env'), path.join(dir, 'link.txt'));
    const issues = await issuesOf(dir);
    const why =
      'is in a hidden directory or node_modules, or is a hidden file, where other tools keep their files (.git, .env …): docops reads no data there';
    expect(issues).toEqual([
      `a.yaml:6:19: source.file ".git/config": ${why}`,
      `b.yaml:6:24: certificate.file ".env": ${why}`,
      `c.yaml:6:19: source.file "node_modules/pkg/openapi.json": ${why}`,
      `d.yaml:6:19: source.file "link.txt": ${why}`,
    ]);
    expect(issues.join('\n')).not.toMatch(/s3cr3t|czNjcjN0/);
  });

  it("the daemon's config is never data, even inside the manifests directory", async () => {
    const dir = tree({
      'openapi.yaml': specDoc('docops.yaml'),
      'docops.yaml': 'manifests: .\nreconcileSecret: s3cr3t-value\n',
    });
    const issues = await issuesOf(dir, {
      reserved: new Map([[path.join(dir, 'docops.yaml'), "the daemon's config file"]]),
    });
    expect(issues).toEqual([
      expect.stringMatching(/^openapi\.yaml:6:19: source\.file "docops\.yaml": is the daemon's config file/),
    ]);
    expect(issues.join('\n')).not.toContain('s3cr3t');
  });
});

describe('a data file is never interpolated', () => {
  it('${VAR} in a brand file is text, allowed or not, and no message suggests --allow-env', async () => {
    const dir = tree({ 'site.yaml': siteDoc('brand.yaml'), 'brand.yaml': 'title: Home is ${HOME} and $${X}\n' });
    for (const allowEnv of [[], ['HOME']]) {
      const { desired } = await loadManifests(dir, KINDS, { env: { HOME: '/home/ada' }, allowEnv });
      expect(desired.get('Site')![0]!.spec).toMatchObject({ customization: { title: 'Home is ${HOME} and $${X}' } });
    }
  });

  it('the YAML reader leaves ${…} and $${ as written in data', () => {
    const text = 'a: ${HOME}\nb: "$${X} and ${Y:-z}"\nc:\n  - ${A}\n  - x\nd: { e: "${B}" }\n';
    const want = { a: '${HOME}', b: '$${X} and ${Y:-z}', c: ['${A}', 'x'], d: { e: '${B}' } };
    const read = parseYamlFile('d.yaml', text, { interpolate: false });
    expect(read.issues).toEqual([]);
    expect(read.documents.map((d) => d.value)).toEqual([want]);
    expect(
      parseYamlFile('d.yaml', 'block: |\n  ${HOME}\n', { interpolate: false }).documents.map((d) => d.value),
    ).toEqual([{ block: '${HOME}\n' }]);
  });

  it('${VAR} in a spec or certificate file is text', async () => {
    const dir = tree({
      'openapi.yaml': specDoc('spec.yaml'),
      'spec.yaml': 'openapi: 3.1.0\ninfo: { title: "${HOME}", version: "1" }\npaths: {}\n',
    });
    const { desired } = await loadManifests(dir, KINDS, { env: { HOME: '/home/ada' }, allowEnv: ['HOME'] });
    expect((desired.get('OpenAPISpec')![0]!.spec as { source: { text: string } }).source.text).toContain(
      'title: "${HOME}"',
    );
  });
});
