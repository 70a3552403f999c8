// The request bodies the benchmark sends. The simulator echoes the last user text, so `max_tokens`
// keeps answers to large prompts small: the large-body tests measure the request direction.

/** The model served normally (zero delay) by the simulator. */
export const normalModel = 'bench-model';

/** A `sim-paced-<N>x<M>` model name: N content chunks, one every M milliseconds. */
export function pacedModel(chunkCount: number, intervalMs: number): string {
  return `sim-paced-${chunkCount}x${intervalMs}`;
}

/** A non-streamed chat request of about `targetBytes` bytes of JSON (the throughput and latency body). */
export function createChatBody(targetBytes = 500): string {
  const base = {
    model: normalModel,
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one short paragraph.' },
      { role: 'user', content: '' },
    ],
    temperature: 0.7,
    max_tokens: 64,
  };
  const fillerLength = Math.max(0, targetBytes - JSON.stringify(base).length);
  const user = base.messages[1] as { content: string };
  user.content = fillerText(fillerLength);
  return JSON.stringify(base);
}

/** A streamed chat request; usage is asked for so every event the simulator sends is relayed. */
export function createStreamBody(model: string): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Stream a few words back to me please.' }],
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 1000,
  });
}

/** A chat request whose prompt is about `promptBytes` bytes of text. */
export function createLargePromptBody(promptBytes = 100 * 1024): string {
  return JSON.stringify({
    model: normalModel,
    messages: [{ role: 'user', content: fillerText(promptBytes) }],
    max_tokens: 16,
  });
}

/** A chat request with one inline image of about `imageBytes` bytes of base64. */
export function createImageBody(imageBytes = 1024 * 1024): string {
  const base64 = Buffer.alloc(Math.floor((imageBytes * 3) / 4), 0x5a).toString('base64');
  return JSON.stringify({
    model: normalModel,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
        ],
      },
    ],
    max_tokens: 16,
  });
}

/** Plain words of exactly `length` characters. */
function fillerText(length: number): string {
  const sentence = 'The quick brown fox jumps over the lazy dog near the quiet river bank. ';
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}
