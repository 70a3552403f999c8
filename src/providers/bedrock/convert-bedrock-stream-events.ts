import type { Message, MessageHeaders } from '@smithy/eventstream-codec';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import { bedrockArtefactProducer } from './convert-bedrock-messages.js';
import { BedrockEventStreamFramingError } from './decode-bedrock-event-frames.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { parseBedrockUsage } from './parse-bedrock-usage.js';
import { redactBedrockText } from './redact-bedrock-text.js';
import { textOfUtf8 } from './utf8-text.js';

type ErrorPart = Extract<CanonicalStreamPart, { type: 'error' }>;

/** The JSON payload of a ConverseStream event; only the fields the gateway reads. */
interface ConverseStreamEventBody {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: {
    text?: string;
    toolUse?: { input?: string };
    reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
  };
  stopReason?: string;
  usage?: unknown;
  message?: string;
}

/**
 * Turns ConverseStream events into canonical parts: `messageStart` → response-start, text and reasoning deltas into
 * blocks (a reasoning signature or redacted content as the reasoning's artefact), `contentBlockStart` (toolUse) →
 * tool-call-start, toolUse input deltas → tool-call-delta, `contentBlockStop` → the block's end, `messageStop` →
 * finish, `metadata` → usage. An exception event, corrupt framing or an end before `messageStop` yields one error part and
 * ends the parts. Transport failures of the body itself are thrown, so the caller can still fail over.
 */
export async function* convertBedrockStreamEvents(
  messages: AsyncIterable<Message>,
): AsyncGenerator<CanonicalStreamPart> {
  const sequencer = new StreamBlockSequencer();
  const artefactByBlock = new Map<number, VendorArtefact>();
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
          yield { type: 'response-start' };
          break;
        case 'contentBlockStart': {
          const toolUse = body.start?.toolUse;
          if (toolUse)
            yield* sequencer.startToolCall(body.contentBlockIndex ?? -1, toolUse.toolUseId ?? '', toolUse.name ?? '');
          break;
        }
        case 'contentBlockDelta':
          yield* convertDelta(body, sequencer, artefactByBlock);
          break;
        case 'contentBlockStop': {
          const blockIndex = body.contentBlockIndex ?? -1;
          yield* sequencer.hasToolCall(blockIndex)
            ? sequencer.endToolCall(blockIndex)
            : sequencer.endFlowing(artefactByBlock.get(blockIndex));
          break;
        }
        case 'messageStop':
          finished = true;
          yield* sequencer.endAll();
          yield {
            type: 'finish',
            finish: { reason: mapBedrockStopReason(body.stopReason), rawReason: body.stopReason ?? null },
          };
          break;
        case 'metadata': {
          const usage = parseBedrockUsage(body.usage);
          if (usage) yield { type: 'usage', usage };
          break;
        }
        default:
          // event types AWS may add later, carry nothing to relay.
          break;
      }
    }
  } catch (error) {
    if (!(error instanceof BedrockEventStreamFramingError)) throw error;
    yield {
      type: 'error',
      failure: {
        code: 'server_error',
        message: 'The upstream vendor sent a corrupt event stream; the answer is incomplete.',
      },
    };
    return;
  }
  if (!finished)
    yield {
      type: 'error',
      failure: { code: 'server_error', message: 'The upstream stream ended before the answer was complete.' },
    };
}

function convertDelta(
  body: ConverseStreamEventBody,
  sequencer: StreamBlockSequencer,
  artefactByBlock: Map<number, VendorArtefact>,
): CanonicalStreamPart[] {
  const delta = body.delta;
  if (!delta) return [];
  const blockIndex = body.contentBlockIndex ?? -1;
  if (typeof delta.text === 'string' && delta.text) return sequencer.text(delta.text);
  const reasoning = delta.reasoningContent;
  if (reasoning) {
    if (reasoning.signature)
      artefactByBlock.set(blockIndex, { producer: bedrockArtefactProducer, signature: reasoning.signature });
    if (reasoning.redactedContent)
      artefactByBlock.set(blockIndex, { producer: bedrockArtefactProducer, redactedData: reasoning.redactedContent });
    if (typeof reasoning.text === 'string' && reasoning.text) return sequencer.reasoning(reasoning.text);
    // A block of redacted reasoning only still opens its reasoning block.
    return reasoning.redactedContent && sequencer.flowingKind !== 'reasoning' ? sequencer.reasoning('') : [];
  }
  const input = delta.toolUse?.input;
  return typeof input === 'string' ? sequencer.toolCallArguments(blockIndex, input) : [];
}

function mapStreamException(message: Message): ErrorPart {
  const exceptionType =
    stringHeader(message.headers, ':exception-type') ?? stringHeader(message.headers, ':error-code') ?? '';
  const vendorMessage = parseEventBody(message.body).message ?? stringHeader(message.headers, ':error-message');
  const detail = vendorMessage ? `: ${redactBedrockText(vendorMessage)}` : '';
  switch (exceptionType) {
    case 'throttlingException':
    case 'ThrottlingException':
      return {
        type: 'error',
        failure: { code: 'rate_limit_exceeded', message: `The upstream vendor throttled the stream${detail}` },
      };
    case 'serviceUnavailableException':
    case 'ServiceUnavailableException':
      return {
        type: 'error',
        failure: { code: 'service_unavailable', message: `The upstream vendor became unavailable mid-stream${detail}` },
      };
    default:
      // internalServerException, modelStreamErrorException, validationException and anything new.
      return {
        type: 'error',
        failure: { code: 'server_error', message: `The upstream vendor failed mid-stream${detail}` },
      };
  }
}

function stringHeader(headers: MessageHeaders, name: string): string | undefined {
  const header = headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

function parseEventBody(bytes: Uint8Array): ConverseStreamEventBody {
  if (bytes.byteLength === 0) return {};
  try {
    const parsed: unknown = JSON.parse(textOfUtf8(bytes));
    return parsed && typeof parsed === 'object' ? (parsed as ConverseStreamEventBody) : {};
  } catch {
    return {};
  }
}
