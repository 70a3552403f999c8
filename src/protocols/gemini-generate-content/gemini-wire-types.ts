// The parts of Gemini's GenerateContentResponse the gateway writes to its Gemini-native clients.

/** One part of the answer's content. */
export interface GeminiAnswerPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id: string; name: string; args: Record<string, unknown> };
  /** Gemini's own signature as it came, or another vendor's artefact sealed by the gateway */
  thoughtSignature?: string;
}

/** `usageMetadata`: token counts; candidatesTokenCount excludes thoughtsTokenCount, as Gemini counts. */
export interface GeminiUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** Gemini's finish reasons the gateway writes. */
export type GeminiFinishReason = 'STOP' | 'MAX_TOKENS' | 'SAFETY';

/** A whole answer, or one stream chunk. */
export interface GeminiAnswer {
  candidates: Array<{
    content: { role: 'model'; parts: GeminiAnswerPart[] };
    finishReason?: GeminiFinishReason;
    index: number;
  }>;
  usageMetadata?: GeminiUsageMetadata;
  modelVersion: string;
  responseId: string;
}
