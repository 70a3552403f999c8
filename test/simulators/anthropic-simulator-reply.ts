// The simulated Claude: deterministic echo replies, tool_use when tools are offered, stop/length cuts, usage with cache counts.
import { hiddenReasoningTokensOf } from './openai-simulator-behaviour.js';
import { countWords, splitIntoWordPieces } from './openai-simulator-text.js';
import type { AnthropicSimulatorPromptCache } from './anthropic-simulator-prompt-cache.js';
import { scriptedToolTurnOf } from './scripted-tool-turn.js';
import type {
  AnthropicBlock,
  AnthropicSimulatorMessage,
  AnthropicSimulatorRequest,
} from './anthropic-simulator-validation.js';

/** One block of the simulated answer. */
export type AnthropicReplyBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** Anthropic's response usage. */
export interface AnthropicReplyUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** cache writes by TTL; reported when the request asked for a 1-hour TTL */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
}

/** The whole simulated answer. */
export interface AnthropicReply {
  content: AnthropicReplyBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';
  stop_sequence: string | null;
  usage: AnthropicReplyUsage;
}

const outputTokensPerToolCall = 10;
let toolUseCounter = 0;

/**
 * Generates the answer: "Echo: <last user text>", "Tool results: <a>; <b>", `{"echo": …}` for JSON output, or tool_use
 * blocks (only the one a `sim-call` prompt scripts, see scripted-tool-turn.ts); its input usage comes from the prompt
 * cache when given one (see promptUsage).
 */
export function createAnthropicReply(
  request: AnthropicSimulatorRequest,
  promptCache?: AnthropicSimulatorPromptCache,
): AnthropicReply {
  const usage = promptUsage(request, promptCache);
  const lastMessage = request.messages.at(-1) as AnthropicSimulatorMessage;
  const toolResults = lastMessage.content.filter((block) => block.type === 'tool_result').map(toolResultText);
  const scripted =
    toolResults.length === 0
      ? scriptedToolTurnOf(
          lastUserText(request),
          request.tools.map((tool) => tool.name),
        )
      : undefined;
  if (toolResults.length === 0 && scripted?.kind !== 'answer' && shouldCallTools(request)) {
    const content =
      scripted?.kind === 'call'
        ? [
            {
              type: 'tool_use' as const,
              id: `toolu_sim_${++toolUseCounter}`,
              name: scripted.name,
              input: scripted.input,
            },
          ]
        : chosenTools(request).map((name): AnthropicReplyBlock => ({
            type: 'tool_use',
            id: `toolu_sim_${++toolUseCounter}`,
            name,
            input: { query: lastUserText(request) },
          }));
    return {
      content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { ...usage, output_tokens: content.length * outputTokensPerToolCall },
    };
  }
  // JSON output (`output_config.format`) answers `{"echo": …}`, as the OpenAI simulator does for its JSON formats.
  const fullText = request.jsonOutput
    ? JSON.stringify({ echo: toolResults.length > 0 ? toolResults.join('; ') : lastUserText(request) })
    : toolResults.length > 0
      ? `Tool results: ${toolResults.join('; ')}`
      : `Echo: ${lastUserText(request)}`;
  const stopped = cutAtStopSequence(fullText, request.stop_sequences);
  const pieces = splitIntoWordPieces(stopped.text);
  const cut = pieces.length > request.max_tokens;
  const text = cut ? pieces.slice(0, request.max_tokens).join('').trimEnd() : stopped.text;
  const stop_reason = cut ? 'max_tokens' : stopped.sequence !== null ? 'stop_sequence' : 'end_turn';
  return {
    content: [{ type: 'text', text }],
    stop_reason,
    stop_sequence: cut ? null : stopped.sequence,
    // Extended thinking is billed as output: `sim-reasoning-<N>` adds N hidden tokens, as a thinking model reports them.
    usage: { ...usage, output_tokens: countWords(text) + hiddenReasoningTokensOf(request.model) },
  };
}

function shouldCallTools(request: AnthropicSimulatorRequest): boolean {
  return request.tools.length > 0 && request.tool_choice?.type !== 'none';
}

function chosenTools(request: AnthropicSimulatorRequest): string[] {
  if (request.tool_choice?.type === 'tool' && request.tool_choice.name) return [request.tool_choice.name];
  const names = request.tools.map((tool) => tool.name);
  return request.tool_choice?.disable_parallel_tool_use ? names.slice(0, 1) : names;
}

/** The prompt's tokens (words of the system and message blocks), what `count_tokens` answers and usage splits up. */
export function countAnthropicPromptTokens(request: AnthropicSimulatorRequest): number {
  return countWords(
    [...request.system, ...request.messages.flatMap((message) => message.content)].map(blockText).join(' '),
  );
}

/** The tokens of one prompt block (its words), as countAnthropicPromptTokens counts them. */
export function countAnthropicBlockTokens(block: AnthropicBlock): number {
  return countWords(blockText(block));
}

/**
 * Prompt words, split into cache reads and writes. A request asking for a 1-hour TTL writes half its words at 1 hour
 * and a quarter at 5 minutes (reads none), reported by TTL in `cache_creation` as Anthropic does; a model whose name
 * says `cache` reads half its prompt; other requests with `cache_control` go through the simulator's prefix cache
 * (AnthropicSimulatorPromptCache), as Anthropic's does.
 */
function promptUsage(
  request: AnthropicSimulatorRequest,
  promptCache: AnthropicSimulatorPromptCache | undefined,
): Omit<AnthropicReplyUsage, 'output_tokens'> {
  const promptWords = countAnthropicPromptTokens(request);
  if (request.hasOneHourCacheTtl) {
    const oneHour = Math.floor(promptWords / 2);
    const fiveMinutes = Math.floor(promptWords / 4);
    return {
      input_tokens: promptWords - oneHour - fiveMinutes,
      cache_creation_input_tokens: oneHour + fiveMinutes,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour },
    };
  }
  if (!request.model.includes('cache')) {
    if (request.hasCacheControl && promptCache) return promptCache.usageOf(request);
    return { input_tokens: promptWords, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  }
  const cacheRead = Math.max(1, Math.floor(promptWords / 2));
  const cacheCreation = promptWords - cacheRead > 1 ? 1 : 0;
  return {
    input_tokens: Math.max(0, promptWords - cacheRead - cacheCreation),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
  };
}

function lastUserText(request: AnthropicSimulatorRequest): string {
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  return (lastUser?.content ?? [])
    .filter((block) => block.type === 'text')
    .map(blockText)
    .join(' ');
}

function toolResultText(block: AnthropicBlock): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: unknown) => blockText(part as AnthropicBlock)).join('');
  return '';
}

function blockText(block: AnthropicBlock): string {
  if (block.type === 'text') return String(block.text);
  if (block.type === 'tool_result') return toolResultText(block);
  if (block.type === 'tool_use') return JSON.stringify(block.input);
  return '';
}

function cutAtStopSequence(text: string, sequences: string[]): { text: string; sequence: string | null } {
  let best: { index: number; sequence: string } | undefined;
  for (const sequence of sequences) {
    const index = text.indexOf(sequence);
    if (sequence && index !== -1 && (!best || index < best.index)) best = { index, sequence };
  }
  return best ? { text: text.slice(0, best.index), sequence: best.sequence } : { text, sequence: null };
}
