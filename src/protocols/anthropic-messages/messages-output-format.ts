import type { CanonicalOutputFormat } from '../../core/canonical/canonical-request.js';

/** The name a Messages JSON schema gets where a vendor needs one (Anthropic's format has none). */
export const messagesOutputSchemaName = 'output';

/**
 * `output_config.format` as the canonical output format: a JSON schema named `output`. Claude always holds its
 * answer to the schema, so `strict` is true where OpenAI's strict mode can take the schema too (every object closed
 * with all its properties required), else null (the vendor's best effort: OpenAI refuses a strict schema it cannot
 * enforce, which would turn a schema Claude takes into a 400).
 */
export function messagesOutputFormat(
  format: { type: 'json_schema'; schema: Record<string, unknown> } | null | undefined,
): CanonicalOutputFormat {
  if (!format) return { type: 'text' };
  return {
    type: 'json-schema',
    name: messagesOutputSchemaName,
    schema: format.schema,
    strict: isStrictCompatible(format.schema) ? true : null,
  };
}

/** Keywords whose value is one subschema, or a list or map of them. */
const singleSchemaKeywords = ['items', 'not', 'additionalItems'] as const;
const schemaListKeywords = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const;
const schemaMapKeywords = ['properties', '$defs', 'definitions'] as const;

function isStrictCompatible(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  if (schema.type === 'object' || isRecord(schema.properties)) {
    if (schema.additionalProperties !== false) return false;
    const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!properties.every((name) => required.includes(name))) return false;
  }
  const children: unknown[] = [];
  for (const keyword of singleSchemaKeywords) children.push(schema[keyword]);
  for (const keyword of schemaListKeywords) {
    const list = schema[keyword];
    if (Array.isArray(list)) children.push(...list);
  }
  for (const keyword of schemaMapKeywords) {
    const map = schema[keyword];
    if (isRecord(map)) children.push(...Object.values(map));
  }
  return children.every(isStrictCompatible);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
