/**
 * The schemas policy rules are validated with: a policy file (schemas/policy.schema.json), and the rule list and
 * approvers written inline in docops.yaml (`policy.rules`, `policy.approvers`), made from its definitions. The
 * build precompiles all three (tools/build/precompile-validators.ts), so no schema compiler loads at run time.
 */
import { readFileSync } from 'node:fs';

export interface PolicySchemas {
  file: object;
  list: object;
  approvers: object;
}

let cached: PolicySchemas | undefined;

export function policySchemas(): PolicySchemas {
  if (cached) return cached;
  const file = JSON.parse(readFileSync(new URL('../../schemas/policy.schema.json', import.meta.url), 'utf8')) as {
    $schema: string;
    definitions: object;
  };
  const sub = (extra: object): object => ({ $schema: file.$schema, definitions: file.definitions, ...extra });
  cached = {
    file,
    list: sub({ type: 'array', minItems: 1, items: { $ref: '#/definitions/rule' } }),
    approvers: sub({ $ref: '#/definitions/approvers' }),
  };
  return cached;
}
