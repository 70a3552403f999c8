import type { TranscriptionUsage } from '../core/answer-usage.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { MeteredRequest, MeteredResult } from './request-accounting.js';
import { emptyBillableUsage, type BillableUsage } from './billable-usage.js';
import { findUncountedAnswerText } from './find-uncounted-answer-text.js';
import { measureUploadedAudioMilliseconds } from './estimate-transcription-usage.js';
import type { ModelPrice } from './model-price.js';

/**
 * What a finished request really consumed. Vendor usage wins (cache reads and writes kept apart, each has its own
 * price); a stream that ended without usage (client gone, upstream cut) is counted with the tokenizer from the text
 * generated so far plus the estimated input: the caller counts that text (`findUncountedAnswerText`, in the tokenizer
 * worker) and passes its tokens as `answerTextTokens`, so this stays pure and synchronous. A request the vendor
 * received whose client left (or that shutdown cut) costs at least its estimated input when no usage can be had
 * (vendor error, unreadable answer, timeout); a failure with nothing sent or nothing generated costs nothing. A
 * request whose usage is unknown though the vendor worked on it (`result.usageUnknown`: a stream its client left, cut
 * before its usage) costs its hold: `holdUsage`, the worst case it held.
 *
 * `price` tells whether a transcription model has token prices; without one, token-typed transcription usage is
 * priced by tokens.
 */
export function measureBillableUsage(
  request: MeteredRequest,
  result: MeteredResult,
  inputTokens: number,
  price?: ModelPrice,
  answerTextTokens?: number,
  holdUsage?: BillableUsage,
): BillableUsage {
  if (result.usageUnknown === true && result.usage === undefined && holdUsage) return holdUsage;
  const measured = measureAnswer(request, result, inputTokens, price, answerTextTokens);
  if (measured) return measured;
  // The vendor got the request and may bill it, but no usage can be had: the estimated input is the least it did.
  if (result.clientAborted && result.sentUpstream === true) return measureAbandonedInput(request, inputTokens);
  return emptyBillableUsage;
}

/** The usage the vendor's answer shows; undefined when there was no answer to bill. */
function measureAnswer(
  request: MeteredRequest,
  result: MeteredResult,
  inputTokens: number,
  price: ModelPrice | undefined,
  answerTextTokens: number | undefined,
): BillableUsage | undefined {
  const { endpoint } = request;
  switch (endpoint) {
    case 'images.generations':
    case 'images.edits':
      return measureImages(request, result);
    case 'audio.transcriptions':
      return measureTranscription(request, result, price);
    case 'audio.speech':
    case 'moderations':
      return measureEstimatedWithoutUsage(request, result, inputTokens);
    case 'chat.completions':
    case 'completions':
    case 'embeddings':
    case 'responses':
    case 'messages':
      return measureTokens(request, result, inputTokens, answerTextTokens);
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}

function measureTokens(
  request: MeteredRequest,
  result: MeteredResult,
  inputTokens: number,
  answerTextTokens: number | undefined,
): BillableUsage | undefined {
  if (result.usage) return billTokenUsage(result.usage);
  if (findUncountedAnswerText(request, result) === undefined) return undefined;
  // A stream cut before its usage, or a successful answer without usage: the estimated input and the counted text.
  if (answerTextTokens === undefined)
    throw new Error(
      'An answer without usage is measured only with the token count of its text (findUncountedAnswerText)',
    );
  return { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: answerTextTokens };
}

/** Vendor token counts as billable usage: reads from and writes to the prompt cache are part of the prompt. */
function billTokenUsage(usage: TokenUsage): BillableUsage {
  return {
    ...emptyBillableUsage,
    promptTokens: usage.promptTokens,
    cachedPromptTokens: usage.cachedPromptTokens,
    cacheWritePromptTokens: usage.cacheWritePromptTokens ?? 0,
    cacheWriteOneHourPromptTokens: usage.cacheWriteOneHourPromptTokens ?? 0,
    completionTokens: usage.completionTokens,
  };
}

/**
 * Speech and moderations: the vendor's usage when it reports one (the SSE `speech.audio.done` event, Gemini's
 * usageMetadata); else an answered request costs its estimated input (a character-priced model's exact characters)
 * and, for speech, its expected audio output (audio bytes carry no usage; see estimateSpeechRequest).
 */
function measureEstimatedWithoutUsage(
  request: MeteredRequest,
  result: MeteredResult,
  inputTokens: number,
): BillableUsage | undefined {
  if (result.usage) return billTokenUsage(result.usage);
  if (!wasAnswered(result)) return undefined;
  return {
    ...emptyBillableUsage,
    promptTokens: inputTokens,
    completionTokens: request.estimate.expectedOutputTokens ?? 0,
  };
}

function measureImages(request: MeteredRequest, result: MeteredResult): BillableUsage | undefined {
  if (!wasAnswered(result)) return undefined;
  // Priced at the size and quality asked for (the request's estimate); the images returned, else the `n` asked for.
  const requested = request.estimate.requestedImages;
  const image = requested?.image ?? unspecifiedImage;
  const count = result.answerUsage?.images ?? requested?.count ?? 1;
  return { ...emptyBillableUsage, images: Array.from({ length: count }, () => image) };
}

/**
 * A transcription: token-typed usage (`gpt-4o-transcribe`) by its tokens; otherwise the audio by the minute: the
 * duration the vendor reports whenever it reports one (vendor usage wins over estimates), else what the hold measured
 * (a WAV's decoded length, or for other files the bytes-based ceiling: with no usage to be had, the hold is charged).
 */
function measureTranscription(
  request: MeteredRequest,
  result: MeteredResult,
  price: ModelPrice | undefined,
): BillableUsage | undefined {
  if (!wasAnswered(result)) return undefined;
  const usage = result.answerUsage?.transcription;
  const tokens = transcriptionTokens(usage);
  if (tokens && (!price || price.inputPerMillion > 0 || price.outputPerMillion > 0)) return tokens;
  // OpenAI's `usage: {type: 'duration', seconds}` is what it bills (in `json` and `verbose_json` alike, so both formats
  // cost the same); a vendor that reports only `verbose_json`'s `duration` is billed by that (the edge chose which).
  const seconds = usage?.seconds;
  const reported = seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : 0;
  return {
    ...emptyBillableUsage,
    audioMilliseconds: reported > 0 ? reported : measureUploadedAudioMilliseconds(request),
  };
}

/** A token-typed transcription usage (`gpt-4o-transcribe`) as billable tokens; undefined for a duration or none. */
function transcriptionTokens(usage: TranscriptionUsage | undefined): BillableUsage | undefined {
  if (!usage?.tokens) return undefined;
  return {
    ...emptyBillableUsage,
    promptTokens: usage.tokens.inputTokens,
    completionTokens: usage.tokens.outputTokens,
  };
}

/** The least a request the vendor received costs: its estimated input (for audio, the uploaded audio). */
function measureAbandonedInput(request: MeteredRequest, inputTokens: number): BillableUsage {
  if (request.endpoint === 'audio.transcriptions')
    return { ...emptyBillableUsage, audioMilliseconds: measureUploadedAudioMilliseconds(request) };
  return { ...emptyBillableUsage, promptTokens: inputTokens };
}

/** True when the vendor answered successfully (the client may have left meanwhile: it is then billed all the same). */
function wasAnswered(result: MeteredResult): boolean {
  return result.status < 400 || result.answerUsage !== undefined;
}

/** An image of the vendor's default size and quality (an images request's estimate always says which were asked for). */
const unspecifiedImage = { size: undefined, quality: undefined };
