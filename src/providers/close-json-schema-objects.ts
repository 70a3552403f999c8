/** Keywords whose value is one subschema. */
const schemaKeywords = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalItems'] as const;
/** Keywords whose value is a list of subschemas. */
const schemaListKeywords = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const schemaMapKeywords = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

/**
 * A copy of a JSON schema with `additionalProperties: false` on every object schema that does not say
 * (nested ones included), for Claude's JSON output, which takes closed objects only. Every answer the closed schema
 * allows is one the client's schema allows, so nothing the client asked for is lost; an object that says
 * `additionalProperties` itself keeps it (the vendor judges it). The client's schema is not changed.
 */
export function closeJsonSchemaObjects(schema: Record<string, unknown>): Record<string, unknown> {
  return closeNode(schema) as Record<string, unknown>;
}

function closeNode(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const closed: Record<string, unknown> = { ...node };
  for (const keyword of schemaKeywords) if (keyword in closed) closed[keyword] = closeNode(closed[keyword]);
  for (const keyword of schemaListKeywords) {
    const list = closed[keyword];
    if (Array.isArray(list)) closed[keyword] = list.map(closeNode);
  }
  for (const keyword of schemaMapKeywords) {
    const map = closed[keyword];
    if (isRecord(map))
      closed[keyword] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, closeNode(child)]));
  }
  if (isObjectSchema(closed) && !('additionalProperties' in closed)) closed.additionalProperties = false;
  return closed;
}

function isObjectSchema(node: Record<string, unknown>): boolean {
  const type = node.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isRecord(node.properties);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
