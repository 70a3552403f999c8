/** A transcription's usage as its vendor reported it, read once from the answer (OpenAI's `usage`, or verbose_json's `duration`). */
export interface TranscriptionUsage {
  /** seconds of audio the vendor reports (`usage: {type: 'duration', seconds}`, else `duration`); finite and > 0, absent when none */
  seconds?: number;
  /** the token counts of a token-typed usage (`{type: 'tokens', input_tokens, output_tokens}`, e.g. gpt-4o-transcribe) */
  tokens?: { inputTokens: number; outputTokens: number };
}

/**
 * What billing needs from a vendor's successful non-streamed answer besides its token usage, read once by the edge
 * that reads the answer (billing never re-reads vendor text). Its presence on a result says the vendor answered.
 */
export interface AnswerUsage {
  /** the images an images answer returned (its `data` array); absent when the answer could not be read (then `n` is billed) */
  images?: number;
  /** what a transcription answer reported (an empty object when it reported nothing: the uploaded audio is billed) */
  transcription?: TranscriptionUsage;
  /** the generated text of an answer that came without token usage, to be counted with a tokenizer ('' when it has none) */
  text?: string;
}

/** The answer usage of a token-priced answer that carried its token usage: nothing else to read (shared, never mutated). */
export const noExtraAnswerUsage: AnswerUsage = Object.freeze({});
