/**
 * `docops undo -o DIR` writes what export writes as files (an OpenAPI spec's text, a SAML certificate) as files
 * beside its manifests, named by `{file}`; it writes nothing over an existing file nor through a link in DIR,
 * checked before anything is written; two organizations' files of one name get `-2`.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { desiredFromFiles, undoFiles, writeUndoFiles } from '../../src/undo/documents.js';

const root = mkdtempSync(join(tmpdir(), 'docops-undo-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `out-${++n}`);

const spec = (org: string, slug: string, text: string) => ({
  apiVersion: 'docops/v1',
  kind: 'OpenAPISpec',
  metadata: { organization: org },
  spec: { slug, source: { file: `openapi/${slug}.yaml`, text, sha256: 'x' } },
});
const PETS_A = 'openapi: 3.1.0\ninfo: { title: Pets A, version: "1" }\npaths: {}\n';
const PETS_B = 'openapi: 3.1.0\ninfo: { title: Pets B, version: "1" }\npaths: {}\n';

describe('undo -o data files', () => {
  it('two organizations with a spec of one slug: two files, each manifest naming its own', async () => {
    const files = undoFiles([spec('org-a', 'pets', PETS_A), spec('org-b', 'pets', PETS_B)], KINDS);
    expect(files.map((f) => [f.name, f.data.map((d) => d.path)])).toEqual([
      ['undo-OpenAPISpec-org-a.yaml', ['openapi/pets.yaml']],
      ['undo-OpenAPISpec-org-b.yaml', ['openapi/pets-2.yaml']],
    ]);
    const out = fresh();
    await writeUndoFiles(out, files, '');
    expect(readFileSync(join(out, 'undo-OpenAPISpec-org-b.yaml'), 'utf8')).toContain('file: openapi/pets-2.yaml');
    expect(readFileSync(join(out, 'openapi', 'pets-2.yaml'), 'utf8')).toBe(PETS_B);
    // Loaded as manifests, and as undo plans them: each organization's spec has its own text.
    const texts = (d: ReadonlyMap<string, readonly { org: string; spec: unknown }[]>) =>
      d.get('OpenAPISpec')!.map((e) => [e.org, (e.spec as { source: { text: string } }).source.text]);
    const loaded = await loadManifests(out, KINDS);
    expect(texts(loaded.desired)).toEqual([
      ['org-a', PETS_A],
      ['org-b', PETS_B],
    ]);
    expect(texts(desiredFromFiles(files, KINDS))).toEqual(texts(loaded.desired));
  });

  it('an existing data file is refused before anything is written', async () => {
    const out = fresh();
    mkdirSync(join(out, 'openapi'), { recursive: true });
    writeFileSync(join(out, 'openapi', 'pets.yaml'), 'mine\n');
    await expect(writeUndoFiles(out, undoFiles([spec('org-a', 'pets', PETS_A)], KINDS), '')).rejects.toThrow(
      /openapi\/pets\.yaml already exists; choose another -o directory/,
    );
    expect(readFileSync(join(out, 'openapi', 'pets.yaml'), 'utf8')).toBe('mine\n');
    expect(readdirSync(out)).toEqual(['openapi']); // not even the manifest
  });

  it('a folder that is a symbolic link (to outside the directory) is refused, naming it; nothing is written', async () => {
    const out = fresh();
    const outside = fresh();
    mkdirSync(out, { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(out, 'openapi'));
    await expect(writeUndoFiles(out, undoFiles([spec('org-a', 'pets', PETS_A)], KINDS), '')).rejects.toThrow(
      `${join(out, 'openapi')} is a symbolic link: undo writes no file through a link`,
    );
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(out, 'undo-OpenAPISpec-org-a.yaml'))).toBe(false);
  });
});
