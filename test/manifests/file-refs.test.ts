/**
 * Manifest values read from files next to the manifest (`{file: …}` where a kind allows it): read relative to
 * the manifest, only inside the manifests directory, handed to the kind as text plus digest; a referenced
 * `.yaml` file is data, never loaded as manifests; every problem is an issue at the `file` value.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/model/errors.js';
import type { DesiredEntry, KindDefinition, LiveObject } from '../../src/model/kind.js';
import { loadManifests } from '../../src/manifests/index.js';

const holder: KindDefinition<Record<string, unknown>, LiveObject, unknown, Record<string, unknown>> = {
  kind: 'Holder',
  identity: 'name',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string' },
      body: {
        oneOf: [
          { type: 'string' },
          { type: 'object', additionalProperties: false, required: ['file'], properties: { file: { type: 'string' } } },
        ],
      },
    },
  },
  depth: 1,
  fileFields: [{ path: ['body'], holds: 'a body', maxBytes: 2 * 1024 * 1024 }],
  toDesired: (doc): DesiredEntry<Record<string, unknown>>[] => [
    {
      kind: 'Holder',
      org: doc.metadata.organization,
      key: String(doc.spec['name']),
      spec: doc.spec,
      source: doc.pos(['spec']),
      doc,
    },
  ],
  fetch: async () => ({ objects: [] }),
  diff: () => ({ steps: [], unmanaged: [], warnings: [], blocked: [] }),
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'docops-filerefs-'));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const holderDoc = (file: string, name = file): string =>
  `apiVersion: docops/v1\nkind: Holder\nmetadata: { organization: o1 }\nspec:\n  name: "${name}"\n  body: { file: ${file} }\n`;

async function issuesOf(dir: string): Promise<string[]> {
  try {
    await loadManifests(dir, [holder], { env: {} });
  } catch (e) {
    if (e instanceof ValidationError)
      return e.issues.map((i) => `${path.relative(dir, i.file)}:${i.line}: ${i.message}`);
    throw e;
  }
  return [];
}

describe('file references in manifests', () => {
  it('reads the file relative to the manifest and hands the kind its text and digest; a referenced .yaml is not a manifest', async () => {
    const spec = 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n';
    const dir = tree({ 'apis/holder.yaml': holderDoc('specs/petstore.yaml'), 'apis/specs/petstore.yaml': spec });
    const { documents, desired } = await loadManifests(dir, [holder], { env: {} });
    expect(documents).toHaveLength(1);
    expect((desired.get('Holder')![0]!.spec as Record<string, unknown>)['body']).toEqual({
      file: 'specs/petstore.yaml',
      text: spec,
      sha256: createHash('sha256').update(spec).digest('hex'),
    });
  });

  it('refuses paths that leave the manifests directory, absolute paths, missing files, links out, and non-UTF-8 text, never quoting content', async () => {
    const outside = tree({ 'secret.txt': 'TOP-SECRET-CONTENT' });
    const dir = tree({
      'a.yaml': holderDoc('../secret.txt'),
      'b.yaml': holderDoc('/etc/hostname'),
      'c.yaml': holderDoc('missing.pem'),
      'd.yaml': holderDoc('link.pem'),
      'e.yaml': holderDoc('bad.bin'),
      'bad.bin': Buffer.from([0xff, 0xfe, 0x00, 0xc3]),
    });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.pem'));
    const issues = await issuesOf(dir);
    expect(issues).toEqual([
      'a.yaml:6: body.file "../secret.txt": cannot read it (ENOENT)',
      'b.yaml:6: body.file "/etc/hostname": must be a path relative to the manifest',
      'c.yaml:6: body.file "missing.pem": cannot read it (ENOENT)',
      'd.yaml:6: body.file "link.pem": is outside the manifests directory (links are followed); docops reads no file outside it',
      'e.yaml:6: body.file "bad.bin": is not valid UTF-8 text',
    ]);
    expect(issues.join('\n')).not.toContain('TOP-SECRET');
  });

  it('a ../ path that does exist outside is refused as outside', async () => {
    const parent = tree({ 'secret.txt': 'TOP-SECRET-CONTENT', 'm/a.yaml': holderDoc('../secret.txt') });
    const issues = await issuesOf(path.join(parent, 'm'));
    expect(issues).toEqual([
      'a.yaml:6: body.file "../secret.txt": is outside the manifests directory (links are followed); docops reads no file outside it',
    ]);
  });

  it('a data file no manifest names any more says what it is and how to fix it, instead of envelope errors', async () => {
    const dir = tree({
      'apis/holder.yaml': holderDoc('specs/used.yaml'),
      'apis/specs/used.yaml': 'openapi: 3.1.0\ninfo: { title: Used, version: "1" }\npaths: {}\n',
      'apis/specs/orphan.yaml': 'openapi: 3.1.0\ninfo: { title: Orphan, version: "1" }\npaths: {}\n',
      'apis/specs/old.yaml': 'swagger: "2.0"\ninfo: { title: Old, version: "1" }\npaths: {}\n',
    });
    const issues = await issuesOf(dir);
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(
      /^apis\/specs\/old\.yaml:1: this is a Swagger document, not a manifest, and no manifest names it with \{file: …\}/,
    );
    expect(issues[1]).toMatch(
      /^apis\/specs\/orphan\.yaml:1: this is an OpenAPI document, not a manifest, and no manifest names it/,
    );
    expect(issues.join('\n')).not.toMatch(/apiVersion|Orphan|Old/);
  });
});
