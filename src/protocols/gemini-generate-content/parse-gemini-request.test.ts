import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import { GatewayError } from '../../core/gateway-error.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { parseGeminiCountTokensRequest } from './parse-gemini-count-tokens.js';
import { parseGeminiRequest } from './parse-gemini-request.js';

const sealer = createReasoningSealer(createSecretBox('gateway secret'));
const options = { modelId: 'gemini-test', stream: false, unsealArtefact: sealer.unseal };

function parse(body: Record<string, unknown>) {
  return parseGeminiRequest(body, options);
}

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    parse(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const user = (text: string) => ({ role: 'user', parts: [{ text }] });

describe('parseGeminiRequest', () => {
  it('maps the system instruction, turns and generationConfig to the canonical request', () => {
    const { request } = parse({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
      contents: [user('hi'), { role: 'model', parts: [{ text: 'hello' }] }, { parts: [{ text: 'again' }] }],
      generationConfig: { temperature: 0.2, topP: 0.9, topK: 4, maxOutputTokens: 77, stopSequences: ['END'], seed: 3 },
    });
    expect(request.model).toBe('gemini-test');
    expect(request.instructions).toBe('Be brief.\nBe kind.');
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ]);
    expect(request.maxOutputTokens).toBe(77);
    expect(request.sampling).toEqual({ temperature: 0.2, topP: 0.9, topK: 4, stopSequences: ['END'], seed: 3 });
    expect(request.outputFormat).toEqual({ type: 'text' });
  });

  it('ties functionResponses to their calls by id, else by name in order, with ids stable for the same history', () => {
    const body = {
      contents: [
        user('two cities'),
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
            { functionCall: { name: 'get_time', args: {}, id: 'own-id' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_time', id: 'own-id', response: { time: 'noon' } } },
            { functionResponse: { name: 'get_weather', response: { output: 'sunny' } } },
            { functionResponse: { name: 'get_weather', response: { output: 'rainy' } } },
          ],
        },
      ],
    };
    const { request } = parse(body);
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool-call', callId: 'call_1_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', callId: 'call_1_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'tool-call', callId: 'own-id', name: 'get_time', arguments: '{}' },
      ],
    });
    expect(request.messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', callId: 'own-id', output: '{"time":"noon"}' },
        { type: 'tool-result', callId: 'call_1_0', output: '{"output":"sunny"}' },
        { type: 'tool-result', callId: 'call_1_1', output: '{"output":"rainy"}' },
      ],
    });
    expect(parse(body).request.messages).toEqual(request.messages);
  });

  it('refuses a functionResponse that answers no call', () => {
    const error = refusal({
      contents: [user('x'), { role: 'user', parts: [{ functionResponse: { name: 'ghost', response: {} } }] }],
    });
    expect(error.param).toBe('contents[1].parts[0].functionResponse');
  });

  it("keeps Gemini's own thoughtSignature as it came and opens the ones the gateway sealed", () => {
    const anthropic = { producer: 'anthropic', signature: 'EqQBCgIYAhIM' };
    const { request } = parse({
      contents: [
        user('q'),
        {
          role: 'model',
          parts: [
            { text: 'thinking ', thought: true },
            { text: 'more', thought: true, thoughtSignature: sealer.seal({ artefact: anthropic }) },
            { functionCall: { name: 'f', args: {} }, thoughtSignature: 'Z2VtaW5pLXNpZw==' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
      ],
    });
    expect(request.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'thinking more', artefact: anthropic },
      {
        type: 'tool-call',
        callId: 'call_1_2',
        name: 'f',
        arguments: '{}',
        artefact: { producer: 'gemini', signature: 'Z2VtaW5pLXNpZw==' },
      },
    ]);
  });

  it('maps tools, parameters in both schema styles, and the function calling modes', () => {
    const { request } = parse({
      contents: [user('x')],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'a',
              description: 'A',
              parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } }, required: ['n'] },
            },
            { name: 'b', parametersJsonSchema: { type: 'object', properties: {} } },
            { name: 'c' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } },
    });
    expect(request.tools).toEqual([
      {
        name: 'a',
        description: 'A',
        parameters: { type: 'object', properties: { n: { type: ['integer', 'null'] } }, required: ['n'] },
        strict: null,
      },
      { name: 'b', parameters: { type: 'object', properties: {} }, strict: null },
    ]);
    expect(request.toolChoice).toEqual({ type: 'required' });
    const single = parse({
      contents: [user('x')],
      tools: [{ functionDeclarations: [{ name: 'a' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a'] } },
    });
    expect(single.request.toolChoice).toEqual({ type: 'tool', name: 'a' });
    const none = parse({ contents: [user('x')], toolConfig: { functionCallingConfig: { mode: 'NONE' } } });
    expect(none.request.toolChoice).toEqual({ type: 'none' });
  });

  it('maps JSON output: a JSON schema, an OpenAPI schema, or JSON without a schema', () => {
    const schema = { type: 'object', properties: { echo: { type: 'string' } } };
    const jsonSchema = parse({
      contents: [user('x')],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(jsonSchema.request.outputFormat).toEqual({ type: 'json-schema', name: 'response', schema, strict: null });
    const openApi = parse({
      contents: [user('x')],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { echo: { type: 'STRING' } } },
      },
    });
    expect(openApi.request.outputFormat).toEqual({ type: 'json-schema', name: 'response', schema, strict: null });
    const plainJson = parse({ contents: [user('x')], generationConfig: { responseMimeType: 'application/json' } });
    expect(plainJson.request.outputFormat).toEqual({ type: 'json-object' });
  });

  it('maps thinkingConfig to a reasoning effort, and keeps whether thoughts are shown', () => {
    const effort = (thinkingConfig: Record<string, unknown>) =>
      parse({ contents: [user('x')], generationConfig: { thinkingConfig } });
    expect(effort({ thinkingBudget: 0 }).request.reasoningEffort).toBe('none');
    expect(effort({ thinkingBudget: 2000 }).request.reasoningEffort).toBe('low');
    expect(effort({ thinkingBudget: -1 }).request.reasoningEffort).toBeNull();
    expect(effort({ thinkingLevel: 'HIGH' }).request.reasoningEffort).toBe('high');
    expect(effort({ includeThoughts: true }).includeThoughts).toBe(true);
    expect(effort({ thinkingBudget: 1024 }).includeThoughts).toBe(false);
  });

  it('keeps a thinkingBudget above 0 exactly beside the effort it reads as (for vendors that take budgets)', () => {
    const budget = (thinkingConfig: Record<string, unknown>) =>
      parse({ contents: [user('x')], generationConfig: { thinkingConfig } }).request.thinkingBudgetTokens;
    expect(budget({ thinkingBudget: 2048 })).toBe(2048);
    expect(budget({ thinkingBudget: 0 })).toBeUndefined();
    expect(budget({ thinkingBudget: -1 })).toBeUndefined();
    expect(budget({ thinkingLevel: 'LOW' })).toBeUndefined();
  });

  it('maps inline images and documents to image and file parts', () => {
    const { request } = parse({
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0' } },
          ],
        },
      ],
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'image', url: 'data:image/png;base64,iVBORw0K' },
      { type: 'file', data: 'data:application/pdf;base64,JVBERi0' },
    ]);
  });

  it('refuses what no vendor behind the gateway honours, naming the field', () => {
    expect(refusal({ contents: [user('x')], generationConfig: { candidateCount: 2 } }).param).toBe(
      'generationConfig.candidateCount',
    );
    expect(refusal({ contents: [user('x')], tools: [{ googleSearch: {} }] }).param).toBe('tools[0].googleSearch');
    expect(refusal({ contents: [user('x')], generationConfig: { responseLogprobs: true } }).param).toBe(
      'generationConfig.responseLogprobs',
    );
    expect(refusal({ contents: [user('x')], cachedContent: 'cachedContents/1' }).param).toBe('cachedContent');
    expect(refusal({ contents: [user('x')], toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } }).param).toBe(
      'toolConfig.functionCallingConfig.mode',
    );
    expect(refusal({ contents: [{ role: 'model', parts: [{ executableCode: { code: '1' } }] }] }).param).toBe(
      'contents[0].parts[0]',
    );
    expect(refusal({ contents: [] }).param).toBe('contents');
  });

  it('refuses unknown members under toolConfig and thinkingConfig by their path, instead of dropping them', () => {
    expect(refusal({ contents: [user('x')], toolConfig: { retrievalConfig: { languageCode: 'en' } } }).param).toBe(
      'toolConfig.retrievalConfig',
    );
    const streamed = { mode: 'AUTO', streamFunctionCallArguments: true };
    expect(refusal({ contents: [user('x')], toolConfig: { functionCallingConfig: streamed } }).param).toBe(
      'toolConfig.functionCallingConfig.streamFunctionCallArguments',
    );
    const thinkingConfig = { thinkingBudget: 1024, thoughtSummaries: true };
    expect(refusal({ contents: [user('x')], generationConfig: { thinkingConfig } }).param).toBe(
      'generationConfig.thinkingConfig.thoughtSummaries',
    );
  });

  it('carries safetySettings as Gemini extras, as sent; an empty list is no extra', () => {
    const safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }];
    expect(parse({ contents: [user('x')], safetySettings }).request.vendorExtras).toEqual({
      gemini: { safetySettings },
    });
    expect(parse({ contents: [user('x')], safetySettings: [] }).request.vendorExtras).toBeUndefined();
    expect(parse({ contents: [user('x')] }).request.vendorExtras).toBeUndefined();
  });

  it("refuses Vertex's labels and safety-setting members outside the Gemini API, naming them", () => {
    const labels = refusal({ contents: [user('x')], labels: { team: 'search' } });
    expect(labels.param).toBe('labels');
    expect(labels.message).toContain('Vertex');
    const method = { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE', method: 'SEVERITY' };
    expect(refusal({ contents: [user('x')], safetySettings: [method] }).param).toMatch(/^safetySettings\[0\]/);
    expect(refusal({ contents: [user('x')], safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' }] }).param).toBe(
      'safetySettings[0].threshold',
    );
  });
});

describe('parseGeminiCountTokensRequest', () => {
  it('counts a tool result without its call (part of a conversation), which generateContent refuses', () => {
    const contents = [
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'long result' } } }] },
    ];
    expect(() => parse({ contents })).toThrow(/answers no earlier functionCall/);
    const request = parseGeminiCountTokensRequest({ contents }, options);
    expect(request.messages).toEqual([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            callId: 'orphan_contents[0].parts[0].functionResponse',
            output: '{"output":"long result"}',
          },
        ],
      },
    ]);
  });
});
