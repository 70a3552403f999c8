import type { CanonicalAnswer } from '../../src/core/canonical/canonical-answer.js';
import type { CanonicalStreamPart } from '../../src/core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../src/core/canonical/fold-stream-parts.js';
import type { TokenUsage } from '../../src/core/token-usage.js';
import { tokenUsageOfCanonical } from '../../src/core/token-usage-of-canonical.js';
import type { ChatCompletionObject } from '../../src/protocols/openai-chat/chat-completion-object.js';
import { encodeChatCompletion } from '../../src/protocols/openai-chat/encode-chat-completion.js';

/** A non-streamed answer's parts as dispatch serves them to a chat client: folded, encoded, and the usage billing reads. */
export function chatAnswerOfParts(
  parts: readonly CanonicalStreamPart[],
  model: string,
): { answer: CanonicalAnswer; completion: ChatCompletionObject; usage: TokenUsage | undefined } {
  const answer = foldStreamParts(parts);
  const completion = encodeChatCompletion(answer, { id: 'chatcmpl-test', model, created: 1_700_000_000 });
  return { answer, completion, usage: answer.usage ? tokenUsageOfCanonical(answer.usage) : undefined };
}
