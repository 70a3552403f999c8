import { describe, expect, it } from 'vitest';
import type { VendorCall } from '../vendor-adapter.js';
import { chatAnswerOfParts } from '../../../test/helpers/chat-answer-of-parts.js';
import { decodeGeminiResponse as decodeParts } from './decode-gemini-response.js';
import { geminiEmbeddings } from './gemini-embeddings.js';
import { mapGeminiFailure } from './map-gemini-failure.js';

/** The vendor answer as a chat client receives it (folded and encoded as dispatch does), with the usage billing reads. */
function decodeGeminiResponse(bodyText: string, vendorCall: VendorCall) {
  return chatAnswerOfParts(decodeParts(bodyText, vendorCall), vendorCall.publicModelId);
}

const call: VendorCall = {
  channel: { baseUrl: 'https://gemini.example.test/v1beta', secret: 'AIza-secret', settings: {} },
  upstreamModelId: 'gemini-2.5-pro',
  publicModelId: 'gemini-pro',
  maxOutputTokens: undefined,
  stream: false,
  clock: () => 1_700_000_000_000,
};

describe('decodeGeminiResponse', () => {
  it('maps thoughts, text and a function call with their thought signatures as Gemini artefacts, and usage with thoughts and cache', () => {
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'thinking…', thought: true, thoughtSignature: 'dGhvdWdodA==' },
              { text: 'Sunny ' },
              { text: 'today.' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2ln' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 7,
        cachedContentTokenCount: 60,
        totalTokenCount: 127,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'abc123',
    };
    const decoded = decodeGeminiResponse(JSON.stringify(response), call);
    expect(decoded.answer.blocks).toEqual([
      {
        type: 'reasoning',
        text: 'thinking…',
        artefact: { producer: 'gemini', signature: 'dGhvdWdodA==' },
        ended: true,
      },
      { type: 'text', text: 'Sunny today.', ended: true },
      // The id stays plain: each client protocol carries the artefact its own way (chat: in the id it shows).
      {
        type: 'tool-call',
        callId: 'call_abc123_0_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        artefact: { producer: 'gemini', signature: 'c2ln' },
        ended: true,
      },
    ]);
    expect(decoded.answer.finish).toEqual({ reason: 'tool-calls', rawReason: 'STOP' });
    expect(decoded.completion.choices[0]).toMatchObject({
      message: { content: 'Sunny today.', tool_calls: [{ id: 'call_abc123_0_0__sig_gemini_c2ln' }] },
      finish_reason: 'tool_calls',
    });
    expect(decoded.usage).toEqual({
      promptTokens: 100,
      completionTokens: 27,
      totalTokens: 127,
      cachedPromptTokens: 60,
      reasoningTokens: 7,
    });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['OTHER', 'stop'],
  ])('maps finishReason %s to %s', (finishReason, expected) => {
    const body = JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason, index: 0 }],
      responseId: 'r',
    });
    expect(decodeGeminiResponse(body, call).completion.choices[0]?.finish_reason).toBe(expected);
  });

  it('answers a blocked prompt with one empty content_filter choice', () => {
    const body = JSON.stringify({
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
      responseId: 'r',
    });
    const choice = decodeGeminiResponse(body, call).completion.choices[0];
    expect(choice?.finish_reason).toBe('content_filter');
    expect(choice?.message.content).toBeNull();
  });
});

describe('geminiEmbeddings', () => {
  const request = { model: 'embed', input: ['hello', 'world!'], dimensions: 3 };
  const embeddingCall = { ...call, upstreamModelId: 'gemini-embedding-001' };

  it('sends one batchEmbedContents request per input with outputDimensionality', () => {
    const encoded = geminiEmbeddings.encode(request, embeddingCall) as { url: string; body: string };
    expect(encoded.url).toBe('https://gemini.example.test/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(JSON.parse(encoded.body)).toMatchInlineSnapshot(`
      {
        "requests": [
          {
            "content": {
              "parts": [
                {
                  "text": "hello",
                },
              ],
            },
            "model": "models/gemini-embedding-001",
            "outputDimensionality": 3,
          },
          {
            "content": {
              "parts": [
                {
                  "text": "world!",
                },
              ],
            },
            "model": "models/gemini-embedding-001",
            "outputDimensionality": 3,
          },
        ],
      }
    `);
  });

  it('answers base64 as little-endian Float32 bytes, and estimates usage the vendor does not give', () => {
    const body = JSON.stringify({ embeddings: [{ values: [1, -2, 0.5] }, { values: [0, 0, 0] }] });
    const decoded = geminiEmbeddings.decode(body, { ...request, encoding_format: 'base64' }, embeddingCall);
    const first = decoded.response.data[0]?.embedding as string;
    const bytes = Buffer.from(first, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4), bytes.readFloatLE(8)]).toEqual([1, -2, 0.5]);
    expect(decoded.response.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    expect(geminiEmbeddings.decode(body, request, embeddingCall).response.data[0]?.embedding).toEqual([1, -2, 0.5]);
  });
});

describe('mapGeminiFailure', () => {
  const body = (code: number, status: string, message: string, reason?: string) =>
    JSON.stringify({
      error: {
        code,
        message,
        status,
        details: reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }] : [],
      },
    });

  it.each([
    [400, 'INVALID_ARGUMENT', 'final-failure', 'invalid_request_error'],
    [403, 'PERMISSION_DENIED', 'retryable-failure', 'service_unavailable'],
    [404, 'NOT_FOUND', 'retryable-failure', 'model_not_found'],
    [429, 'RESOURCE_EXHAUSTED', 'retryable-failure', 'rate_limit_exceeded'],
    [500, 'INTERNAL', 'retryable-failure', 'server_error'],
    [503, 'UNAVAILABLE', 'retryable-failure', 'service_unavailable'],
  ])('maps %i %s to a %s %s', (status, statusName, kind, code) => {
    const result = mapGeminiFailure(status, body(status, statusName, 'problem'), undefined);
    expect(result.kind).toBe(kind);
    if (result.kind === 'success') throw new Error('unexpected success');
    expect(result.error.code).toBe(code);
  });

  it("treats Gemini's 400 API_KEY_INVALID as the channel's credentials (retryable 503), not the client's request", () => {
    const result = mapGeminiFailure(
      400,
      body(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'),
      undefined,
    );
    expect(result.kind).toBe('retryable-failure');
    if (result.kind === 'success') throw new Error('unexpected success');
    expect(result.error.status).toBe(503);
  });
});
