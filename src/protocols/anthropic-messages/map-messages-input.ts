import type {
  CanonicalAssistantContent,
  CanonicalFilePart,
  CanonicalImagePart,
  CanonicalMessage,
  CanonicalTextPart,
  CanonicalToolResultPart,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import type {
  MessagesContentBlock,
  MessagesRequestMessage,
  MessagesToolResultContentBlock,
} from './messages-request-schema.js';

/** Opens a thinking `signature` (or `redacted_thinking.data`) the gateway sealed; null when it did not seal it intact. */
export type UnsealArtefact = (sealed: string) => SealedArtefact | null;

/** The text a tool result marked `is_error` starts with, since the canonical result has no error flag. */
export const toolErrorPrefix = 'Error: ';

/** A `tool_addition` or `tool_removal` of a system message, in conversation order. */
export interface MessagesToolChange {
  kind: 'tool_addition' | 'tool_removal';
  /** the name of a tool of the request's `tools` */
  name: string;
  /** where it is, for a 400 */
  param: string;
}

/** The conversation in canonical terms, and the texts and tool changes of `system` messages inside it (hoisted by the caller). */
export interface MappedMessagesInput {
  messages: CanonicalMessage[];
  hoistedSystemTexts: string[];
  toolChanges: MessagesToolChange[];
  /** the tools `tool_reference` results loaded (tool search), with where each was named, for a 400 */
  loadedTools: Array<{ name: string; param: string }>;
}

/**
 * Turns Messages `messages` into canonical messages. A user message's `tool_result` blocks become one `tool` message
 * placed before the rest of that user message (chat order: results right after the calls). Thinking blocks are kept
 * only when their signature unseals (a gateway-sealed artefact); any other is dropped, so nothing a vendor did not
 * produce is ever sent to it. A thinking block whose seal belongs to a tool call (see encodeToolUseArtefactBlock) is no
 * reasoning: its artefact goes onto the `tool_use` with that id in the same message.
 */
export function mapMessagesInput(
  messages: MessagesRequestMessage[],
  unsealArtefact: UnsealArtefact | undefined,
): MappedMessagesInput {
  const mapped: CanonicalMessage[] = [];
  const hoistedSystemTexts: string[] = [];
  const toolChanges: MessagesToolChange[] = [];
  const loadedTools: MappedMessagesInput['loadedTools'] = [];
  messages.forEach((message, messageIndex) => {
    const blocks: MessagesContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const where = (blockIndex: number): string => `messages[${messageIndex}].content[${blockIndex}]`;
    switch (message.role) {
      case 'system':
        // `clear_at: next_user_message`: the text is shown only until a later user message exists.
        if (message.clear_at === 'next_user_message' && laterUserMessageExists(messages, messageIndex)) return;
        blocks.forEach((block, blockIndex) => {
          if (block.type === 'tool_addition' || block.type === 'tool_removal')
            toolChanges.push(toolChangeOf(block, where(blockIndex)));
          else hoistedSystemTexts.push(textOf(block, `${where(blockIndex)}.type`, 'system'));
        });
        return;
      case 'user':
        mapped.push(...mapUserBlocks(blocks, where));
        loadedTools.push(...toolReferencesOf(blocks, where));
        return;
      case 'assistant': {
        const opened = new Map<MessagesContentBlock, SealedArtefact>();
        const toolUseArtefacts = new Map<string, VendorArtefact>();
        for (const block of blocks) {
          const sealed =
            block.type === 'thinking' ? block.signature : block.type === 'redacted_thinking' ? block.data : undefined;
          const unsealed = sealed ? (unsealArtefact?.(sealed) ?? null) : null;
          if (!unsealed) continue;
          opened.set(block, unsealed);
          if (unsealed.callId !== undefined) toolUseArtefacts.set(unsealed.callId, unsealed.artefact);
        }
        const content = blocks.flatMap((block, blockIndex) =>
          mapAssistantBlock(block, where(blockIndex), opened.get(block), toolUseArtefacts),
        );
        if (content.length > 0) mapped.push({ role: 'assistant', content });
        return;
      }
      default: {
        const unreachable: never = message.role;
        throw new Error(`Unhandled role ${String(unreachable)}`);
      }
    }
  });
  return { messages: mapped, hoistedSystemTexts, toolChanges, loadedTools };
}

function toolReferencesOf(
  blocks: MessagesContentBlock[],
  where: (blockIndex: number) => string,
): MappedMessagesInput['loadedTools'] {
  return blocks.flatMap((block, blockIndex) =>
    block.type === 'tool_result' && Array.isArray(block.content)
      ? block.content.flatMap((part, partIndex) =>
          part.type === 'tool_reference'
            ? [{ name: part.tool_name, param: `${where(blockIndex)}.content[${partIndex}].tool_name` }]
            : [],
        )
      : [],
  );
}

function laterUserMessageExists(messages: MessagesRequestMessage[], index: number): boolean {
  return messages.slice(index + 1).some((message) => message.role === 'user');
}

type ToolChangeBlock = Extract<MessagesContentBlock, { type: 'tool_addition' | 'tool_removal' }>;

/** Only changes naming a tool of `tools` translate; MCP tools and inline definitions are Anthropic-hosted or unbounded. */
function toolChangeOf(block: ToolChangeBlock, where: string): MessagesToolChange {
  if (block.tool.type !== 'tool_reference' || block.tool.name === undefined) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${where}.tool.type': only a 'tool_reference' to a tool of 'tools' is supported by this gateway.`,
      { param: `${where}.tool.type` },
    );
  }
  return { kind: block.type, name: block.tool.name, param: `${where}.tool.name` };
}

function mapUserBlocks(blocks: MessagesContentBlock[], where: (blockIndex: number) => string): CanonicalMessage[] {
  const results: CanonicalToolResultPart[] = [];
  const content: CanonicalUserContent[] = [];
  blocks.forEach((block, blockIndex) => {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        return;
      case 'image':
        content.push(imagePart(block));
        return;
      case 'document':
        content.push(documentPart(block));
        return;
      case 'tool_result':
        results.push(toolResultPart(block));
        return;
      case 'tool_addition':
      case 'tool_removal':
        throw onlyInSystemMessages(block.type, `${where(blockIndex)}.type`);
      case 'tool_use':
      case 'thinking':
      case 'redacted_thinking':
        throw new GatewayError(
          'invalid_request_error',
          `Invalid value for '${where(blockIndex)}.type': '${block.type}' blocks may only appear in assistant messages.`,
          {
            param: `${where(blockIndex)}.type`,
          },
        );
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
      }
    }
  });
  const mapped: CanonicalMessage[] = [];
  if (results.length > 0) mapped.push({ role: 'tool', content: results });
  if (content.length > 0) mapped.push({ role: 'user', content });
  return mapped;
}

/** `opened`: what the block's signature or data unsealed to, if it did; `toolUseArtefacts`: tool call artefacts by tool_use id. */
function mapAssistantBlock(
  block: MessagesContentBlock,
  where: string,
  opened: SealedArtefact | undefined,
  toolUseArtefacts: ReadonlyMap<string, VendorArtefact>,
): CanonicalAssistantContent[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'tool_use': {
      const artefact = toolUseArtefacts.get(block.id);
      return [
        {
          type: 'tool-call',
          callId: block.id,
          name: block.name,
          arguments: JSON.stringify(block.input),
          ...(artefact ? { artefact } : {}),
        },
      ];
    }
    case 'thinking':
      return opened && opened.callId === undefined
        ? [{ type: 'reasoning', text: block.thinking, artefact: opened.artefact }]
        : [];
    case 'redacted_thinking':
      return opened && opened.callId === undefined ? [{ type: 'reasoning', text: '', artefact: opened.artefact }] : [];
    case 'tool_addition':
    case 'tool_removal':
      throw onlyInSystemMessages(block.type, `${where}.type`);
    case 'image':
    case 'document':
    case 'tool_result':
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${where}.type': '${block.type}' blocks may only appear in user messages.`,
        {
          param: `${where}.type`,
        },
      );
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}

function onlyInSystemMessages(type: string, param: string): GatewayError {
  return new GatewayError(
    'invalid_request_error',
    `Invalid value for '${param}': '${type}' blocks may only appear in system messages.`,
    { param },
  );
}

function textOf(block: MessagesContentBlock, param: string, role: string): string {
  if (block.type !== 'text') {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}': ${role} messages may only hold text blocks.`,
      { param },
    );
  }
  return block.text;
}

type ImageBlock = Extract<MessagesContentBlock, { type: 'image' }>;
type DocumentBlock = Extract<MessagesContentBlock, { type: 'document' }>;

function imagePart(block: ImageBlock): CanonicalImagePart {
  const { source } = block;
  switch (source.type) {
    case 'base64':
      return { type: 'image', url: `data:${source.media_type};base64,${source.data}` };
    case 'url':
      return { type: 'image', url: source.url };
    default: {
      const unreachable: never = source;
      throw new Error(`Unhandled image source ${JSON.stringify(unreachable)}`);
    }
  }
}

/** A PDF becomes a file part; a plain-text document becomes its text. */
function documentPart(block: DocumentBlock): CanonicalFilePart | CanonicalTextPart {
  const { source } = block;
  const filename = block.title ?? undefined;
  switch (source.type) {
    case 'base64': {
      const part: CanonicalFilePart = { type: 'file', data: `data:${source.media_type};base64,${source.data}` };
      if (filename) part.filename = filename;
      return part;
    }
    case 'url': {
      const part: CanonicalFilePart = { type: 'file', url: source.url };
      if (filename) part.filename = filename;
      return part;
    }
    case 'text':
      return { type: 'text', text: source.data };
    default: {
      const unreachable: never = source;
      throw new Error(`Unhandled document source ${JSON.stringify(unreachable)}`);
    }
  }
}

type ToolResultBlock = Extract<MessagesContentBlock, { type: 'tool_result' }>;

function toolResultPart(block: ToolResultBlock): CanonicalToolResultPart {
  const prefix = block.is_error === true ? toolErrorPrefix : '';
  const content = block.content ?? '';
  if (typeof content === 'string') return { type: 'tool-result', callId: block.tool_use_id, output: prefix + content };
  const output = content.map(toolResultContentPart);
  if (prefix) output.unshift({ type: 'text', text: prefix.trimEnd() });
  return { type: 'tool-result', callId: block.tool_use_id, output };
}

function toolResultContentPart(
  block: MessagesToolResultContentBlock,
): CanonicalTextPart | CanonicalImagePart | CanonicalFilePart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imagePart(block);
    case 'document':
      return documentPart(block);
    case 'tool_reference':
      // From here on the deferred tool is among the vendor's tools (docs/API.md, "Tool search"), so say it is there.
      return { type: 'text', text: `Tool ${block.tool_name} is loaded; call it like any other tool.` };
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled tool result block ${JSON.stringify(unreachable)}`);
    }
  }
}
