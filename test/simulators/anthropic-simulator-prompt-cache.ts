// The simulated Claude's prompt cache: prefixes up to a `cache_control` breakpoint are written, and a later request
// of the same model whose prefix matches one (at a block boundary up to 20 blocks before one of its breakpoints) reads it.
import { createHash } from 'node:crypto';
import type { AnthropicReplyUsage } from './anthropic-simulator-reply.js';
import type { AnthropicBlock, AnthropicSimulatorRequest } from './anthropic-simulator-validation.js';

/** Anthropic's documented minimum cacheable prompt (Claude Sonnet/Opus): shorter prefixes are neither written nor read. */
export const anthropicMinimumCacheableTokens = 1024;

/** How many block boundaries before a breakpoint Anthropic looks for an earlier cache entry. */
const lookbackBlocks = 20;

/** One block of the prompt in cache order (tools, system, messages) with its running hash and token count. */
interface PrefixPosition {
  hash: string;
  tokens: number;
  breakpoint: boolean;
}

/** A simulator's prompt cache (no expiry: a test session is shorter than the 5-minute TTL). */
export class AnthropicSimulatorPromptCache {
  private readonly entries = new Set<string>();

  constructor(
    private readonly minimumTokens: number,
    /** tokens of one prompt block, as the simulator counts them */
    private readonly tokensOf: (block: AnthropicBlock) => number,
  ) {}

  /** Splits the prompt into cache reads, writes and the rest, and writes the prefixes at its breakpoints. */
  usageOf(request: AnthropicSimulatorRequest): Omit<AnthropicReplyUsage, 'output_tokens'> {
    const positions = this.positionsOf(request);
    const total = positions.at(-1)?.tokens ?? 0;
    let read = 0;
    let written = 0;
    positions.forEach((position, index) => {
      if (!position.breakpoint || position.tokens < this.minimumTokens) return;
      for (let back = index; back >= Math.max(0, index - lookbackBlocks); back--) {
        const candidate = positions[back] as PrefixPosition;
        if (this.entries.has(`${request.model}:${candidate.hash}`)) {
          read = Math.max(read, candidate.tokens);
          break;
        }
      }
      written = Math.max(written, position.tokens);
    });
    for (const position of positions)
      if (position.breakpoint && position.tokens >= this.minimumTokens)
        this.entries.add(`${request.model}:${position.hash}`);
    const creation = Math.max(0, written - read);
    return {
      input_tokens: total - read - creation,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 },
    };
  }

  private positionsOf(request: AnthropicSimulatorRequest): PrefixPosition[] {
    const tools = Array.isArray(request.raw.tools) ? (request.raw.tools as AnthropicBlock[]) : [];
    const blocks: Array<{ block: AnthropicBlock; tokens: number; role: string }> = [
      ...tools.map((tool) => ({ block: tool, tokens: 0, role: 'tool' })),
      ...request.system.map((block) => ({ block, tokens: this.tokensOf(block), role: 'system' })),
      ...request.messages.flatMap((message) =>
        message.content.map((block) => ({ block, tokens: this.tokensOf(block), role: message.role })),
      ),
    ];
    const positions: PrefixPosition[] = [];
    let hash = '';
    let tokens = 0;
    for (const { block, tokens: blockTokens, role } of blocks) {
      const { cache_control: cacheControl, ...content } = block;
      hash = createHash('sha256').update(hash).update(role).update(JSON.stringify(content)).digest('hex');
      tokens += blockTokens;
      positions.push({ hash, tokens, breakpoint: cacheControl !== undefined && cacheControl !== null });
    }
    return positions;
  }
}
