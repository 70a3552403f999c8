/** Separates the call id from the thought signature it carries; the first occurrence splits (base ids never contain it). */
const signatureSeparator = '__ts__';

/**
 * The OpenAI tool call id for a Gemini functionCall. Gemini rarely sends an id, and thinking models attach a
 * `thoughtSignature` that must come back on the same functionCall part: the id carries it (base64url, so
 * the id stays within `[A-Za-z0-9_-]`), because clients send ids back unchanged while extra fields get lost.
 */
export function encodeGeminiToolCallId(baseId: string, thoughtSignature: string | undefined): string {
  if (!thoughtSignature) return baseId;
  const urlSafe = thoughtSignature.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return `${baseId}${signatureSeparator}${urlSafe}`;
}

/** The thought signature carried by an id made by encodeGeminiToolCallId, as Gemini sent it (standard base64). */
export function readGeminiThoughtSignature(toolCallId: string): string | undefined {
  const index = toolCallId.indexOf(signatureSeparator);
  if (index === -1) return undefined;
  const urlSafe = toolCallId.slice(index + signatureSeparator.length);
  if (!urlSafe) return undefined;
  const standard = urlSafe.replaceAll('-', '+').replaceAll('_', '/');
  return standard + '='.repeat((4 - (standard.length % 4)) % 4);
}

/** A tool call id for the n-th call of a response, stable for one response id. */
export function createGeminiBaseCallId(responseId: string, candidateIndex: number, callIndex: number): string {
  return `call_${responseId.replace(/[^A-Za-z0-9]/g, '')}_${candidateIndex}_${callIndex}`;
}
