import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';

/** How a speech model's vendor bills its input: by character (tts-1, tts-1-hd) or by text token (the rest). */
export type SpeechInputUnit = 'characters' | 'tokens';

/** Characters spoken per second at speed 1.0 when the hold is sized: slow speech, so the hold is rarely short. */
const heldCharactersPerSecond = 10;
/** Characters spoken per second at speed 1.0 when an answer without usage is billed: an ordinary speaking rate. */
const expectedCharactersPerSecond = 15;
/**
 * Audio output tokens per second held: the larger of OpenAI's (about 21: $0.015 a minute at $12 per million audio
 * tokens) and Gemini's (25 a second by its usageMetadata), rounded up.
 */
const heldAudioTokensPerSecond = 32;
/** Audio output tokens per second billed when the vendor reports none (OpenAI's documented ~$0.015 a minute). */
const expectedAudioTokensPerSecond = 21;

/**
 * The hold estimate of `POST /v1/audio/speech`. A character-priced model (tts-1) holds and bills its characters as
 * its input units (its input price is per million characters) and generates nothing billable; a token-priced model
 * holds its text tokens plus the audio tokens of the input spoken slowly at the asked speed, and, when the vendor
 * reports no usage (audio bytes carry none), is billed the audio tokens of the input spoken at an ordinary rate.
 */
export function estimateSpeechRequest(
  request: { input: string; instructions?: string | undefined; speed?: number | undefined },
  inputUnit: SpeechInputUnit,
): RequestEstimate {
  const characters = [...request.input].length;
  const speed = request.speed ?? 1;
  const base = { inlinePdfs: [], generations: 1, requestedImages: undefined, transcriptionPromptTokens: 0 };
  if (inputUnit === 'characters')
    return { ...base, inputTokens: characters, outputTokenCap: 0, expectedOutputTokens: 0 };
  const seconds = (charactersPerSecond: number): number => characters / (charactersPerSecond * speed);
  return {
    ...base,
    inputTokens: estimateTextTokens(request.input) + estimateTextTokens(request.instructions ?? ''),
    outputTokenCap: Math.ceil(seconds(heldCharactersPerSecond) * heldAudioTokensPerSecond),
    expectedOutputTokens: Math.ceil(seconds(expectedCharactersPerSecond) * expectedAudioTokensPerSecond),
  };
}
