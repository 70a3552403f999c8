// Scenarios of "at most one tool call" and of the routed model's limits, for every client protocol and vendor: a client
// that asks for one call sees one (the vendors without a switch answer two: the gateway keeps the first, streamed and
// not), and Claude Code's body reaches a model with a smaller output cap and no reasoning fitted to it.
import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { request } from 'undici';
import { expect } from 'vitest';
import { contractModels, readSseEvents, type ContractContext, type ContractScenario } from './contract-context.js';
import type { ContractProtocol } from './contract-targets.js';

const question = 'weather and time in Paris';
const chatTools: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
];
const responsesTools: OpenAI.Responses.FunctionTool[] = chatTools.map((tool) => ({
  type: 'function',
  name: tool.type === 'function' ? tool.function.name : '',
  parameters: { type: 'object', properties: {} },
  strict: false,
}));
const messagesTools: Anthropic.Tool[] = chatTools.map((tool) => ({
  name: tool.type === 'function' ? tool.function.name : '',
  input_schema: { type: 'object', properties: {} },
}));

/** The public model the limit scenarios ask for. */
const noReasoningModel = 'contract-no-reasoning';

/**
 * Per channel protocol, a catalog model without reasoning and its output cap (OpenAI's is the 16,384 of the issue;
 * the others are their vendors' nearest such models).
 */
const noReasoningUpstream: Record<string, { id: string; maxOutputTokens: number; capOf: (body: unknown) => unknown }> =
  {
    openai: { id: 'gpt-4o', maxOutputTokens: 16_384, capOf: (body) => field(body, 'max_completion_tokens') },
    anthropic: { id: 'claude-3-5-haiku-20241022', maxOutputTokens: 8_192, capOf: (body) => field(body, 'max_tokens') },
    gemini: {
      id: 'gemini-2.0-flash-001',
      maxOutputTokens: 8_192,
      capOf: (body) => field(field(body, 'generationConfig'), 'maxOutputTokens'),
    },
    bedrock: {
      id: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      maxOutputTokens: 8_192,
      capOf: (body) => field(field(body, 'inferenceConfig'), 'maxTokens'),
    },
  };

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

const channelsMade = new WeakSet<ContractContext>();

/** A channel of the context's vendor serving `contract-no-reasoning` as its model without reasoning (made once). */
async function ensureNoReasoningChannel(context: ContractContext): Promise<(typeof noReasoningUpstream)[string]> {
  const upstream = noReasoningUpstream[context.target.bodyProtocol ?? context.target.protocol];
  if (!upstream) throw new Error(`no model without reasoning for ${context.target.protocol}`);
  if (!channelsMade.has(context)) {
    channelsMade.add(context);
    await context.gateway.createChannel({
      protocol: context.target.protocol,
      baseUrl: context.upstream.url,
      secret: context.upstream.secret,
      settings: context.target.settings,
      models: { [noReasoningModel]: upstream.id },
    });
  }
  return upstream;
}

async function expectRefusedParam(promise: Promise<unknown>, param: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe(param);
}

const chatScenarios: ContractScenario[] = [
  {
    name: 'parallel_tool_calls false gives one tool call, streamed and not, and its round trip',
    async run({ client }) {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
      const asked = { model: contractModels.chat, messages, tools: chatTools, parallel_tool_calls: false };
      const first = await client.chat.completions.create(asked);
      expect(first.choices[0]?.finish_reason).toBe('tool_calls');
      const calls = (first.choices[0]?.message.tool_calls ?? []).filter((call) => call.type === 'function');
      expect(calls.map((call) => call.function.name)).toEqual(['get_weather']);

      const stream = await client.chat.completions.create({ ...asked, stream: true });
      const deltas: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
      const finishReasons: string[] = [];
      for await (const chunk of stream) {
        deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
        const finish = chunk.choices[0]?.finish_reason;
        if (finish) finishReasons.push(finish);
      }
      expect(new Set(deltas.map((delta) => delta.index))).toEqual(new Set([0]));
      expect(deltas.filter((delta) => delta.function?.name).map((delta) => delta.function?.name)).toEqual([
        'get_weather',
      ]);
      expect(finishReasons).toEqual(['tool_calls']);

      const second = await client.chat.completions.create({
        ...asked,
        messages: [
          ...messages,
          { role: 'assistant', content: null, tool_calls: calls },
          { role: 'tool', tool_call_id: calls[0]?.id ?? '', content: 'sunny' },
        ],
      });
      expect(second.choices[0]?.message.content).toContain('sunny');
    },
  },
  {
    name: 'reasoning_effort for a routed model without reasoning is a 400 naming it',
    async run(context) {
      await ensureNoReasoningChannel(context);
      await expectRefusedParam(
        context.client.chat.completions.create({
          model: noReasoningModel,
          messages: [{ role: 'user', content: 'hi' }],
          reasoning_effort: 'low',
        }),
        'reasoning_effort',
      );
    },
  },
];

const responsesScenarios: ContractScenario[] = [
  {
    name: 'parallel_tool_calls false gives one function call, streamed and not',
    async run({ client }) {
      const asked = {
        model: contractModels.chat,
        input: question,
        tools: responsesTools,
        parallel_tool_calls: false,
        store: false,
      };
      const first = await client.responses.create(asked);
      const calls = first.output.filter((item) => item.type === 'function_call');
      expect(calls.map((call) => call.name)).toEqual(['get_weather']);

      const stream = await client.responses.create({ ...asked, stream: true });
      const added: string[] = [];
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        if (event.type === 'response.output_item.added' && event.item.type === 'function_call')
          added.push(event.item.name);
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(added).toEqual(['get_weather']);
      expect(completed?.output.filter((item) => item.type === 'function_call')).toHaveLength(1);
    },
  },
  {
    name: 'reasoning.effort for a routed model without reasoning is a 400 naming it',
    async run(context) {
      await ensureNoReasoningChannel(context);
      await expectRefusedParam(
        context.client.responses.create({ model: noReasoningModel, input: 'hi', reasoning: { effort: 'low' } }),
        'reasoning.effort',
      );
    },
  },
];

const messagesScenarios: ContractScenario[] = [
  {
    name: 'disable_parallel_tool_use gives one tool_use, streamed and not, and its round trip',
    async run({ anthropic }) {
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }];
      const asked = {
        model: contractModels.chat,
        max_tokens: 1_024,
        messages,
        tools: messagesTools,
        tool_choice: { type: 'auto' as const, disable_parallel_tool_use: true },
      };
      const first = await anthropic.messages.create(asked);
      expect(first.stop_reason).toBe('tool_use');
      const calls = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
      expect(calls.map((call) => call.name)).toEqual(['get_weather']);

      const stream = await anthropic.messages.create({ ...asked, stream: true });
      const started: string[] = [];
      const indexes: number[] = [];
      let stopReason: string | null | undefined;
      for await (const event of stream) {
        if (event.type === 'content_block_start') {
          indexes.push(event.index);
          if (event.content_block.type === 'tool_use') started.push(event.content_block.name);
        }
        if (event.type === 'message_delta') stopReason = event.delta.stop_reason;
      }
      expect(started).toEqual(['get_weather']);
      expect(indexes).toEqual(indexes.map((_index, position) => position));
      expect(stopReason).toBe('tool_use');

      const second = await anthropic.messages.create({
        ...asked,
        messages: [
          ...messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: calls[0]?.id ?? '', content: 'sunny' }] },
        ],
      });
      expect(second.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toContain('sunny');
    },
  },
  {
    name: "Claude Code's request reaches a routed model with a smaller output cap and no reasoning, fitted to it",
    async run(context) {
      const upstream = await ensureNoReasoningChannel(context);
      const before = context.upstream.requests.length;
      // What `claude -p` sends (wave3-facts §2): always streamed, 32,000 output tokens, thinking and an effort.
      const response = await request(`${context.gateway.url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: {
          'x-api-key': context.apiKey,
          'anthropic-version': '2023-06-01',
          'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          model: noReasoningModel,
          max_tokens: 32_000,
          stream: true,
          system: [{ type: 'text', text: 'You are Claude Code.' }],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'say hi' }] }],
          tools: [messagesTools[0]],
          metadata: { user_id: 'user_contract' },
          thinking: { type: 'enabled', budget_tokens: 31_999 },
          output_config: { effort: 'high' },
          context_management: { edits: [] },
        }),
      });
      const text = await response.body.text();
      expect(response.statusCode, text).toBe(200);
      const events = readSseEvents(text).map((event) => event.event);
      expect(events[0]).toBe('message_start');
      expect(events).toContain('message_stop');
      expect(events).not.toContain('error');

      const sent = context.upstream.requests.slice(before).at(-1)?.body;
      expect(upstream.capOf(sent)).toBe(upstream.maxOutputTokens);
      const sentText = JSON.stringify(sent);
      for (const reasoningControl of ['reasoning_effort', 'thinking', 'budget_tokens'])
        expect(sentText).not.toContain(reasoningControl);
    },
  },
];

/** The scenarios of this file, per client protocol. */
export const toolAndLimitContractScenarios: Record<ContractProtocol, ContractScenario[]> = {
  chat: chatScenarios,
  responses: responsesScenarios,
  messages: messagesScenarios,
};
