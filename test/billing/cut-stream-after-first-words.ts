import type OpenAI from 'openai';
import { expect } from 'vitest';

/** Streams an answer through the SDK and hangs up on its first words; fails unless some words arrived. */
export async function cutStreamAfterFirstWords(
  client: OpenAI,
  body: OpenAI.Chat.ChatCompletionCreateParamsStreaming,
): Promise<void> {
  const controller = new AbortController();
  const stream = await client.chat.completions.create(body, { signal: controller.signal });
  let received = '';
  try {
    for await (const chunk of stream) {
      received += chunk.choices[0]?.delta.content ?? '';
      if (received.length > 0) controller.abort();
    }
  } catch {
    // The SDK may end the iteration with an abort error.
  }
  expect(received.length).toBeGreaterThan(0);
}
