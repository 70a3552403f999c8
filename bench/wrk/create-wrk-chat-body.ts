// The request bodies of the wrk comparison: one chat request padded to an exact size (the 462 bytes).

/** A model the gateway's catalog prices, so the gateway bills it as it would a user's request. */
export const comparisonModel = 'gpt-4o-mini';
/** The same model with the suffix that makes the mock upstream pace its stream (one event every 5 ms). */
export const pacedComparisonModel = `${comparisonModel}-paced`;

/** A chat completion request of exactly `bytes` bytes of JSON (ASCII), `stream` as given. */
export function createWrkChatBody(options: { model: string; stream: boolean; bytes: number }): string {
  const request = {
    model: options.model,
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one short paragraph.' },
      { role: 'user', content: '' },
    ],
    temperature: 0.7,
    max_tokens: 64,
    stream: options.stream,
  };
  const fillerLength = options.bytes - JSON.stringify(request).length;
  if (fillerLength < 0) throw new Error(`a chat body cannot be as small as ${options.bytes} bytes`);
  const sentence = 'The quick brown fox jumps over the lazy dog near the quiet river bank. ';
  (request.messages[1] as { content: string }).content = sentence
    .repeat(Math.ceil(fillerLength / sentence.length))
    .slice(0, fillerLength);
  return JSON.stringify(request);
}
