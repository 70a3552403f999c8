import { describe, expect, it } from 'vitest';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import {
  transcriptionAudioTokensPerSecond,
  transcriptionOutputTokensPerSecond,
} from '../../src/billing/estimate-transcription-usage.js';
import { findUncountedAnswerText } from '../../src/billing/find-uncounted-answer-text.js';
import { measureBillableUsage } from '../../src/billing/measure-billable-usage.js';
import { readOpenAiWireAnswerUsage } from '../../src/dispatch/read-openai-wire-answer-usage.js';
import type { ModelPrice } from '../../src/billing/model-price.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import type { MeteredEndpoint, MeteredRequest, MeteredResult } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';

const model: CatalogModel = { id: 'm', ownedBy: 'v', kind: 'any', created: 0, inputModalities: ['text'] };

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

const finished: MeteredResult = {
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
/** The client left after the request was sent, and the vendor's answer never came (error, timeout). */
const abandonedUnanswered: MeteredResult = {
  ...finished,
  status: 499,
  errorCode: 'client_closed_request',
  clientAborted: true,
  sentUpstream: true,
  firstByteAt: undefined,
};
const chat = meteredRequest('chat.completions', { messages: [{ role: 'user', content: 'hello' }] });
const tokenPrice: ModelPrice = {
  modelId: 'm',
  inputPerMillion: 1_000_000,
  cachedInputPerMillion: 1_000_000,
  cacheWritePerMillion: 1_000_000,
  outputPerMillion: 1_000_000,
  imagePrices: {},
  audioPerMinute: 60_000,
  videoPerSecond: 0,
};

describe('measureBillableUsage: vendor usage', () => {
  it('keeps cache reads and cache writes apart, as the vendor reported them', () => {
    const usage = {
      promptTokens: 100,
      completionTokens: 7,
      totalTokens: 107,
      cachedPromptTokens: 40,
      reasoningTokens: 0,
      cacheWritePromptTokens: 25,
    };
    expect(measureBillableUsage(chat, { ...finished, usage }, 10)).toMatchObject({
      promptTokens: 100,
      cachedPromptTokens: 40,
      cacheWritePromptTokens: 25,
      completionTokens: 7,
    });
  });
});

describe('measureBillableUsage: a client that left', () => {
  it('is billed the usage of the answer the vendor still sent', () => {
    const usage = { promptTokens: 3, completionTokens: 20, totalTokens: 23, cachedPromptTokens: 0, reasoningTokens: 0 };
    expect(measureBillableUsage(chat, { ...abandonedUnanswered, usage, answerUsage: {} }, 10)).toMatchObject({
      promptTokens: 3,
      completionTokens: 20,
    });
  });

  it('is billed at least the estimated input once the request was sent, when no usage can be had', () => {
    expect(measureBillableUsage(chat, abandonedUnanswered, 10)).toMatchObject({
      promptTokens: 10,
      completionTokens: 0,
    });
    const images = meteredRequest('images.generations', { prompt: 'a cat', n: 2 });
    expect(measureBillableUsage(images, abandonedUnanswered, 4)).toMatchObject({ promptTokens: 4, images: [] });
  });

  it('is billed nothing when it left before the request was sent', () => {
    expect(measureBillableUsage(chat, { ...abandonedUnanswered, sentUpstream: false }, 10)).toMatchObject({
      promptTokens: 0,
      completionTokens: 0,
    });
  });

  it('is billed the images the vendor still returned', () => {
    const images = meteredRequest('images.generations', { prompt: 'a cat', n: 4, size: '256x256' });
    expect(measureBillableUsage(images, { ...abandonedUnanswered, answerUsage: { images: 3 } }, 4).images).toHaveLength(
      3,
    );
  });

  it('is billed the uploaded audio for a transcription the vendor never answered', () => {
    const audio = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 2.5 });
    expect(measureBillableUsage(audio, abandonedUnanswered, 0).audioMilliseconds).toBe(2_500);
  });

  it('is billed nothing for a vendor failure when it stayed', () => {
    expect(
      measureBillableUsage(chat, { ...finished, status: 502, errorCode: 'server_error', sentUpstream: true }, 10),
    ).toMatchObject({ promptTokens: 0 });
  });
});

describe('measureBillableUsage: transcriptions', () => {
  // The vendor's body goes through the edge that reads it (dispatch), as in the gateway: billing sees typed usage only.
  const answered = (body: unknown): MeteredResult => ({
    ...finished,
    answerUsage: readOpenAiWireAnswerUsage(
      '/audio/transcriptions',
      typeof body === 'string' ? body : JSON.stringify(body),
      undefined,
    ),
  });

  it('bills the duration the vendor reports, and the decoded upload only when it reports none', () => {
    const decoded = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 1, uploadedBytes: 16_044 });
    expect(measureBillableUsage(decoded, answered('plain transcript'), 0).audioMilliseconds).toBe(1_000);
    expect(measureBillableUsage(decoded, answered({ text: 'x', duration: 0.001 }), 0).audioMilliseconds).toBe(1);
    expect(measureBillableUsage(decoded, answered({ text: 'x', duration: 2.5 }), 0).audioMilliseconds).toBe(2_500);
  });

  it("prefers the vendor's billed seconds (usage) over verbose_json's exact duration, so every format costs the same", () => {
    const decoded = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 8.47 });
    const verbose = { text: 'x', duration: 8.47, usage: { type: 'duration', seconds: 9 } };
    expect(measureBillableUsage(decoded, answered(verbose), 0).audioMilliseconds).toBe(9_000);
    expect(
      measureBillableUsage(decoded, answered({ text: 'x', usage: { type: 'duration', seconds: 9 } }), 0)
        .audioMilliseconds,
    ).toBe(9_000);
  });

  it('bills an upload it cannot decode by the duration the vendor reports, never by the bytes-based floor', () => {
    // 20 MB of compressed audio: 10,000 s by the 2,000-bytes-a-second floor that sizes its hold.
    const undecoded = meteredRequest('audio.transcriptions', {}, { uploadedBytes: 20_000_000 });
    expect(
      measureBillableUsage(undecoded, answered({ text: 'x', usage: { type: 'duration', seconds: 9 } }), 0)
        .audioMilliseconds,
    ).toBe(9_000);
    expect(
      measureBillableUsage(undecoded, answered({ text: 'x', duration: 9, segments: [] }), 0).audioMilliseconds,
    ).toBe(9_000);
    expect(
      measureBillableUsage(undecoded, answered({ text: 'x', usage: { type: 'duration', seconds: 20_000 } }), 0)
        .audioMilliseconds,
    ).toBe(20_000_000);
  });

  it('charges the hold (the bytes-based ceiling) for an undecodable upload the vendor reports no usage for', () => {
    const undecoded = meteredRequest('audio.transcriptions', {}, { uploadedBytes: 10_000 });
    expect(measureBillableUsage(undecoded, answered('plain transcript'), 0).audioMilliseconds).toBe(5_000);
    expect(estimateWorstCaseUsage(undecoded).usage.audioMilliseconds).toBe(5_000);
  });

  it('prices token-typed usage by its tokens, not by the minute', () => {
    const audio = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 60 });
    const usage = {
      type: 'tokens',
      input_tokens: 700,
      input_token_details: { text_tokens: 10, audio_tokens: 690 },
      output_tokens: 120,
      total_tokens: 820,
    };
    const measured = measureBillableUsage(audio, answered({ text: 'x', usage }), 0, tokenPrice);
    expect(measured).toMatchObject({ promptTokens: 700, completionTokens: 120, audioMilliseconds: 0 });
    // Streamed transcriptions end with the usage in their last event.
    const events = `data: {"type":"transcript.text.delta","delta":"x"}\n\ndata: {"type":"transcript.text.done","text":"x","usage":${JSON.stringify(usage)}}\n\n`;
    expect(measureBillableUsage(audio, answered(events), 0, tokenPrice)).toMatchObject({
      promptTokens: 700,
      completionTokens: 120,
      audioMilliseconds: 0,
    });
  });

  it('bills token-typed usage by the minute when the model has no token prices, so it is never free', () => {
    const audio = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 60 });
    const usage = { type: 'tokens', input_tokens: 700, output_tokens: 120, total_tokens: 820 };
    const minuteOnly = {
      ...tokenPrice,
      inputPerMillion: 0,
      cachedInputPerMillion: 0,
      cacheWritePerMillion: 0,
      outputPerMillion: 0,
    };
    expect(measureBillableUsage(audio, answered({ text: 'x', usage }), 0, minuteOnly)).toMatchObject({
      promptTokens: 0,
      audioMilliseconds: 60_000,
    });
  });
});

describe('measureBillableUsage: typed answer usage alone', () => {
  // No vendor text reaches billing: each measure below comes from the typed fields the dispatch edge filled.
  it('bills the images the edge counted, at the size and quality asked for', () => {
    const images = meteredRequest('images.generations', { prompt: 'a cat', n: 4, size: '1024x1024', quality: 'hd' });
    expect(measureBillableUsage(images, { ...finished, answerUsage: { images: 3 } }, 0).images).toEqual([
      { size: '1024x1024', quality: 'hd' },
      { size: '1024x1024', quality: 'hd' },
      { size: '1024x1024', quality: 'hd' },
    ]);
    // An answer the edge could not count is billed the `n` asked for.
    expect(measureBillableUsage(images, { ...finished, answerUsage: {} }, 0).images).toHaveLength(4);
  });

  it("bills a transcription's reported seconds or tokens, and the upload when it reported neither", () => {
    const audio = meteredRequest('audio.transcriptions', {}, { uploadedAudioSeconds: 60 });
    const seconds = { ...finished, answerUsage: { transcription: { seconds: 9.0001 } } };
    expect(measureBillableUsage(audio, seconds, 0).audioMilliseconds).toBe(9_001);
    const tokens = { ...finished, answerUsage: { transcription: { tokens: { inputTokens: 700, outputTokens: 120 } } } };
    expect(measureBillableUsage(audio, tokens, 0, tokenPrice)).toMatchObject({
      promptTokens: 700,
      completionTokens: 120,
      audioMilliseconds: 0,
    });
    expect(measureBillableUsage(audio, { ...finished, answerUsage: { transcription: {} } }, 0)).toMatchObject({
      audioMilliseconds: 60_000,
    });
  });

  it('counts the answer text the edge extracted when the answer came without usage', () => {
    const result = { ...finished, answerUsage: { text: 'hello there' } };
    expect(findUncountedAnswerText(chat, result)).toBe('hello there');
    expect(measureBillableUsage(chat, result, 10, undefined, 2)).toMatchObject({
      promptTokens: 10,
      completionTokens: 2,
    });
    // With usage, nothing is counted; without an answer, there is nothing to count.
    const usage = { promptTokens: 3, completionTokens: 4, totalTokens: 7, cachedPromptTokens: 0, reasoningTokens: 0 };
    expect(findUncountedAnswerText(chat, { ...result, usage })).toBeUndefined();
    expect(findUncountedAnswerText(chat, { ...finished, status: 502 })).toBeUndefined();
  });
});

describe('estimateWorstCaseUsage: transcriptions', () => {
  it('holds the audio by the minute and, for models billed by tokens, audio and transcript tokens as well', () => {
    const audio = meteredRequest('audio.transcriptions', { prompt: 'names: Ada' }, { uploadedAudioSeconds: 59.5 });
    const { usage } = estimateWorstCaseUsage(audio);
    expect(usage.audioMilliseconds).toBe(59_500);
    expect(usage.promptTokens).toBeGreaterThan(60 * transcriptionAudioTokensPerSecond);
    expect(usage.completionTokens).toBe(60 * transcriptionOutputTokensPerSecond);
    // The hold covers either way of billing it.
    const tokenUsage = { ...usage, audioMilliseconds: 0, promptTokens: 60 * 17, completionTokens: 60 * 4 };
    expect(calculateRequestCost(usage, tokenPrice)).toBeGreaterThan(calculateRequestCost(tokenUsage, tokenPrice));
  });
});
