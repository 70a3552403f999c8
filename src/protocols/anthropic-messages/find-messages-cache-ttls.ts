/** A `cache_control` of a Messages request, with where its TTL is (`system[0].cache_control.ttl`). */
export interface MessagesCacheTtl {
  /** the parameter path of the TTL, for a 400 naming it */
  param: string;
  /** the TTL as sent (`5m`, `1h`, or anything else, which no price models); undefined when absent (5 minutes) */
  ttl: unknown;
}

/**
 * Every `cache_control` of a Messages body where Anthropic reads one, with its TTL: the top level, system blocks,
 * tools, message content blocks and the blocks inside a `tool_result` (one without `ttl` is the 5-minute default).
 * Tool inputs and schemas are not searched: a `cache_control` there is data, not an instruction.
 */
export function findMessagesCacheTtls(body: Readonly<Record<string, unknown>>): MessagesCacheTtl[] {
  const found: MessagesCacheTtl[] = [];
  readTtl(body, '', found);
  listBlocks(body.system, 'system', found);
  listBlocks(body.tools, 'tools', found);
  if (Array.isArray(body.messages)) {
    body.messages.forEach((message: unknown, index) => {
      if (isObject(message)) listBlocks(message.content, `messages[${index}].content`, found);
    });
  }
  return found;
}

function listBlocks(blocks: unknown, path: string, found: MessagesCacheTtl[]): void {
  if (!Array.isArray(blocks)) return;
  blocks.forEach((block: unknown, index) => {
    if (!isObject(block)) return;
    const blockPath = `${path}[${index}]`;
    readTtl(block, `${blockPath}.`, found);
    if (block.type === 'tool_result') listBlocks(block.content, `${blockPath}.content`, found);
  });
}

function readTtl(owner: Record<string, unknown>, prefix: string, found: MessagesCacheTtl[]): void {
  const control = owner.cache_control;
  if (isObject(control)) found.push({ param: `${prefix}cache_control.ttl`, ttl: control.ttl ?? undefined });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
