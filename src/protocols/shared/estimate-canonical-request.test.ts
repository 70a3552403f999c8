import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { imageUrlTokenEstimate } from '../../core/token-estimates/estimate-media-part-tokens.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import { estimateMessagesRequest } from '../anthropic-messages/estimate-messages-request.js';
import { parseMessagesRequest } from '../anthropic-messages/parse-messages-request.js';
import { estimateChatRequest } from '../openai-chat/estimate-chat-request.js';
import { estimateResponsesRequest } from '../openai-responses/estimate-responses-request.js';
import { parseResponsesRequest } from '../openai-responses/parse-responses-request.js';
import { estimateCanonicalRequest } from './estimate-canonical-request.js';

function request(overrides: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    model: 'm',
    instructions: null,
    messages: [],
    tools: [],
    toolChoice: null,
    parallelToolCalls: null,
    outputFormat: { type: 'text' },
    reasoningEffort: null,
    maxOutputTokens: null,
    sampling: { temperature: null, topP: null },
    metadata: null,
    stream: false,
    ...overrides,
  };
}

const pdfData = `data:application/pdf;base64,${Buffer.from('%PDF-1.7\n').toString('base64')}`;

describe('estimateCanonicalRequest', () => {
  it('holds the same for a text conversation as the chat body carrying it', () => {
    const text = 'Tell me about the weather in Lisbon in late November, in some detail please.';
    const canonical = estimateCanonicalRequest(
      request({ instructions: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text }] }] }),
    );
    const chat = estimateChatRequest({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: text },
      ],
    });
    expect(canonical.inputTokens).toBe(chat.inputTokens);
  });

  it('counts an image by its worst case and tool calls, results and tools as text', () => {
    const withImage = estimateCanonicalRequest(
      request({
        messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.test/cat.png', detail: 'low' }] }],
      }),
    );
    expect(withImage.inputTokens).toBe(4 + imageUrlTokenEstimate.low);
    const empty = estimateCanonicalRequest(request({ messages: [{ role: 'assistant', content: [] }] }));
    const withTools = estimateCanonicalRequest(
      request({
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'tool-call', callId: 'c1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }],
          },
          { role: 'tool', content: [{ type: 'tool-result', callId: 'c1', output: 'sunny, 18 degrees' }] },
        ],
        tools: [{ name: 'get_weather', parameters: { type: 'object' }, strict: null }],
      }),
    );
    expect(withTools.inputTokens).toBeGreaterThan(empty.inputTokens + 10);
  });

  it('hands over inline PDFs, in messages and tool results, to be counted by their pages', () => {
    const estimate = estimateCanonicalRequest(
      request({
        messages: [
          { role: 'user', content: [{ type: 'file', data: pdfData }] },
          {
            role: 'tool',
            content: [{ type: 'tool-result', callId: 'c1', output: [{ type: 'file', data: pdfData }] }],
          },
        ],
      }),
    );
    expect(estimate.inlinePdfs).toEqual([pdfData, pdfData]);
    // Only the per-message overhead: the PDFs' tokens are billing's to count, once their pages may be.
    expect(estimate.inputTokens).toBe(8);
  });

  it('caps the output at the request’s maxOutputTokens, one generation, nothing else asked for', () => {
    expect(estimateCanonicalRequest(request({ maxOutputTokens: 77 }))).toEqual({
      inputTokens: 0,
      inlinePdfs: [],
      outputTokenCap: 77,
      generations: 1,
      requestedImages: undefined,
      transcriptionPromptTokens: 0,
    });
    expect(estimateCanonicalRequest(request({})).outputTokenCap).toBeUndefined();
  });
});

describe('the Responses and Messages estimates', () => {
  it('hold a Messages request by its system, messages and max_tokens', () => {
    const { request: parsed } = parseMessagesRequest({
      model: 'claude',
      max_tokens: 300,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello there world' }],
    });
    expect(estimateMessagesRequest(parsed)).toMatchObject({
      inputTokens: 8 + estimateTextTokens('Be brief.\nhello there world'),
      outputTokenCap: 300,
      generations: 1,
    });
  });

  it('hold a Responses request by its instructions, input and max_output_tokens', () => {
    const { request: parsed } = parseResponsesRequest({
      model: 'gpt',
      instructions: 'Be brief.',
      input: 'hello there world',
      max_output_tokens: 50,
    });
    expect(estimateResponsesRequest(parsed)).toMatchObject({
      inputTokens: 8 + estimateTextTokens('Be brief.\nhello there world'),
      outputTokenCap: 50,
      generations: 1,
    });
    const uncapped = parseResponsesRequest({ model: 'gpt', input: 'hi' }).request;
    expect(estimateResponsesRequest(uncapped).outputTokenCap).toBeUndefined();
  });
});
