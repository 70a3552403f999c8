// Field-by-field checks of the response shapes in OpenAI's OpenAPI description (shared/oracle/openai-openapi.yaml),
// written by hand: required fields present with the right types, constants and enums as the schema states them.
import { expect } from 'vitest';

type JsonObject = Record<string, unknown>;

/** `finish_reason` values of CreateChatCompletionResponse and CreateChatCompletionStreamResponse. */
export const chatFinishReasons = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] as const;
/** `finish_reason` values of CreateCompletionResponse. */
export const completionFinishReasons = ['stop', 'length', 'content_filter'] as const;
/** `delta.role` values of ChatCompletionStreamResponseDelta. */
const deltaRoles = ['developer', 'system', 'user', 'assistant', 'tool'] as const;

/** CreateChatCompletionResponse. */
export function expectChatCompletionShape(value: unknown): void {
  const response = expectObject(value, 'chat completion');
  expectStringField(response, 'id', 'chat completion');
  expectConstantField(response, 'object', 'chat.completion', 'chat completion');
  expectIntegerField(response, 'created', 'chat completion');
  expectStringField(response, 'model', 'chat completion');
  expectOptionalStringField(response, 'system_fingerprint', 'chat completion');
  expectOptionalStringField(response, 'service_tier', 'chat completion');
  expectArrayField(response, 'choices', 'chat completion').forEach((item, position) => {
    const where = `chat completion choices[${position}]`;
    const choice = expectObject(item, where);
    expectIntegerField(choice, 'index', where);
    expectEnumField(choice, 'finish_reason', chatFinishReasons, where);
    expectNullOrObjectField(choice, 'logprobs', where);
    expectResponseMessageShape(choice.message, `${where}.message`);
  });
  if (response.usage !== undefined) expectCompletionUsageShape(response.usage, 'chat completion usage');
}

/** CreateChatCompletionStreamResponse: one chunk of a streamed chat completion. */
export function expectChatCompletionChunkShape(value: unknown): void {
  const chunk = expectObject(value, 'chat completion chunk');
  expectStringField(chunk, 'id', 'chat completion chunk');
  expectConstantField(chunk, 'object', 'chat.completion.chunk', 'chat completion chunk');
  expectIntegerField(chunk, 'created', 'chat completion chunk');
  expectStringField(chunk, 'model', 'chat completion chunk');
  expectOptionalStringField(chunk, 'system_fingerprint', 'chat completion chunk');
  expectOptionalStringField(chunk, 'service_tier', 'chat completion chunk');
  expectArrayField(chunk, 'choices', 'chat completion chunk').forEach((item, position) => {
    const where = `chat completion chunk choices[${position}]`;
    const choice = expectObject(item, where);
    expectIntegerField(choice, 'index', where);
    expectRequiredKey(choice, 'finish_reason', where);
    if (choice.finish_reason !== null) expectEnumField(choice, 'finish_reason', chatFinishReasons, where);
    if (choice.logprobs !== undefined) expectNullOrObjectField(choice, 'logprobs', where);
    expectStreamDeltaShape(choice.delta, `${where}.delta`);
  });
  if (chunk.usage !== undefined && chunk.usage !== null)
    expectCompletionUsageShape(chunk.usage, 'chat completion chunk usage');
}

/** CreateCompletionResponse (legacy); streamed chunks share the shape, with `finish_reason` null until the end. */
export function expectCompletionShape(value: unknown, options: { streamed: boolean } = { streamed: false }): void {
  const response = expectObject(value, 'completion');
  expectStringField(response, 'id', 'completion');
  expectConstantField(response, 'object', 'text_completion', 'completion');
  expectIntegerField(response, 'created', 'completion');
  expectStringField(response, 'model', 'completion');
  expectOptionalStringField(response, 'system_fingerprint', 'completion');
  expectArrayField(response, 'choices', 'completion').forEach((item, position) => {
    const where = `completion choices[${position}]`;
    const choice = expectObject(item, where);
    expectStringField(choice, 'text', where);
    expectIntegerField(choice, 'index', where);
    expectNullOrObjectField(choice, 'logprobs', where);
    expectRequiredKey(choice, 'finish_reason', where);
    if (!(options.streamed && choice.finish_reason === null))
      expectEnumField(choice, 'finish_reason', completionFinishReasons, where);
  });
  if (response.usage !== undefined && response.usage !== null)
    expectCompletionUsageShape(response.usage, 'completion usage');
}

/** CompletionUsage: the three counts are integers and the total is their sum. */
export function expectCompletionUsageShape(value: unknown, where = 'usage'): void {
  const usage = expectObject(value, where);
  const promptTokens = expectIntegerField(usage, 'prompt_tokens', where);
  const completionTokens = expectIntegerField(usage, 'completion_tokens', where);
  const totalTokens = expectIntegerField(usage, 'total_tokens', where);
  expect(totalTokens, `${where}.total_tokens must be prompt_tokens + completion_tokens`).toBe(
    promptTokens + completionTokens,
  );
  for (const detailsField of ['prompt_tokens_details', 'completion_tokens_details']) {
    if (usage[detailsField] === undefined || usage[detailsField] === null) continue;
    const details = expectObject(usage[detailsField], `${where}.${detailsField}`);
    for (const [name, count] of Object.entries(details)) {
      expect(Number.isInteger(count), `${where}.${detailsField}.${name} must be an integer`).toBe(true);
    }
  }
}

/** CreateEmbeddingResponse; `embedding` is a float array, or a base64 string when that encoding was asked for. */
export function expectEmbeddingResponseShape(value: unknown, encoding: 'float' | 'base64'): void {
  const response = expectObject(value, 'embedding response');
  expectConstantField(response, 'object', 'list', 'embedding response');
  expectStringField(response, 'model', 'embedding response');
  expectArrayField(response, 'data', 'embedding response').forEach((item, position) => {
    const where = `embedding response data[${position}]`;
    const embedding = expectObject(item, where);
    expectConstantField(embedding, 'object', 'embedding', where);
    expectIntegerField(embedding, 'index', where);
    if (encoding === 'base64') {
      expectStringField(embedding, 'embedding', where);
    } else {
      const vector = expectArrayField(embedding, 'embedding', where);
      expect(
        vector.every((number) => typeof number === 'number'),
        `${where}.embedding must hold numbers only`,
      ).toBe(true);
    }
  });
  const usage = expectObject(response.usage, 'embedding response usage');
  expectIntegerField(usage, 'prompt_tokens', 'embedding response usage');
  expectIntegerField(usage, 'total_tokens', 'embedding response usage');
}

/** ImagesResponse; every entry carries the field of the requested response format. */
export function expectImagesResponseShape(value: unknown, responseFormat: 'url' | 'b64_json'): void {
  const response = expectObject(value, 'images response');
  expectIntegerField(response, 'created', 'images response');
  expectArrayField(response, 'data', 'images response').forEach((item, position) => {
    const where = `images response data[${position}]`;
    const image = expectObject(item, where);
    if (responseFormat === 'url') {
      expect(URL.canParse(expectStringField(image, 'url', where)), `${where}.url must be a URI`).toBe(true);
    } else {
      expect(expectStringField(image, 'b64_json', where)).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    }
    expectOptionalStringField(image, 'revised_prompt', where);
  });
}

/** CreateTranscriptionResponseJson. */
export function expectTranscriptionJsonShape(value: unknown): void {
  const transcription = expectObject(value, 'transcription');
  expectStringField(transcription, 'text', 'transcription');
  if (transcription.usage !== undefined) expectTranscriptionUsageShape(transcription.usage);
}

/** CreateTranscriptionResponseVerboseJson, with its TranscriptionSegment and TranscriptionWord items. */
export function expectTranscriptionVerboseJsonShape(value: unknown): void {
  const transcription = expectObject(value, 'verbose transcription');
  expectStringField(transcription, 'language', 'verbose transcription');
  expectNumberField(transcription, 'duration', 'verbose transcription');
  expectStringField(transcription, 'text', 'verbose transcription');
  if (transcription.segments !== undefined) {
    expectArrayField(transcription, 'segments', 'verbose transcription').forEach((item, position) => {
      const where = `verbose transcription segments[${position}]`;
      const segment = expectObject(item, where);
      for (const field of ['id', 'seek']) expectIntegerField(segment, field, where);
      for (const field of ['start', 'end', 'temperature', 'avg_logprob', 'compression_ratio', 'no_speech_prob'])
        expectNumberField(segment, field, where);
      expectStringField(segment, 'text', where);
      const tokens = expectArrayField(segment, 'tokens', where);
      expect(
        tokens.every((token) => Number.isInteger(token)),
        `${where}.tokens must hold integers`,
      ).toBe(true);
    });
  }
  if (transcription.words !== undefined) {
    expectArrayField(transcription, 'words', 'verbose transcription').forEach((item, position) => {
      const where = `verbose transcription words[${position}]`;
      const word = expectObject(item, where);
      expectStringField(word, 'word', where);
      expectNumberField(word, 'start', where);
      expectNumberField(word, 'end', where);
    });
  }
  if (transcription.usage !== undefined) expectTranscriptionUsageShape(transcription.usage);
}

/** Model. */
export function expectModelShape(value: unknown): void {
  const model = expectObject(value, 'model');
  expectStringField(model, 'id', 'model');
  expectConstantField(model, 'object', 'model', 'model');
  expectIntegerField(model, 'created', 'model');
  expectStringField(model, 'owned_by', 'model');
}

/** ListModelsResponse. */
export function expectModelListShape(value: unknown): void {
  const list = expectObject(value, 'model list');
  expectConstantField(list, 'object', 'list', 'model list');
  expectArrayField(list, 'data', 'model list').forEach(expectModelShape);
}

/** The error fields of an ErrorResponse body. */
export interface ErrorFields {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** ErrorResponse: `{error: {message, type, param, code}}` with all four keys present; returns the inner error. */
export function expectErrorResponseShape(value: unknown): ErrorFields {
  const body = expectObject(value, 'error response');
  const error = expectObject(body.error, 'error response error');
  expectStringField(error, 'message', 'error');
  expectStringField(error, 'type', 'error');
  for (const field of ['param', 'code']) {
    expectRequiredKey(error, field, 'error');
    expect(error[field] === null || typeof error[field] === 'string', `error.${field} must be a string or null`).toBe(
      true,
    );
  }
  return error as unknown as ErrorFields;
}

function expectResponseMessageShape(value: unknown, where: string): void {
  const message = expectObject(value, where);
  expectConstantField(message, 'role', 'assistant', where);
  expectNullableStringField(message, 'content', where);
  expectNullableStringField(message, 'refusal', where);
  if (message.tool_calls === undefined) return;
  expectArrayField(message, 'tool_calls', where).forEach((item, position) => {
    const callWhere = `${where}.tool_calls[${position}]`;
    const call = expectObject(item, callWhere);
    expectStringField(call, 'id', callWhere);
    expectConstantField(call, 'type', 'function', callWhere);
    const calledFunction = expectObject(call.function, `${callWhere}.function`);
    expectStringField(calledFunction, 'name', `${callWhere}.function`);
    expectStringField(calledFunction, 'arguments', `${callWhere}.function`);
  });
}

function expectStreamDeltaShape(value: unknown, where: string): void {
  const delta = expectObject(value, where);
  if (delta.content !== undefined) expectNullableStringField(delta, 'content', where);
  if (delta.refusal !== undefined) expectNullableStringField(delta, 'refusal', where);
  if (delta.role !== undefined) expectEnumField(delta, 'role', deltaRoles, where);
  if (delta.tool_calls === undefined) return;
  expectArrayField(delta, 'tool_calls', where).forEach((item, position) => {
    const callWhere = `${where}.tool_calls[${position}]`;
    const call = expectObject(item, callWhere);
    expectIntegerField(call, 'index', callWhere);
    expectOptionalStringField(call, 'id', callWhere);
    if (call.type !== undefined) expectConstantField(call, 'type', 'function', callWhere);
    if (call.function === undefined) return;
    const calledFunction = expectObject(call.function, `${callWhere}.function`);
    expectOptionalStringField(calledFunction, 'name', `${callWhere}.function`);
    expectOptionalStringField(calledFunction, 'arguments', `${callWhere}.function`);
  });
}

function expectTranscriptionUsageShape(value: unknown): void {
  const usage = expectObject(value, 'transcription usage');
  expect(['duration', 'tokens'], 'transcription usage.type must be duration or tokens').toContain(usage.type);
  if (usage.type === 'duration') {
    expectNumberField(usage, 'seconds', 'transcription usage');
  } else {
    for (const field of ['input_tokens', 'output_tokens', 'total_tokens'])
      expectIntegerField(usage, field, 'transcription usage');
  }
}

function expectObject(value: unknown, where: string): JsonObject {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), `${where} must be an object`).toBe(true);
  return value as JsonObject;
}

function expectRequiredKey(record: JsonObject, field: string, where: string): void {
  expect(Object.hasOwn(record, field), `${where}.${field} is required`).toBe(true);
}

function expectStringField(record: JsonObject, field: string, where: string): string {
  expect(typeof record[field], `${where}.${field} must be a string`).toBe('string');
  return record[field] as string;
}

function expectOptionalStringField(record: JsonObject, field: string, where: string): void {
  if (record[field] !== undefined) expectStringField(record, field, where);
}

function expectNullableStringField(record: JsonObject, field: string, where: string): void {
  expectRequiredKey(record, field, where);
  expect(
    record[field] === null || typeof record[field] === 'string',
    `${where}.${field} must be a string or null`,
  ).toBe(true);
}

function expectIntegerField(record: JsonObject, field: string, where: string): number {
  expect(
    Number.isInteger(record[field]),
    `${where}.${field} must be an integer, got ${JSON.stringify(record[field])}`,
  ).toBe(true);
  expect(record[field] as number, `${where}.${field} must not be negative`).toBeGreaterThanOrEqual(0);
  return record[field] as number;
}

function expectNumberField(record: JsonObject, field: string, where: string): number {
  expect(
    typeof record[field] === 'number' && Number.isFinite(record[field]),
    `${where}.${field} must be a number`,
  ).toBe(true);
  return record[field] as number;
}

function expectArrayField(record: JsonObject, field: string, where: string): unknown[] {
  expect(Array.isArray(record[field]), `${where}.${field} must be an array`).toBe(true);
  return record[field] as unknown[];
}

function expectConstantField(record: JsonObject, field: string, constant: string, where: string): void {
  expect(record[field], `${where}.${field} must be "${constant}"`).toBe(constant);
}

function expectEnumField(record: JsonObject, field: string, allowed: readonly string[], where: string): void {
  expect(allowed, `${where}.${field} must be one of ${allowed.join(', ')}`).toContain(record[field]);
}

function expectNullOrObjectField(record: JsonObject, field: string, where: string): void {
  expectRequiredKey(record, field, where);
  const value = record[field];
  expect(
    value === null || (typeof value === 'object' && !Array.isArray(value)),
    `${where}.${field} must be an object or null`,
  ).toBe(true);
}
