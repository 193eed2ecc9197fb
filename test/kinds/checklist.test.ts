/**
 * "Adding a kind" (docs/dev/architecture.md) is a checklist of files; every registered kind is held to it, so the
 * checklist stays what a kind really needs and a kind added without one of its steps fails here, naming the step.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';

const json = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const kindsDoc = readFileSync('docs/kinds.md', 'utf8');
const guide = readFileSync('docs/dev/architecture.md', 'utf8');
const documentKinds = (json('schemas/document.schema.json')['properties'] as { kind: { enum: string[] } }).kind.enum;

describe('every kind walks the "Adding a kind" checklist', () => {
  it('the guide names each step this test holds', () => {
    for (const step of [
      'schemas/<name>.schema.json',
      'src/kinds/generated/<name>.ts',
      'src/kinds/titled.ts',
      'src/kinds/index.ts',
      'docs/kinds.md',
      'test/kinds/checklist.test.ts',
    ])
      expect(guide, step).toContain(step);
  });

  for (const kind of KINDS) {
    const name = kind.kind.toLowerCase();
    it(kind.kind, () => {
      const schemaFile = `schemas/${name}.schema.json`;
      expect(existsSync(schemaFile), `1. ${schemaFile}`).toBe(true);
      const schema = json(schemaFile);
      expect(schema['title'], `1. the title of ${schemaFile}`).toBe(`${kind.kind} spec`);
      expect(existsSync(`src/kinds/generated/${name}.ts`), `2. src/kinds/generated/${name}.ts`).toBe(true);
      expect(kind.schema, `3. the kind declares the schema of ${schemaFile}`).toEqual(schema);
      expect(typeof kind.export, '3. export').toBe('function');
      expect(kind.informer?.targets.length, '3. informer').toBeGreaterThan(0);
      expect(documentKinds, '4. registered, then built: the document schema lists it').toContain(kind.kind);
      expect(kindsDoc, `6. a "## ${kind.kind}" section in docs/kinds.md`).toMatch(new RegExp(`^## ${kind.kind}$`, 'm'));
    });
  }
});
