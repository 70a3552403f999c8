// A Responses conversation begun on a Gemini channel and continued on an OpenAI channel that has the Responses API
// (the body passes through there): the call ids that carry Gemini's thoughtSignature (longer than OpenAI's 64
// characters) reach OpenAI as the plain vendor call ids, on the call and on its output, so the next turn is answered.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { startGeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator } from '../simulators/openai-simulator.js';

const geminiSecret = 'AIza-mixed-gemini-upstream';
const openAiSecret = 'sk-mixed-openai-upstream';

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  strict: false,
};

describe('a Responses conversation moving from a Gemini channel to an OpenAI Responses channel', () => {
  let gateway: ContractGateway;
  let gemini: Awaited<ReturnType<typeof startGeminiSimulator>>;
  let openAi: Awaited<ReturnType<typeof startOpenAiSimulator>>;
  let client: OpenAI;

  beforeAll(async () => {
    gemini = await startGeminiSimulator({ apiKey: geminiSecret });
    openAi = await startOpenAiSimulator({ apiKey: openAiSecret });
    gateway = await startContractGateway();
    // A thinking model: its function calls carry thought signatures.
    await gateway.createChannel({
      protocol: 'gemini',
      baseUrl: gemini.url,
      secret: geminiSecret,
      models: { 'begun-on-gemini': 'gemini-thinking-sim' },
    });
    await gateway.createChannel({
      protocol: 'openai',
      baseUrl: openAi.url,
      secret: openAiSecret,
      settings: { responsesApi: 'true' },
      models: { 'continued-on-openai': 'gpt-4o' },
    });
    client = new OpenAI({ apiKey: await gateway.createKey(), baseURL: gateway.baseURL, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway.close();
    await gemini.close();
    await openAi.close();
  });

  it('answers the next turn, the OpenAI channel given the plain call id on the call and its output', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'weather in Paris' }];
    // Without include: the signature rides in the call id, as the AI SDK, LangChain and the Agents SDK get it.
    const first = await client.responses.create({
      model: 'begun-on-gemini',
      input,
      tools: [weatherTool],
      store: false,
    });
    const call = first.output.find(
      (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
    );
    expect(call?.call_id.length).toBeGreaterThan(64);
    const plainCallId = call?.call_id.slice(0, call.call_id.indexOf('__gsig')) ?? '';
    expect(plainCallId).not.toBe('');
    const second = await client.responses.create({
      model: 'continued-on-openai',
      input: [
        ...input,
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: call?.call_id ?? '', output: 'sunny' },
      ],
      tools: [weatherTool],
      store: false,
    });
    expect(second.status).toBe('completed');
    const sent = openAi.requests.at(-1)?.body as { input: Array<{ type?: string; call_id?: string }> };
    expect(sent.input.filter((item) => item.call_id !== undefined).map((item) => [item.type, item.call_id])).toEqual([
      ['function_call', plainCallId],
      ['function_call_output', plainCallId],
    ]);
  });
});
