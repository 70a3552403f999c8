import type { MeteredRequest, MeteredResult } from '../server/request-accounting.js';
import { emptyBillableUsage, type BillableUsage } from './billable-usage.js';
import { countTextTokens } from './count-text-tokens.js';
import { ceilingAudioMilliseconds } from './estimate-worst-case-usage.js';

/**
 * What a finished request really consumed. Vendor usage wins; a stream that ended without usage (client gone,
 * upstream cut) is counted with the tokenizer from the text generated so far; a failure with nothing
 * generated consumed nothing.
 */
export function measureBillableUsage(request: MeteredRequest, result: MeteredResult, inputTokens: number): BillableUsage {
  const { endpoint } = request;
  if (endpoint === 'images.generations' || endpoint === 'images.edits') return measureImages(request, result);
  if (endpoint === 'audio.transcriptions') return measureTranscription(request, result);
  if (result.usage) {
    return {
      ...emptyBillableUsage,
      promptTokens: result.usage.promptTokens,
      cachedPromptTokens: result.usage.cachedPromptTokens,
      completionTokens: result.usage.completionTokens,
    };
  }
  if (result.generatedText !== undefined) {
    return { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: countTextTokens(result.generatedText) };
  }
  if (result.status >= 400 || result.responseText === undefined) return emptyBillableUsage;
  // A successful answer without usage: bill the counted input and the text it returned.
  return { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: countTextTokens(extractAnswerText(result.responseText)) };
}

function measureImages(request: MeteredRequest, result: MeteredResult): BillableUsage {
  if (result.status >= 400) return emptyBillableUsage;
  const image = { size: optionalString(request.body.size), quality: optionalString(request.body.quality) };
  const parsed = safeParse(result.responseText) as { data?: unknown } | undefined;
  const requested = typeof request.body.n === 'number' ? request.body.n : Number(request.body.n ?? 1) || 1;
  const count = Array.isArray(parsed?.data) ? parsed.data.length : requested;
  return { ...emptyBillableUsage, images: Array.from({ length: count }, () => image) };
}

function measureTranscription(request: MeteredRequest, result: MeteredResult): BillableUsage {
  if (result.status >= 400) return emptyBillableUsage;
  const parsed = safeParse(result.responseText) as { duration?: unknown; usage?: { type?: unknown; seconds?: unknown } } | undefined;
  // `verbose_json` reports the exact duration; `json` answers carry OpenAI's `usage: {type: 'duration', seconds}`.
  const seconds = typeof parsed?.duration === 'number' ? parsed.duration : parsed?.usage?.type === 'duration' && typeof parsed.usage.seconds === 'number' ? parsed.usage.seconds : undefined;
  const reported = seconds !== undefined && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
  return { ...emptyBillableUsage, audioMilliseconds: reported ?? ceilingAudioMilliseconds(request) };
}

function extractAnswerText(responseText: string): string {
  const parsed = safeParse(responseText) as { choices?: Array<{ text?: unknown; message?: { content?: unknown } }> } | undefined;
  if (!Array.isArray(parsed?.choices)) return '';
  return parsed.choices.map((choice) => (typeof choice.text === 'string' ? choice.text : typeof choice.message?.content === 'string' ? choice.message.content : '')).join('');
}

function safeParse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
