import type { MeteredRequest } from './request-accounting.js';
import { emptyBillableUsage, type BillableUsage } from './billable-usage.js';

/** Upload bytes per second of audio assumed when the duration is unknown: 16 kbit/s, below any usual speech codec. */
export const audioBytesPerSecondFloor = 2_000;
/**
 * Audio tokens per second held for transcription models billed by tokens (`gpt-4o-transcribe`): OpenAI's estimate of
 * $0.006 a minute at $6 per million audio tokens is about 17 a second; the hold keeps a margin above it.
 */
export const transcriptionAudioTokensPerSecond = 25;
/** Transcript tokens per second held for those models: fast speech is about 4 a second. */
export const transcriptionOutputTokensPerSecond = 10;

/**
 * The audio an upload holds, in milliseconds: the duration decoded from the file, else the bytes-based ceiling. Charged
 * only when the vendor reports neither a duration nor tokens (measureBillableUsage): vendor usage wins over it.
 */
export function measureUploadedAudioMilliseconds(
  request: Pick<MeteredRequest, 'uploadedAudioSeconds' | 'uploadedBytes'>,
): number {
  if (request.uploadedAudioSeconds !== undefined) return Math.ceil(request.uploadedAudioSeconds * 1000);
  return Math.ceil((request.uploadedBytes * 1000) / audioBytesPerSecondFloor);
}

/**
 * The worst case of a transcription: its audio by the minute, plus, for models the vendor bills by tokens, audio and
 * prompt tokens in and transcript tokens out. Only one of the two is charged at settlement; holding both covers either.
 */
export function estimateTranscriptionUsage(request: MeteredRequest): BillableUsage {
  const audioMilliseconds = measureUploadedAudioMilliseconds(request);
  const seconds = Math.ceil(audioMilliseconds / 1000);
  return {
    ...emptyBillableUsage,
    audioMilliseconds,
    promptTokens: seconds * transcriptionAudioTokensPerSecond + request.estimate.transcriptionPromptTokens,
    completionTokens: seconds * transcriptionOutputTokensPerSecond,
  };
}
