import { describe, expect, it } from 'vitest';
import { countTextTokens, tokenizerCharacterLimit } from '../../src/billing/count-text-tokens.js';
import { estimateTextTokens } from '../../src/core/token-estimates/estimate-text-tokens.js';
import { imageUrlTokenEstimate, pdfPageTokens } from '../../src/core/token-estimates/estimate-media-part-tokens.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import { findUncountedAnswerText } from '../../src/billing/find-uncounted-answer-text.js';
import { measureBillableUsage } from '../../src/billing/measure-billable-usage.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import type { MeteredEndpoint, MeteredRequest, MeteredResult } from '../../src/billing/request-accounting.js';
import { createPdfFilePart, createTestPdf } from './create-test-pdf.js';
import { requestEstimateOf } from './request-estimate-of-body.js';

const model: CatalogModel = { id: 'm', ownedBy: 'v', kind: 'chat', created: 0, inputModalities: ['text'] };

function meteredRequest(
  endpoint: MeteredEndpoint,
  body: Record<string, unknown>,
  overrides: Partial<MeteredRequest> = {},
): MeteredRequest {
  return {
    principal: { apiKeyId: 'k', userId: 'u', groupId: 'g', groupName: 'g', expiresAt: null, allowedModels: null },
    model,
    endpoint,
    estimate: requestEstimateOf(endpoint, body),
    uploadedBytes: 0,
    uploadedAudioSeconds: undefined,
    streamed: false,
    clientIp: '127.0.0.1',
    receivedAt: 0,
    ...overrides,
  };
}

const hello = [{ role: 'user', content: 'hello there world' }];
const helloTokens = estimateTextTokens('hello there world') + 4;

describe('estimateWorstCaseUsage', () => {
  it.each([
    {
      case: 'max_completion_tokens wins over max_tokens',
      body: { messages: hello, max_completion_tokens: 7, max_tokens: 100 },
      model,
      completion: 7,
    },
    {
      case: 'max_tokens when no max_completion_tokens',
      body: { messages: hello, max_tokens: 9 },
      model,
      completion: 9,
    },
    {
      case: "the model's output cap when the request gives none",
      body: { messages: hello },
      model: { ...model, maxOutputTokens: 300 },
      completion: 300,
    },
    { case: 'the default of 4096 when nobody caps the output', body: { messages: hello }, model, completion: 4_096 },
    {
      case: "no more than the model's output cap when the request asks for more (Claude Code's 32,000 of a 16,384 model)",
      body: { messages: hello, max_tokens: 32_000 },
      model: { ...model, maxOutputTokens: 16_384 },
      completion: 16_384,
    },
    {
      case: 'n choices multiply the output allowance',
      body: { messages: hello, max_tokens: 10, n: 3 },
      model,
      completion: 30,
    },
  ])('chat: $case', ({ body, model: catalogModel, completion }) => {
    const { usage, inputTokens } = estimateWorstCaseUsage(
      meteredRequest('chat.completions', body, { model: catalogModel }),
    );
    expect(inputTokens).toBe(helloTokens);
    expect(usage.promptTokens).toBe(helloTokens);
    expect(usage.completionTokens).toBe(completion);
  });

  it('counts an image part by its size and never tokenizes its data', () => {
    const image = (size: number) => ({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${'A'.repeat(size)}` },
    });
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hello there world' }, image(100_000)] }];
    expect(estimateWorstCaseUsage(meteredRequest('chat.completions', { messages, max_tokens: 1 })).inputTokens).toBe(
      helloTokens + imageUrlTokenEstimate.high,
    );
    const large = [{ role: 'user', content: [{ type: 'text', text: 'hello there world' }, image(8_000_000)] }];
    expect(
      estimateWorstCaseUsage(meteredRequest('chat.completions', { messages: large, max_tokens: 1 })).inputTokens,
    ).toBe(helloTokens + 6_000);
  });

  it('counts a PDF file part by its pages', () => {
    const messages = [
      {
        role: 'user',
        content: [{ type: 'text', text: 'hello there world' }, createPdfFilePart(createTestPdf({ pages: 40 }))],
      },
    ];
    expect(estimateWorstCaseUsage(meteredRequest('chat.completions', { messages, max_tokens: 1 })).inputTokens).toBe(
      helloTokens + 40 * pdfPageTokens,
    );
  });

  it.each([
    { case: 'one completion', body: { prompt: 'hi', max_tokens: 10 }, completion: 10 },
    { case: 'n completions', body: { prompt: 'hi', max_tokens: 10, n: 2 }, completion: 20 },
    {
      case: 'best_of candidates are generated server-side',
      body: { prompt: 'hi', max_tokens: 10, best_of: 5 },
      completion: 50,
    },
    {
      case: 'best_of with n returns n of best_of candidates',
      body: { prompt: 'hi', max_tokens: 10, n: 2, best_of: 4 },
      completion: 40,
    },
    {
      case: 'each prompt of a batch gets its own completions',
      body: { prompt: ['a', 'b', 'c'], max_tokens: 10, best_of: 2 },
      completion: 60,
    },
    { case: 'a prompt of token ids is one prompt', body: { prompt: [1, 2, 3], max_tokens: 10 }, completion: 10 },
  ])('legacy completions: $case', ({ body, completion }) => {
    expect(estimateWorstCaseUsage(meteredRequest('completions', body)).usage.completionTokens).toBe(completion);
  });

  it('estimates input from its UTF-8 length, three bytes a token', () => {
    expect(estimateTextTokens('hello there world')).toBe(6);
    expect(estimateTextTokens('日本語')).toBe(3);
    expect(estimateTextTokens('')).toBe(0);
  });

  it('counts generated text with the tokenizer, and very large texts from their length', () => {
    expect(countTextTokens('hello there world')).toBe(3);
    const text = 'x'.repeat(tokenizerCharacterLimit * 3 + 1);
    expect(countTextTokens(text)).toBe(Math.ceil(text.length / 3));
  });

  it('holds embeddings by their input tokens only', () => {
    const { usage } = estimateWorstCaseUsage(meteredRequest('embeddings', { input: ['one two', 'three'] }));
    expect(usage.promptTokens).toBe(estimateTextTokens('one two') + estimateTextTokens('three'));
    expect(usage.completionTokens).toBe(0);
  });

  it('holds n images of the asked size and quality', () => {
    const { usage } = estimateWorstCaseUsage(
      meteredRequest('images.generations', { prompt: 'a cat', n: 3, size: '1024x1024', quality: 'hd' }),
    );
    expect(usage.images).toEqual([1, 2, 3].map(() => ({ size: '1024x1024', quality: 'hd' })));
  });

  it('holds audio by its measured duration, else by a ceiling of one second per 2000 bytes', () => {
    expect(
      estimateWorstCaseUsage(meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 2.0004 })).usage
        .audioMilliseconds,
    ).toBe(2_001);
    expect(
      estimateWorstCaseUsage(meteredRequest('audio.transcriptions', {}, { uploadedBytes: 10_001 })).usage
        .audioMilliseconds,
    ).toBe(5_001);
  });
});

describe('measureBillableUsage', () => {
  const result: MeteredResult = {
    channelId: 'c',
    status: 200,
    errorCode: undefined,
    usage: undefined,
    generatedText: undefined,
    firstByteAt: 1,
    finishedAt: 2,
    clientAborted: false,
    answerUsage: undefined,
  };
  const chat = meteredRequest('chat.completions', { messages: hello });

  it.each([
    {
      case: 'vendor usage wins',
      result: {
        ...result,
        usage: { promptTokens: 5, completionTokens: 6, totalTokens: 11, cachedPromptTokens: 2, reasoningTokens: 0 },
      },
      text: undefined,
      expected: { promptTokens: 5, completionTokens: 6, cachedPromptTokens: 2 },
    },
    {
      case: 'a stream without usage is counted from its text',
      result: { ...result, status: 499, clientAborted: true, generatedText: 'hello there' },
      text: 'hello there',
      expected: { promptTokens: 10, completionTokens: 7, cachedPromptTokens: 0 },
    },
    {
      case: 'a failure with nothing generated costs nothing',
      result: { ...result, status: 500, errorCode: 'server_error' },
      text: undefined,
      expected: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
    },
    {
      case: 'a success without usage bills counted input and answer',
      result: { ...result, answerUsage: { text: 'hello there' } },
      text: 'hello there',
      expected: { promptTokens: 10, completionTokens: 7, cachedPromptTokens: 0 },
    },
  ])('$case', ({ result: finished, text, expected }) => {
    // The text to count is found first; its tokens (7 here, whatever the counter said) are what the answer costs.
    expect(findUncountedAnswerText(chat, finished)).toBe(text);
    expect(measureBillableUsage(chat, finished, 10, undefined, text === undefined ? undefined : 7)).toMatchObject(
      expected,
    );
  });

  it('refuses to measure an answer without usage before its text was counted', () => {
    expect(() =>
      measureBillableUsage(chat, { ...result, status: 499, clientAborted: true, generatedText: 'hello there' }, 10),
    ).toThrow(/token count/);
  });

  it('bills transcriptions by the reported duration or the usage seconds', () => {
    const audio = meteredRequest('audio.transcriptions', {}, { uploadedBytes: 1_000_000, uploadedAudioSeconds: 1 });
    expect(
      measureBillableUsage(audio, { ...result, answerUsage: { transcription: { seconds: 1.2345 } } }, 0)
        .audioMilliseconds,
    ).toBe(1_235);
    expect(
      measureBillableUsage(audio, { ...result, answerUsage: { transcription: { seconds: 3 } } }, 0).audioMilliseconds,
    ).toBe(3_000);
    expect(measureBillableUsage(audio, { ...result, status: 400 }, 0).audioMilliseconds).toBe(0);
  });

  it('bills images by the number returned', () => {
    const images = meteredRequest('images.generations', { prompt: 'x', n: 4, size: '256x256' });
    expect(measureBillableUsage(images, { ...result, answerUsage: { images: 2 } }, 0).images).toHaveLength(2);
  });
});
