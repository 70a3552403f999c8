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
import { customToolArgumentsOf } from './custom-tool-function.js';
import { decodeResponsesCallId } from './responses-call-id.js';
import type { ResponsesContentPart, ResponsesInputItem } from './responses-request-schema.js';
import { toolSearchVendorName } from './tool-search-function.js';
import type { UnsealReasoning } from './unseal-reasoning.js';

/** What the vendor is told a `tool_search_output` item's tools are (see toolSearchResultText). */
export type DescribeLoadedTools = (tools: unknown[]) => string;

/** Opens a reasoning item's `encrypted_content` (its own file, so that responses-call-id needs no import of this one). */
export type { UnsealReasoning } from './unseal-reasoning.js';

/**
 * Turns Responses `input` into canonical messages. Consecutive assistant-side items (assistant messages, function
 * calls, reasoning) become one assistant message and consecutive `function_call_output`s one tool message, the
 * grouping vendors with strict turn order (Anthropic, Gemini) need. A reasoning item whose sealed content belongs to a
 * tool call (see encodeToolCallArtefactItem) is no reasoning: its artefact goes onto the function call with that id.
 * A call id that carries its artefact itself (see encodeResponsesCallId) gives it to its call and becomes the
 * vendor's call id again, on the call and on its output alike. A `custom_tool_call` is a call of the function that
 * stands for its tool (its input as the `input` argument), a client-run `tool_search_call` one of `tool_search`, and
 * their outputs are tool results (a tool search's as `describeLoadedTools` words it).
 */
export function mapResponsesInput(
  input: string | ResponsesInputItem[],
  unsealReasoning: UnsealReasoning | undefined,
  describeLoadedTools: DescribeLoadedTools = (tools) => JSON.stringify(tools),
): CanonicalMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  const messages: CanonicalMessage[] = [];
  const unsealed = new Map<string, SealedArtefact | null>();
  const unseal = (sealed: string): SealedArtefact | null => {
    if (!unsealed.has(sealed)) unsealed.set(sealed, unsealReasoning ? unsealReasoning(sealed) : null);
    return unsealed.get(sealed) ?? null;
  };
  const toolCallArtefacts = new Map<string, VendorArtefact>();
  for (const item of input) {
    if (item.type !== 'reasoning' || !item.encrypted_content) continue;
    const opened = unseal(item.encrypted_content);
    if (opened?.callId !== undefined) toolCallArtefacts.set(opened.callId, opened.artefact);
  }

  function appendAssistant(part: CanonicalAssistantContent): void {
    const last = messages.at(-1);
    if (last?.role === 'assistant') last.content.push(part);
    else messages.push({ role: 'assistant', content: [part] });
  }

  function appendToolResult(part: CanonicalToolResultPart): void {
    const last = messages.at(-1);
    if (last?.role === 'tool') last.content.push(part);
    else messages.push({ role: 'tool', content: [part] });
  }

  function appendCall(callId: string, name: string, argumentsJson: string): void {
    const shown = decodeResponsesCallId(callId, unsealReasoning);
    const artefact = shown.artefact ?? toolCallArtefacts.get(shown.callId);
    appendAssistant({
      type: 'tool-call',
      callId: shown.callId,
      name,
      arguments: argumentsJson,
      ...(artefact ? { artefact } : {}),
    });
  }

  input.forEach((item, itemIndex) => {
    const param = `input[${itemIndex}]`;
    switch (item.type) {
      case 'message': {
        const parts =
          typeof item.content === 'string' ? [{ type: 'input_text' as const, text: item.content }] : item.content;
        switch (item.role) {
          case 'assistant':
            parts.forEach((part, partIndex) =>
              appendAssistant(assistantTextOf(part, `${param}.content[${partIndex}]`)),
            );
            return;
          case 'user':
            messages.push({
              role: 'user',
              content: parts.map((part, partIndex) => userContentOf(part, `${param}.content[${partIndex}]`)),
            });
            return;
          case 'system':
          case 'developer':
            messages.push({
              role: item.role,
              content: parts.map((part, partIndex) => instructionTextOf(part, `${param}.content[${partIndex}]`)),
            });
            return;
          default: {
            const unreachable: never = item.role;
            throw new Error(`Unhandled role ${String(unreachable)}`);
          }
        }
      }
      case 'function_call':
        appendCall(item.call_id, item.name, item.arguments);
        return;
      case 'custom_tool_call':
        appendCall(item.call_id, item.name, customToolArgumentsOf(item.input));
        return;
      case 'tool_search_call':
        appendCall(
          clientSearchCallId(item, param),
          toolSearchVendorName,
          typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
        );
        return;
      case 'tool_search_output':
        appendToolResult({
          type: 'tool-result',
          callId: decodeResponsesCallId(clientSearchCallId(item, param), unsealReasoning).callId,
          output: describeLoadedTools(item.tools),
        });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        appendToolResult({
          type: 'tool-result',
          callId: decodeResponsesCallId(item.call_id, unsealReasoning).callId,
          output:
            typeof item.output === 'string'
              ? item.output
              : item.output.map((part, partIndex) => userContentOf(part, `${param}.output[${partIndex}]`)),
        });
        return;
      case 'reasoning': {
        const text = (item.content && item.content.length > 0 ? item.content : item.summary)
          .map((part) => part.text)
          .join('');
        const opened = item.encrypted_content ? unseal(item.encrypted_content) : null;
        if (opened?.callId !== undefined) return;
        appendAssistant(opened ? { type: 'reasoning', text, artefact: opened.artefact } : { type: 'reasoning', text });
        return;
      }
      default: {
        const unreachable: never = item;
        throw new Error(`Unhandled input item ${JSON.stringify(unreachable)}`);
      }
    }
  });
  return messages;
}

/** The call id of a tool search the client ran; OpenAI's server-run searches (no call id) cannot be replayed elsewhere. */
function clientSearchCallId(
  item: Extract<ResponsesInputItem, { type: 'tool_search_call' | 'tool_search_output' }>,
  param: string,
): string {
  if (item.execution === 'server' || !item.call_id) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}': only client-run tool searches (with a 'call_id') are supported by this gateway.`,
      { param },
    );
  }
  return item.call_id;
}

/** A content part of a user message or a tool result. */
function userContentOf(part: ResponsesContentPart, param: string): CanonicalUserContent {
  switch (part.type) {
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'input_image':
      return imageOf(part, param);
    case 'input_file':
      return fileOf(part, param);
    case 'output_text':
    case 'refusal':
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${param}.type': '${part.type}' is only allowed in assistant messages.`,
        {
          param: `${param}.type`,
        },
      );
    default: {
      const unreachable: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Assistant history: `output_text`, `input_text` (some clients replay it so) and `refusal` become text. */
function assistantTextOf(part: ResponsesContentPart, param: string): CanonicalTextPart {
  switch (part.type) {
    case 'output_text':
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
    case 'input_file':
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${param}.type': assistant messages may not contain '${part.type}'.`,
        {
          param: `${param}.type`,
        },
      );
    default: {
      const unreachable: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unreachable)}`);
    }
  }
}

/** System and developer messages carry text only. */
function instructionTextOf(part: ResponsesContentPart, param: string): CanonicalTextPart {
  if (part.type === 'input_text') return { type: 'text', text: part.text };
  throw new GatewayError(
    'invalid_request_error',
    `Invalid value for '${param}.type': system and developer messages may only contain 'input_text'.`,
    {
      param: `${param}.type`,
    },
  );
}

function imageOf(part: Extract<ResponsesContentPart, { type: 'input_image' }>, param: string): CanonicalImagePart {
  if (part.image_url)
    return part.detail
      ? { type: 'image', url: part.image_url, detail: part.detail }
      : { type: 'image', url: part.image_url };
  if (part.file_id) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}.file_id': file ids are not supported; send 'image_url' (a URL or a data URL).`,
      {
        param: `${param}.file_id`,
      },
    );
  }
  throw new GatewayError('invalid_request_error', `Missing required parameter: '${param}.image_url'.`, {
    param: `${param}.image_url`,
  });
}

function fileOf(part: Extract<ResponsesContentPart, { type: 'input_file' }>, param: string): CanonicalFilePart {
  if (part.file_id) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}.file_id': file ids are not supported; send 'file_data' or 'file_url'.`,
      {
        param: `${param}.file_id`,
      },
    );
  }
  if (part.file_data === undefined && part.file_url === undefined) {
    throw new GatewayError('invalid_request_error', `Missing required parameter: '${param}.file_data'.`, {
      param: `${param}.file_data`,
    });
  }
  const file: CanonicalFilePart = { type: 'file' };
  if (part.file_data !== undefined) file.data = part.file_data;
  if (part.file_url !== undefined) file.url = part.file_url;
  if (part.filename !== undefined) file.filename = part.filename;
  return file;
}
