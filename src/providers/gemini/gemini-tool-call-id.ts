/**
 * A tool call id for the n-th call of a response, stable for one response id (Gemini rarely sends an id of its own).
 * The call's `thoughtSignature` travels beside it as the tool call's artefact, never inside the id.
 */
export function createGeminiBaseCallId(responseId: string, candidateIndex: number, callIndex: number): string {
  return `call_${responseId.replace(/[^A-Za-z0-9]/g, '')}_${candidateIndex}_${callIndex}`;
}
