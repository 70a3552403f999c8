import type { Message, MessageHeaders } from '@smithy/eventstream-codec';
import { toUtf8 } from '@smithy/util-utf8';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import { BedrockEventStreamFramingError } from './decode-bedrock-event-frames.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { parseBedrockUsage } from './parse-bedrock-usage.js';
import { redactBedrockText } from './redact-bedrock-text.js';

type ErrorPart = Extract<ChatStreamPart, { type: 'error' }>;

/** The JSON payload of a ConverseStream event; only the fields the gateway reads. */
interface ConverseStreamEventBody {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } };
  stopReason?: string;
  usage?: unknown;
  message?: string;
}

/**
 * Turns ConverseStream events into canonical parts: `messageStart` → start, text and reasoning deltas,
 * `contentBlockStart` (toolUse) → tool-call-start, toolUse input deltas → tool-input-delta, `messageStop` → finish,
 * `metadata` → usage. An exception event, corrupt framing or an end before `messageStop` yields one error part and
 * ends the parts. Transport failures of the body itself are thrown, so the caller can still fail over.
 */
export async function* convertBedrockStreamEvents(messages: AsyncIterable<Message>): AsyncGenerator<ChatStreamPart> {
  const toolCallIndexByBlock = new Map<number, number>();
  let finished = false;
  try {
    for await (const message of messages) {
      const messageType = stringHeader(message.headers, ':message-type');
      if (messageType === 'exception' || messageType === 'error') {
        yield mapStreamException(message);
        return;
      }
      const eventType = stringHeader(message.headers, ':event-type');
      const body = parseEventBody(message.body);
      switch (eventType) {
        case 'messageStart':
          yield { type: 'start' };
          break;
        case 'contentBlockStart': {
          const toolUse = body.start?.toolUse;
          if (toolUse) {
            const toolCallIndex = toolCallIndexByBlock.size;
            toolCallIndexByBlock.set(body.contentBlockIndex ?? toolCallIndex, toolCallIndex);
            yield { type: 'tool-call-start', toolCallIndex, id: toolUse.toolUseId ?? '', name: toolUse.name ?? '' };
          }
          break;
        }
        case 'contentBlockDelta':
          yield* convertDelta(body, toolCallIndexByBlock);
          break;
        case 'messageStop':
          finished = true;
          yield { type: 'finish', finishReason: mapBedrockStopReason(body.stopReason), rawReason: body.stopReason ?? null };
          break;
        case 'metadata': {
          const usage = parseBedrockUsage(body.usage);
          if (usage) yield { type: 'usage', usage };
          break;
        }
        default:
          // contentBlockStop, and event types AWS may add later, carry nothing to relay.
          break;
      }
    }
  } catch (error) {
    if (!(error instanceof BedrockEventStreamFramingError)) throw error;
    yield { type: 'error', code: 'server_error', message: 'The upstream vendor sent a corrupt event stream; the answer is incomplete.' };
    return;
  }
  if (!finished) yield { type: 'error', code: 'server_error', message: 'The upstream stream ended before the answer was complete.' };
}

function* convertDelta(body: ConverseStreamEventBody, toolCallIndexByBlock: Map<number, number>): Generator<ChatStreamPart> {
  const delta = body.delta;
  if (!delta) return;
  if (typeof delta.text === 'string' && delta.text) yield { type: 'text-delta', text: delta.text };
  if (typeof delta.reasoningContent?.text === 'string' && delta.reasoningContent.text) yield { type: 'reasoning-delta', text: delta.reasoningContent.text };
  const input = delta.toolUse?.input;
  const toolCallIndex = toolCallIndexByBlock.get(body.contentBlockIndex ?? -1);
  if (typeof input === 'string' && input && toolCallIndex !== undefined) yield { type: 'tool-input-delta', toolCallIndex, argumentsDelta: input };
}

function mapStreamException(message: Message): ErrorPart {
  const exceptionType = stringHeader(message.headers, ':exception-type') ?? stringHeader(message.headers, ':error-code') ?? '';
  const vendorMessage = parseEventBody(message.body).message ?? stringHeader(message.headers, ':error-message');
  const detail = vendorMessage ? `: ${redactBedrockText(vendorMessage)}` : '';
  switch (exceptionType) {
    case 'throttlingException':
    case 'ThrottlingException':
      return { type: 'error', code: 'rate_limit_exceeded', message: `The upstream vendor throttled the stream${detail}` };
    case 'serviceUnavailableException':
    case 'ServiceUnavailableException':
      return { type: 'error', code: 'service_unavailable', message: `The upstream vendor became unavailable mid-stream${detail}` };
    default:
      // internalServerException, modelStreamErrorException, validationException and anything new.
      return { type: 'error', code: 'server_error', message: `The upstream vendor failed mid-stream${detail}` };
  }
}

function stringHeader(headers: MessageHeaders, name: string): string | undefined {
  const header = headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

function parseEventBody(bytes: Uint8Array): ConverseStreamEventBody {
  if (bytes.byteLength === 0) return {};
  try {
    const parsed: unknown = JSON.parse(toUtf8(bytes));
    return parsed && typeof parsed === 'object' ? (parsed as ConverseStreamEventBody) : {};
  } catch {
    return {};
  }
}
