// Structured output through every client protocol to every vendor: a JSON schema (from the SDKs' own zod helpers)
// reaches each vendor as its own JSON-output control and the client parses the JSON it gets back; a JSON object
// (no schema) is honoured where the vendor has a JSON mode and refused with a 400 naming the field where it has none.
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { expect } from 'vitest';
import { z } from 'zod';
import { contractModels, type ContractContext, type ContractScenario } from './contract-context.js';
import type { ContractProtocol } from './contract-targets.js';

/** What every simulator answers for JSON output: the last user text under `echo`. */
const echoAnswer = z.object({ echo: z.string() });
const prompt = 'answer in JSON please';
const maxTokens = 1_024;

/** The body the vendor received last, as parsed JSON. */
function lastUpstreamBody(context: ContractContext): Record<string, unknown> {
  return context.upstream.requests.at(-1)?.body as Record<string, unknown>;
}

/**
 * Asserts the vendor got the schema as its own JSON-output control: OpenAI `response_format` (or `text.format` on a
 * Responses pass-through), Anthropic `output_config.format`, Gemini `responseMimeType` + `responseJsonSchema`, Bedrock
 * `outputConfig.textFormat` (the schema as a JSON string).
 */
function expectSchemaReachedVendor(context: ContractContext): void {
  const body = lastUpstreamBody(context);
  const hasEchoProperty = { properties: { echo: { type: 'string' } } };
  switch (context.target.bodyProtocol ?? context.target.protocol) {
    case 'openai': {
      const format = (body.response_format ?? (body.text as { format?: unknown } | undefined)?.format) as Record<
        string,
        unknown
      >;
      expect(format.type).toBe('json_schema');
      const schema = (format.json_schema as { schema?: unknown } | undefined)?.schema ?? format.schema;
      expect(schema).toMatchObject(hasEchoProperty);
      return;
    }
    case 'anthropic':
      expect(body.output_config).toMatchObject({ format: { type: 'json_schema', schema: hasEchoProperty } });
      return;
    case 'gemini':
      expect(body.generationConfig).toMatchObject({
        responseMimeType: 'application/json',
        responseJsonSchema: hasEchoProperty,
      });
      return;
    case 'bedrock': {
      const textFormat = (body.outputConfig as { textFormat: { type: string; structure: unknown } }).textFormat;
      expect(textFormat.type).toBe('json_schema');
      const schema = (textFormat.structure as { jsonSchema: { schema: string } }).jsonSchema.schema;
      expect(JSON.parse(schema)).toMatchObject(hasEchoProperty);
      return;
    }
    default:
      throw new Error(
        `no structured-output expectation for channel protocol ${context.target.bodyProtocol ?? context.target.protocol}`,
      );
  }
}

/**
 * Vendors with a JSON mode that takes no schema: OpenAI `json_object`, Gemini's JSON MIME type, and on Claude and
 * Bedrock a forced call of the gateway's `json_answer` tool. Every vendor under contract has one.
 */
function honoursJsonObject(context: ContractContext): boolean {
  return ['openai', 'gemini', 'anthropic', 'bedrock'].includes(context.target.bodyProtocol ?? context.target.protocol);
}

/** Asserts the vendor got its own schema-less JSON mode, and the answer text is the JSON object it answered. */
function expectJsonObjectAnswer(context: ContractContext, text: string): void {
  const body = lastUpstreamBody(context);
  switch (context.target.bodyProtocol ?? context.target.protocol) {
    case 'openai':
      expect(body.response_format ?? (body.text as { format?: unknown } | undefined)?.format).toEqual({
        type: 'json_object',
      });
      expect(JSON.parse(text)).toEqual({ echo: prompt });
      return;
    case 'gemini':
      expect(body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
      expect(JSON.parse(text)).toEqual({ echo: prompt });
      return;
    case 'anthropic':
      // The simulated Claude calls a forced tool with `{query: <the user's text>}`: that input is the answer.
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'json_answer' });
      expect(JSON.parse(text)).toEqual({ query: prompt });
      return;
    case 'bedrock':
      // The same forced tool, in Converse's shape.
      expect(body.toolConfig).toMatchObject({ toolChoice: { tool: { name: 'json_answer' } } });
      expect(JSON.parse(text)).toEqual({ query: prompt });
      return;
    default:
      throw new Error(
        `no JSON-object expectation for channel protocol ${context.target.bodyProtocol ?? context.target.protocol}`,
      );
  }
}

/** Runs `call`, expecting a 400 naming `param` before any upstream request. */
async function expectRefusedBeforeUpstream(
  context: ContractContext,
  call: () => Promise<unknown>,
  param: string,
): Promise<void> {
  const requestsBefore = context.upstream.requests.length;
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  expect(apiError.status).toBe(400);
  expect(apiError.param).toBe(param);
  expect(apiError.message).toContain('json_schema');
  expect(context.upstream.requests.length).toBe(requestsBefore);
}

const chatScenarios: ContractScenario[] = [
  {
    name: 'structured output: json_schema through chat.completions.parse(zodResponseFormat)',
    async run(context) {
      const completion = await context.client.chat.completions.parse({
        model: contractModels.chat,
        messages: [{ role: 'user', content: prompt }],
        response_format: zodResponseFormat(echoAnswer, 'echo_answer'),
      });
      expect(completion.choices[0]?.message.parsed).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
  {
    name: 'structured output: json_schema streamed through chat.completions.stream',
    async run(context) {
      const stream = context.client.chat.completions.stream({
        model: contractModels.chat,
        messages: [{ role: 'user', content: prompt }],
        response_format: zodResponseFormat(echoAnswer, 'echo_answer'),
      });
      const completion = await stream.finalChatCompletion();
      expect(completion.choices[0]?.message.parsed).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
  {
    name: 'structured output: a hand-written schema with open objects reaches Claude closed, the answer still fits it',
    async run(context) {
      // What a client writes by hand or a non-strict helper sends: no `additionalProperties`, which Claude refuses.
      const schema = { type: 'object', properties: { echo: { type: 'string' } }, required: ['echo'] };
      const completion = await context.client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: prompt }],
        response_format: { type: 'json_schema', json_schema: { name: 'echo_answer', schema } },
      });
      expect(echoAnswer.parse(JSON.parse(completion.choices[0]?.message.content ?? ''))).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
      const body = lastUpstreamBody(context);
      if ((context.target.bodyProtocol ?? context.target.protocol) === 'anthropic')
        expect(body.output_config).toMatchObject({ format: { schema: { additionalProperties: false } } });
      if ((context.target.bodyProtocol ?? context.target.protocol) === 'bedrock') {
        const sent = (body.outputConfig as { textFormat: { structure: { jsonSchema: { schema: string } } } }).textFormat
          .structure.jsonSchema.schema;
        expect(JSON.parse(sent)).toMatchObject({ additionalProperties: false });
      }
    },
  },
  {
    name: 'structured output: json_object honoured, or refused naming response_format',
    async run(context) {
      const create = () =>
        context.client.chat.completions.create({
          model: contractModels.chat,
          messages: [{ role: 'user', content: prompt }],
          response_format: { type: 'json_object' },
        });
      if (!honoursJsonObject(context)) return expectRefusedBeforeUpstream(context, create, 'response_format');
      const completion = await create();
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expectJsonObjectAnswer(context, completion.choices[0]?.message.content ?? '');
      const stream = await context.client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: prompt }],
        response_format: { type: 'json_object' },
        stream: true,
      });
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
      expectJsonObjectAnswer(context, streamed);
    },
  },
];

const responsesScenarios: ContractScenario[] = [
  {
    name: 'structured output: json_schema through responses.parse(zodTextFormat)',
    async run(context) {
      const response = await context.client.responses.parse({
        model: contractModels.chat,
        input: prompt,
        text: { format: zodTextFormat(echoAnswer, 'echo_answer') },
      });
      expect(response.output_parsed).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
  {
    name: 'structured output: json_schema streamed through responses.stream',
    async run(context) {
      const stream = context.client.responses.stream({
        model: contractModels.chat,
        input: prompt,
        text: { format: zodTextFormat(echoAnswer, 'echo_answer') },
      });
      const response = await stream.finalResponse();
      expect(response.output_parsed).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
  {
    name: 'structured output: json_object honoured, or refused naming text.format',
    async run(context) {
      const create = () =>
        context.client.responses.create({
          model: contractModels.chat,
          input: prompt,
          text: { format: { type: 'json_object' } },
        });
      if (!honoursJsonObject(context)) return expectRefusedBeforeUpstream(context, create, 'text.format');
      const response = await create();
      expectJsonObjectAnswer(context, response.output_text);
    },
  },
];

const messagesScenarios: ContractScenario[] = [
  {
    name: 'structured output: output_config.format through messages.parse(zodOutputFormat)',
    async run(context) {
      const message = await context.anthropic.messages.parse({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: prompt }],
        output_config: { format: zodOutputFormat(echoAnswer) },
      });
      expect(message.parsed_output).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
  {
    name: 'structured output: output_config.format streamed through messages.stream',
    async run(context) {
      const stream = context.anthropic.messages.stream({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: prompt }],
        output_config: { format: zodOutputFormat(echoAnswer) },
      });
      const message = await stream.finalMessage();
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      expect(echoAnswer.parse(JSON.parse(text))).toEqual({ echo: prompt });
      expectSchemaReachedVendor(context);
    },
  },
];

/** The structured-output scenarios of each client protocol. */
export const structuredOutputContractScenarios: Record<ContractProtocol, ContractScenario[]> = {
  chat: chatScenarios,
  responses: responsesScenarios,
  messages: messagesScenarios,
};
