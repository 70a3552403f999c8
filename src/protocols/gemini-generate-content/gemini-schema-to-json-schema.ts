/** Members of Google's OpenAPI-style `Schema` that mean the same in JSON Schema and are copied as they are. */
const copiedMembers = [
  'description',
  'enum',
  'format',
  'required',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'title',
  'default',
  'example',
  'minProperties',
  'maxProperties',
] as const;

/**
 * Google's OpenAPI-style `Schema` (`parameters`, `responseSchema`: upper-case `type`, `nullable`) as plain JSON Schema,
 * which is what every vendor adapter sends. `propertyOrdering` is left out: the properties keep their order as JSON
 * members, which is what it asks for.
 */
export function geminiSchemaToJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : undefined;
  if (type && type !== 'type_unspecified') converted.type = schema.nullable === true ? [type, 'null'] : type;
  for (const member of copiedMembers) if (schema[member] !== undefined) converted[member] = schema[member];
  if (isObject(schema.properties)) {
    converted.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [
        name,
        isObject(value) ? geminiSchemaToJsonSchema(value) : value,
      ]),
    );
  }
  if (isObject(schema.items)) converted.items = geminiSchemaToJsonSchema(schema.items);
  if (Array.isArray(schema.anyOf))
    converted.anyOf = schema.anyOf.map((branch) => (isObject(branch) ? geminiSchemaToJsonSchema(branch) : branch));
  return converted;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
