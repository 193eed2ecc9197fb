/**
 * Build step (package.json "build"): the OAuth scopes of every management API operation, extracted from the
 * official spec (@gitbook/api, a dev dependency) into dist/api/operation-scopes.json, which ships in the
 * package: a plan names the least-privilege token it needs without the spec installed (src/scopes/).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_TABLE, extractScopes } from '#src/scopes/operations.js';

export function writeScopesTable(out = GENERATED_TABLE): number {
  const specFile = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  const table = extractScopes(JSON.parse(readFileSync(specFile, 'utf8')) as Parameters<typeof extractScopes>[0]);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(table) + '\n');
  return table.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`extracted the OAuth scopes of ${writeScopesTable()} API operations\n`);
}
