// The parts of the Gemini API wire format (generateContent, lowerCamelCase) the adapter writes and reads.

/** One part of a content; exactly one data field is set. */
export interface GeminiPart {
  text?: string;
  /** true on a thought-summary text part */
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  /** mimeType is optional: Gemini knows the type of a file uploaded through its Files API */
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
  /** opaque base64 the vendor wants back unchanged on the same part */
  thoughtSignature?: string;
}

/** A turn of the conversation. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** `usageMetadata`. */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** One candidate of a response or stream chunk. */
export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

/** A `GenerateContentResponse` (whole, or one stream chunk), or an error chunk. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  error?: { code?: number; message?: string; status?: string };
}
