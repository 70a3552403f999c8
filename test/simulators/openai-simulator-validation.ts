// Request-field checks shared by the endpoints, with OpenAI's messages, params and codes.
import { invalidRequest } from './openai-simulator-errors.js';

/** A parsed JSON request body. */
export type RequestBody = Record<string, unknown>;

/** Ensures the body is a JSON object, as every POST endpoint requires. */
export function requireObjectBody(body: unknown): RequestBody {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as RequestBody;
  throw invalidRequest(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    null,
  );
}

/** Throws the "missing required parameter" error when the field is absent, null or an empty string. */
export function requireField(body: RequestBody, name: string): void {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    throw invalidRequest(`Missing required parameter: '${name}'.`, name, 'missing_required_parameter');
  }
}

/** Checks an optional decimal field lies within [minimum, maximum]. */
export function checkDecimalRange(body: RequestBody, name: string, minimum: number, maximum: number): void {
  const value = body[name];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number') throw invalidType(name, 'a decimal', value);
  if (value < minimum)
    throw outOfRange(name, 'decimal below minimum value', `>= ${minimum}`, value, 'decimal_below_min_value');
  if (value > maximum)
    throw outOfRange(name, 'decimal above maximum value', `<= ${maximum}`, value, 'decimal_above_max_value');
}

/** Checks an optional integer field lies within [minimum, maximum]. */
export function checkIntegerRange(
  body: RequestBody,
  name: string,
  minimum: number,
  maximum = Number.MAX_SAFE_INTEGER,
): void {
  const value = body[name];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(name, 'an integer', value);
  if (value < minimum)
    throw outOfRange(name, 'integer below minimum value', `>= ${minimum}`, value, 'integer_below_min_value');
  if (value > maximum)
    throw outOfRange(name, 'integer above maximum value', `<= ${maximum}`, value, 'integer_above_max_value');
}

/** `stream_options` is only allowed together with `stream: true`. */
export function checkStreamOptions(body: RequestBody): void {
  if (body.stream_options === undefined || body.stream_options === null || body.stream === true) return;
  throw invalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
}

/** The checks every text-generating endpoint (chat and legacy completions) shares. */
export function checkSamplingFields(body: RequestBody): void {
  checkDecimalRange(body, 'temperature', 0, 2);
  checkDecimalRange(body, 'top_p', 0, 1);
  checkIntegerRange(body, 'n', 1, 128);
  checkIntegerRange(body, 'max_tokens', 1);
  checkIntegerRange(body, 'max_completion_tokens', 1);
  checkStreamOptions(body);
}

/** Whether the client asked for a final usage chunk in a stream. */
export function includesStreamUsage(body: RequestBody): boolean {
  const streamOptions = body.stream_options as { include_usage?: unknown } | null | undefined;
  return streamOptions?.include_usage === true;
}

/** The `n` field, 1 when absent. */
export function choiceCountOf(body: RequestBody): number {
  return typeof body.n === 'number' ? body.n : 1;
}

function invalidType(name: string, expected: string, value: unknown) {
  return invalidRequest(
    `Invalid type for '${name}': expected ${expected}, but got ${describeType(value)} instead.`,
    name,
    'invalid_type',
  );
}

function outOfRange(name: string, problem: string, expectation: string, value: number, code: string) {
  return invalidRequest(
    `Invalid '${name}': ${problem}. Expected a value ${expectation}, but got ${value} instead.`,
    name,
    code,
  );
}

function describeType(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a decimal' : 'an unknown value';
}
