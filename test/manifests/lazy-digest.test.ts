/**
 * A file reference's digest (and an OpenAPI text source's) is computed when first read, not when the file is
 * read: `validate` never reads it, so it neither hashes nor loads node:crypto (test/cli/bundle.test.ts checks
 * the process). Read, it is the same value a plain property held: for spreads, JSON, structuredClone and
 * comparisons.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { isFileContent, lazySha256, sha256Hex } from '../../src/manifests/file-refs.js';

const hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('lazySha256', () => {
  it('hashes on the first read only, once, and reads as a plain property everywhere', () => {
    let calls = 0;
    const bytes = Buffer.from('\u{feff}openapi: 3.1.0\n', 'utf8');
    const content = lazySha256({ file: 'a.yaml', text: 'openapi: 3.1.0\n' }, () => (calls++, bytes));
    expect(isFileContent(content)).toBe(true);
    expect(Object.keys(content)).toEqual(['file', 'text', 'sha256']);
    expect(calls).toBe(0); // neither the type check nor listing the keys hashed
    expect(content.sha256).toBe(hex(bytes));
    expect(content).toEqual({ file: 'a.yaml', text: 'openapi: 3.1.0\n', sha256: hex(bytes) });
    expect({ ...content }).toEqual({ file: 'a.yaml', text: 'openapi: 3.1.0\n', sha256: hex(bytes) });
    expect(JSON.parse(JSON.stringify(content))).toEqual({
      file: 'a.yaml',
      text: 'openapi: 3.1.0\n',
      sha256: hex(bytes),
    });
    expect(structuredClone(content)).toEqual({ file: 'a.yaml', text: 'openapi: 3.1.0\n', sha256: hex(bytes) });
    expect(calls).toBe(1);
  });

  it('sha256Hex hashes a string as UTF-8, as createHash does', () => {
    expect(sha256Hex('é')).toBe(hex(Buffer.from('é', 'utf8')));
    expect(sha256Hex(new Uint8Array([1, 2]))).toBe(hex(new Uint8Array([1, 2])));
  });

  it("an OpenAPISpec's text source carries the digest of its text, computed when the diff reads it", () => {
    const kind = KINDS.find((k) => k.kind === 'OpenAPISpec')!;
    const text = 'openapi: 3.1.0\n';
    const doc = {
      kind: 'OpenAPISpec',
      metadata: { organization: 'o' },
      spec: { slug: 'pets', source: { text } },
      pos: () => ({ file: 'f', line: 1, column: 1 }),
    };
    const [entry] = kind.toDesired(doc as never, () => undefined);
    expect(entry!.spec).toEqual({ slug: 'pets', source: { type: 'text', text, sha256: hex(text) } });
  });
});
