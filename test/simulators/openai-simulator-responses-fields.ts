// Field checks for the Responses API, worded as OpenAI words them (param paths like `input[0].content[1].type`).
import { invalidRequest, type SimulatedError } from './openai-simulator-errors.js';

/** A JSON object read from a request. */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** OpenAI's 400 for a field the endpoint does not know. */
export function unknownParameter(param: string): SimulatedError {
  return invalidRequest(`Unknown parameter: '${param}'.`, param, 'unknown_parameter');
}

/** OpenAI's 400 for a required field that is absent. */
export function missingParameter(param: string): SimulatedError {
  return invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

/** OpenAI's 400 for a value of the wrong JSON type; `expected` reads like "a string" or "an object". */
export function invalidType(param: string, expected: string, value: unknown): SimulatedError {
  return invalidRequest(
    `Invalid type for '${param}': expected ${expected}, but got ${describeValue(value)} instead.`,
    param,
    'invalid_type',
  );
}

/** OpenAI's 400 for a value outside an enumeration. */
export function invalidValue(param: string, value: unknown, allowed: readonly string[]): SimulatedError {
  const listed = allowed.map((option) => `'${option}'`);
  const supported = listed.length > 1 ? `${listed.slice(0, -1).join(', ')}, and ${listed.at(-1)}` : (listed[0] ?? '');
  return invalidRequest(
    `Invalid value: '${String(value)}'. Supported values are: ${supported}.`,
    param,
    'invalid_value',
  );
}

/** Refuses every key of `object` not in `allowed`; `path` prefixes the param (empty at the top level). */
export function rejectUnknownKeys(object: JsonObject, allowed: ReadonlySet<string>, path: string): void {
  for (const key of Object.keys(object))
    if (!allowed.has(key)) throw unknownParameter(path === '' ? key : `${path}.${key}`);
}

/** An optional string field (null allowed); returns it or undefined. */
export function optionalString(object: JsonObject, key: string, param: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidType(param, 'a string', value);
  return value;
}

/** A required string field. */
export function requiredString(object: JsonObject, key: string, param: string): string {
  const value = optionalString(object, key, param);
  if (value === undefined) throw missingParameter(param);
  return value;
}

/** An optional boolean field (null allowed). */
export function optionalBoolean(object: JsonObject, key: string, param: string): boolean | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidType(param, 'a boolean', value);
  return value;
}

/** An optional value that must be one of `allowed` (null allowed). */
export function optionalEnum<Option extends string>(
  object: JsonObject,
  key: string,
  param: string,
  allowed: readonly Option[],
): Option | undefined {
  const value = optionalString(object, key, param);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalidValue(param, value, allowed);
  return value as Option;
}

/** An optional object field (null allowed). */
export function optionalObject(object: JsonObject, key: string, param: string): JsonObject | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw invalidType(param, 'an object', value);
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  return 'an unknown value';
}
