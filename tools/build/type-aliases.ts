/**
 * (Shared by the type generators, spec-types.ts and format-types.ts.)
 * json-schema-to-typescript's interfaces as type aliases: a written value is then also a plain JSON object
 * (`Record<string, unknown>`) to the code that handles any JSON, as the customization block's is (TypeScript gives
 * a type alias of an object type an implicit index signature, an interface none).
 */
export function asTypeAliases(ts: string): string {
  const lines = ts.split('\n');
  let open = false;
  for (let i = 0; i < lines.length; i++) {
    const start = /^export interface (\w+) \{$/.exec(lines[i]!);
    if (start) [lines[i], open] = [`export type ${start[1]} = {`, true];
    else if (open && lines[i] === '}') [lines[i], open] = ['};', false];
  }
  if (open || lines.some((l) => l.startsWith('export interface ')))
    throw new Error('json-schema-to-typescript wrote an interface this step cannot make a type alias');
  return lines.join('\n');
}
