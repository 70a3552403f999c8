// The simulated Bedrock prompt cache: prefixes up to a `cachePoint` checkpoint (tools, system, messages in that order)
// are written, and a later request of the same model whose prefix matches one (at a block boundary up to 20 blocks
// before one of its checkpoints) reads it, as Claude on Bedrock does. Checkpoint rules are checked like AWS.
import { createHash } from 'node:crypto';
import { validationError } from './bedrock-simulator-errors.js';
import type { ReceivedBlock, ValidConverseRequest } from './bedrock-simulator-validation.js';
import { countWords } from './openai-simulator-text.js';

/** Bedrock's limit of checkpoints per request. */
export const bedrockMaximumCachePoints = 4;

/** How many block boundaries before a checkpoint an earlier cache entry is looked for. */
const lookbackBlocks = 20;

/** The caching families of AWS's table (Claude 3.5 Haiku, 3.7 Sonnet, Claude 4 and later; Nova), and the test model. */
const claudeCaching = /claude-(?:3-5-haiku|3-7-sonnet|(?:sonnet|opus|haiku)-[4-9])/;
const novaCaching = /nova-(?:\d+-)?(?:micro|lite|pro|premier)/;

/** The message AWS answers a checkpoint for a model (or a field) that does not take one with. */
const unsupportedCaching =
  'You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.';

/** Tokens a prefix must reach before a checkpoint caches it, per AWS's table (most models 1,024). */
export function minimumCacheTokensOf(modelId: string): number {
  if (modelId.includes('haiku-4')) return 4096;
  if (modelId.includes('3-5-haiku')) return 2048;
  return 1024;
}

/** Cache reads and writes of one request, in tokens; null when it set no checkpoint. */
export interface BedrockCacheUse {
  read: number;
  write: number;
}

/** One block of the prompt in cache order, with its running hash and token count. */
interface PrefixPosition {
  hash: string;
  tokens: number;
  checkpoint: boolean;
}

/** A simulator's prompt cache (no expiry: a test session is shorter than the 5-minute TTL). */
export class BedrockSimulatorPromptCache {
  private readonly entries = new Set<string>();

  /** Checks the request's checkpoints, then splits its prompt into reads and writes and writes its checkpoints. */
  useOf(request: ValidConverseRequest, modelId: string): BedrockCacheUse | null {
    const positions = positionsOf(request, modelId);
    if (!positions.some((position) => position.checkpoint)) return null;
    const minimum = minimumCacheTokensOf(modelId);
    let read = 0;
    let written = 0;
    positions.forEach((position, index) => {
      if (!position.checkpoint || position.tokens < minimum) return;
      for (let back = index; back >= Math.max(0, index - lookbackBlocks); back--) {
        const candidate = positions[back] as PrefixPosition;
        if (this.entries.has(`${modelId}:${candidate.hash}`)) {
          read = Math.max(read, candidate.tokens);
          break;
        }
      }
      written = Math.max(written, position.tokens);
    });
    for (const position of positions)
      if (position.checkpoint && position.tokens >= minimum) this.entries.add(`${modelId}:${position.hash}`);
    return { read, write: Math.max(0, written - read) };
  }
}

/** Tokens of one prompt block as the simulator's model counts them: words of text, one for anything else. */
export function tokensOfBlock(block: ReceivedBlock): number {
  if (typeof block.text === 'string') return countWords(block.text);
  return 1;
}

/** The prompt's blocks in cache order; a checkpoint marks the block before it. Throws on a misplaced checkpoint. */
function positionsOf(request: ValidConverseRequest, modelId: string): PrefixPosition[] {
  const sections: Array<{ name: string; blocks: ReceivedBlock[]; countsTokens: boolean }> = [
    { name: 'toolConfig.tools', blocks: request.rawTools, countsTokens: false },
    { name: 'system', blocks: request.rawSystem, countsTokens: true },
    ...request.messages.map((message, index) => ({
      name: `messages.${index}.content`,
      blocks: message.content,
      countsTokens: true,
    })),
  ];
  const positions: PrefixPosition[] = [];
  let hash = '';
  let tokens = 0;
  let checkpoints = 0;
  for (const section of sections) {
    section.blocks.forEach((block, index) => {
      if (!('cachePoint' in block)) {
        hash = createHash('sha256').update(hash).update(section.name).update(JSON.stringify(block)).digest('hex');
        tokens += section.countsTokens ? tokensOfBlock(block) : 0;
        positions.push({ hash, tokens, checkpoint: false });
        return;
      }
      const point = block.cachePoint as { type?: unknown } | null;
      if (typeof point !== 'object' || point === null || point.type !== 'default' || Object.keys(point).length !== 1)
        throw validationError(`${section.name}.${index}.cachePoint.type must be default.`);
      const caching =
        section.name === 'toolConfig.tools'
          ? claudeCaching
          : new RegExp(`${claudeCaching.source}|${novaCaching.source}`);
      if (!caching.test(modelId)) throw validationError(unsupportedCaching);
      if (index === 0)
        throw validationError(`The cachePoint at ${section.name}.${index} must follow content to cache.`);
      if (++checkpoints > bedrockMaximumCachePoints)
        throw validationError(`A request can have at most ${bedrockMaximumCachePoints} cachePoint blocks.`);
      const previous = positions.at(-1);
      if (previous) previous.checkpoint = true;
    });
  }
  return positions;
}
