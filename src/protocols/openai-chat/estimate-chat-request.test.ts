import { describe, expect, it } from 'vitest';
import {
  imageUrlTokenEstimate,
  unknownFilePages,
  pdfPageTokens,
} from '../../core/token-estimates/estimate-media-part-tokens.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import { estimateChatRequest } from './estimate-chat-request.js';

const hello = [{ role: 'user', content: 'hello there world' }];
const helloTokens = estimateTextTokens('hello there world') + 4;
const pdfData = `data:application/pdf;base64,${Buffer.from('%PDF-1.7\n').toString('base64')}`;

describe('estimateChatRequest', () => {
  it('counts a typical conversation: 4 tokens a message, its names and texts joined and counted once', () => {
    const estimate = estimateChatRequest({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', name: 'ada', content: [{ type: 'text', text: 'hello there world' }] },
      ],
    });
    expect(estimate).toEqual({
      inputTokens: 8 + estimateTextTokens('Be brief.\nada\nhello there world'),
      inlinePdfs: [],
      outputTokenCap: undefined,
      generations: 1,
      requestedImages: undefined,
      transcriptionPromptTokens: 0,
    });
  });

  it('counts tool calls, tools and the response format as their JSON', () => {
    const toolCalls = [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }];
    const tools = [{ type: 'function', function: { name: 'get_weather' } }];
    const responseFormat = { type: 'json_object' };
    const estimate = estimateChatRequest({
      messages: [{ role: 'assistant', content: null, tool_calls: toolCalls }],
      tools,
      response_format: responseFormat,
    });
    const texts = [toolCalls, tools, responseFormat].map((value) => JSON.stringify(value)).join('\n');
    expect(estimate.inputTokens).toBe(4 + estimateTextTokens(texts));
  });

  it.each([
    {
      case: 'max_completion_tokens wins over max_tokens',
      fields: { max_completion_tokens: 7, max_tokens: 100 },
      cap: 7,
    },
    { case: 'max_tokens without max_completion_tokens', fields: { max_tokens: 9 }, cap: 9 },
    { case: 'no cap: the catalog or the default decides', fields: {}, cap: undefined },
    { case: 'a zero cap is no cap', fields: { max_tokens: 0 }, cap: undefined },
  ])('output cap: $case', ({ fields, cap }) => {
    expect(estimateChatRequest({ messages: hello, ...fields }).outputTokenCap).toBe(cap);
  });

  it('generates n choices', () => {
    expect(estimateChatRequest({ messages: hello, n: 3 }).generations).toBe(3);
    expect(estimateChatRequest({ messages: hello, n: null }).generations).toBe(1);
  });

  it('counts images by their worst case and hands inline PDFs over to be counted by their pages', () => {
    const estimate = estimateChatRequest({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello there world' },
            { type: 'image_url', image_url: { url: 'https://example.test/cat.png', detail: 'low' } },
            { type: 'file', file: { file_data: pdfData } },
            { type: 'file', file: { file_id: 'file-abc' } },
          ],
        },
      ],
    });
    expect(estimate.inputTokens).toBe(helloTokens + imageUrlTokenEstimate.low + unknownFilePages * pdfPageTokens);
    expect(estimate.inlinePdfs).toEqual([pdfData]);
  });
});
