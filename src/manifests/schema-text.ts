/** A schema's JSON text, made once per schema object: the key of its generated validator, and what secret-fields.ts checks for marks. */
const texts = new WeakMap<object, string>();

export function schemaText(schema: object): string {
  let text = texts.get(schema);
  if (text === undefined) texts.set(schema, (text = JSON.stringify(schema)));
  return text;
}
