// The simulator's deterministic "model": echo replies, tool calls when tools are declared, Bedrock-style usage.
import type { BedrockCacheUse } from './bedrock-simulator-prompt-cache.js';
import type { ReceivedBlock, ReceivedMessage, ValidConverseRequest } from './bedrock-simulator-validation.js';
import { applyStopAndLimit, countWords } from './openai-simulator-text.js';

/** One content block of the simulated answer. */
export type AnswerBlock =
  { kind: 'text'; text: string } | { kind: 'toolUse'; toolUseId: string; name: string; input: Record<string, unknown> };

/** The simulated answer, before it is put on the wire. */
export interface ConverseAnswer {
  blocks: AnswerBlock[];
  /** end_turn, max_tokens or tool_use */
  stopReason: string;
  usage: {
    inputTokens: number;
    outputTokens: number;
    totalTokens: number;
    cacheReadInputTokens?: number;
    cacheWriteInputTokens?: number;
  };
}

const outputTokensPerToolCall = 10;
/** A model id containing this reports half its prompt as read from the prompt cache (and two tokens written to it). */
const cachedPromptMarker = 'sim-cached-prompt';
let toolUseCounter = 0;

/**
 * "Echo: <last user text>", or "Tool results: <a>; <b>" after tool results; when tools are declared and the last
 * turn is plain user text, one toolUse per tool (only the forced one for `toolChoice.tool`) with input {query}.
 */
export function generateConverseAnswer(
  request: ValidConverseRequest,
  modelId: string,
  cacheUse: BedrockCacheUse | null = null,
): ConverseAnswer {
  const lastTurn = request.messages.at(-1) as ReceivedMessage;
  const toolResults = lastTurn.content.filter((block) => 'toolResult' in block);
  const promptTokens = countPromptTokens(request);
  if (request.toolNames.length > 0 && lastTurn.role === 'user' && toolResults.length === 0) {
    const names = request.toolChoice.kind === 'tool' ? [request.toolChoice.name] : request.toolNames;
    const blocks: AnswerBlock[] = names.map((name) => ({
      kind: 'toolUse',
      toolUseId: `tooluse_sim${++toolUseCounter}`,
      name,
      input: { query: textOf(lastTurn.content) },
    }));
    return {
      blocks,
      stopReason: 'tool_use',
      usage: usageOf(promptTokens, blocks.length * outputTokensPerToolCall, modelId, cacheUse),
    };
  }
  // JSON output (`outputConfig.textFormat`) answers `{"echo": …}`, as the OpenAI simulator does.
  const source = request.jsonOutput
    ? JSON.stringify({
        echo: toolResults.length > 0 ? toolResults.map(toolResultText).join('; ') : textOf(lastTurn.content),
      })
    : toolResults.length > 0
      ? `Tool results: ${toolResults.map(toolResultText).join('; ')}`
      : `Echo: ${textOf(lastTurn.content)}`;
  const generated = applyStopAndLimit(source, request.stopSequences, request.maxTokens);
  const stopReason =
    generated.finishReason === 'length'
      ? 'max_tokens'
      : generated.text.length < source.length
        ? 'stop_sequence'
        : 'end_turn';
  return {
    blocks: [{ kind: 'text', text: generated.text }],
    stopReason,
    usage: usageOf(promptTokens, countWords(generated.text), modelId, cacheUse),
  };
}

/** Words of every text block and system prompt, one per non-text block, at least one per turn. */
function countPromptTokens(request: ValidConverseRequest): number {
  let total = request.system.reduce((sum, text) => sum + countWords(text), 0);
  for (const message of request.messages) {
    const others = message.content.filter((block) => !('text' in block) && !('cachePoint' in block));
    const words = countWords(textOf(message.content)) + others.length;
    total += Math.max(1, words);
  }
  return total;
}

/** Bedrock reports `inputTokens` without cached tokens; `totalTokens` counts everything. */
function usageOf(
  promptTokens: number,
  outputTokens: number,
  modelId: string,
  cacheUse: BedrockCacheUse | null,
): ConverseAnswer['usage'] {
  if (cacheUse) {
    // Reads and writes are what the checkpoints' prefixes counted, capped at the prompt (whose count floors each turn at one).
    const cacheReadInputTokens = Math.min(cacheUse.read, promptTokens);
    const cacheWriteInputTokens = Math.min(cacheUse.write, promptTokens - cacheReadInputTokens);
    return {
      inputTokens: promptTokens - cacheReadInputTokens - cacheWriteInputTokens,
      outputTokens,
      totalTokens: promptTokens + outputTokens,
      cacheReadInputTokens,
      cacheWriteInputTokens,
    };
  }
  if (!modelId.includes(cachedPromptMarker))
    return { inputTokens: promptTokens, outputTokens, totalTokens: promptTokens + outputTokens };
  const cacheReadInputTokens = Math.floor(promptTokens / 2);
  const cacheWriteInputTokens = Math.min(2, promptTokens - cacheReadInputTokens);
  const inputTokens = promptTokens - cacheReadInputTokens - cacheWriteInputTokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: promptTokens + outputTokens,
    cacheReadInputTokens,
    cacheWriteInputTokens,
  };
}

function textOf(blocks: ReceivedBlock[]): string {
  return blocks.flatMap((block) => (typeof block.text === 'string' ? [block.text] : [])).join(' ');
}

function toolResultText(block: ReceivedBlock): string {
  const content = (block.toolResult as { content: Array<{ text?: unknown; json?: unknown }> }).content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part.json))).join(' ');
}
