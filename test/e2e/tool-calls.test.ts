import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectChatCompletionChunkShape, expectChatCompletionShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, readEventData, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-tools-channel';

function functionTool(name: string, description: string): OpenAI.Chat.ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  };
}

const weatherTool = functionTool('get_weather', 'Current weather for a city');
const timeTool = functionTool('get_local_time', 'Current local time in a city');
const question: OpenAI.Chat.ChatCompletionMessageParam = { role: 'user', content: 'weather in Lisbon' };

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: ['gpt-4o'] });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

function functionCallsOf(
  message: OpenAI.Chat.ChatCompletionMessage,
): OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] {
  return (message.tool_calls ?? []).filter(
    (call): call is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => call.type === 'function',
  );
}

describe('function calling through POST /v1/chat/completions', () => {
  it('completes a round trip: tool call, tool result, final answer', async () => {
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [question], tools: [weatherTool] });
    expectChatCompletionShape(first);
    const firstChoice = first.choices[0];
    expect(firstChoice?.finish_reason).toBe('tool_calls');
    const calls = functionCallsOf(firstChoice!.message);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.function.name).toBe('get_weather');
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({ query: 'weather in Lisbon' });

    const second = await client.chat.completions.create({
      model: 'gpt-4o',
      tools: [weatherTool],
      messages: [question, firstChoice!.message, { role: 'tool', tool_call_id: calls[0]!.id, content: 'sunny, 24 C' }],
    });
    expectChatCompletionShape(second);
    expect(second.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Tool results: sunny, 24 C' },
    });
    expect(simulator.requests[1]?.body).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', tool_calls: [{ id: calls[0]!.id }] },
        { role: 'tool', tool_call_id: calls[0]!.id },
      ],
    });
  });

  it('returns parallel tool calls, one per offered tool, with distinct ids', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool, timeTool],
    });
    const calls = functionCallsOf(completion.choices[0]!.message);
    expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_local_time']);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
  });

  it('answers several tool results in one follow-up turn', async () => {
    const first = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool, timeTool],
    });
    const message = first.choices[0]!.message;
    const toolResults = functionCallsOf(message).map((call, position): OpenAI.Chat.ChatCompletionToolMessageParam => ({
      role: 'tool',
      tool_call_id: call.id,
      content: `result ${position}`,
    }));
    const second = await client.chat.completions.create({
      model: 'gpt-4o',
      tools: [weatherTool, timeTool],
      messages: [question, message, ...toolResults],
    });
    expect(second.choices[0]?.message.content).toBe('Tool results: result 0; result 1');
  });

  it('passes parallel_tool_calls: false upstream and gets a single call', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool, timeTool],
      parallel_tool_calls: false,
    });
    expect(functionCallsOf(completion.choices[0]!.message)).toHaveLength(1);
    expect(simulator.requests[0]?.body).toMatchObject({ parallel_tool_calls: false });
  });

  it('calls exactly the function named by tool_choice', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'function', function: { name: 'get_local_time' } },
    });
    expect(functionCallsOf(completion.choices[0]!.message).map((call) => call.function.name)).toEqual([
      'get_local_time',
    ]);
    expect(simulator.requests[0]?.body).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_local_time' } },
    });
  });

  it('answers with text when tool_choice is "none"', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'Echo: weather in Lisbon' },
    });
  });

  it('rejects a tool whose function name is not allowed with a 400 naming it', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [question],
      tools: [{ type: 'function', function: { name: 'has spaces' } }],
    });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ error: { param: 'tools[0].function.name' } });
  });

  it("streams tool-call arguments in pieces that the SDK's stream helper reassembles", async () => {
    const completedArguments: Array<{ name: string; parsed: unknown }> = [];
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool, timeTool],
    });
    stream.on('tool_calls.function.arguments.done', (event) =>
      completedArguments.push({ name: event.name, parsed: JSON.parse(event.arguments) }),
    );
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = functionCallsOf(final.choices[0]!.message);
    expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_local_time']);
    expect(calls.map((call) => JSON.parse(call.function.arguments))).toEqual([
      { query: 'weather in Lisbon' },
      { query: 'weather in Lisbon' },
    ]);
    expect(completedArguments).toEqual([
      { name: 'get_weather', parsed: { query: 'weather in Lisbon' } },
      { name: 'get_local_time', parsed: { query: 'weather in Lisbon' } },
    ]);
  });

  it('relays streamed tool-call chunks in the OpenAI chunk shape, arguments spread over several chunks', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [question],
      tools: [weatherTool],
      stream: true,
    });
    const chunks = readEventData(response.text)
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data) as OpenAI.Chat.ChatCompletionChunk);
    chunks.forEach(expectChatCompletionChunkShape);
    const argumentPieces = chunks
      .flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
      .map((call) => call.function?.arguments ?? '');
    expect(argumentPieces.filter((piece) => piece.length > 0).length).toBeGreaterThan(1);
    expect(argumentPieces.join('')).toBe(JSON.stringify({ query: 'weather in Lisbon' }));
    expect(response.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
