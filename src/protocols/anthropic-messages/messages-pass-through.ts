import type { EventSourceMessage } from 'eventsource-parser';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import { readAnthropicApiVersion } from '../../providers/anthropic/anthropic-api-version.js';
import type { AnthropicUsage } from '../../providers/anthropic/anthropic-wire-types.js';
import { anthropicArtefactProducer } from '../../providers/anthropic/convert-anthropic-messages.js';
import { mapAnthropicFailure } from '../../providers/anthropic/map-anthropic-failure.js';
import { mergeAnthropicUsage, parseAnthropicUsage } from '../../providers/anthropic/parse-anthropic-usage.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { redactChannelSecrets } from '../../dispatch/redact-channel-secrets.js';
import { unreadableStreamEventError } from '../../dispatch/relay-stream-errors.js';
import type { UpstreamHttpRequest } from '../../dispatch/send-upstream-request.js';
import { tokenUsageOfCanonical } from '../../core/token-usage-of-canonical.js';
import {
  UnreadableUpstreamAnswer,
  type PassThroughProtocol,
  type PassThroughRelayStep,
  type PassThroughStreamRelay,
} from '../../dispatch/pass-through/pass-through-protocol.js';
import { fitMessagesBodyToRoutedModel } from './fit-messages-body-to-routed-model.js';

/** What the Messages pass-through works from. */
export interface MessagesPassThroughOptions {
  /** the client's validated request body */
  body: Record<string, unknown>;
  /** the client's `anthropic-version` header, forwarded unchanged; the channel's setting when absent */
  anthropicVersion: string | undefined;
  /** the betas to send (planAnthropicForwarding: free or enabled on the channels that may serve the request) */
  anthropicBeta: string | undefined;
  /** the gateway's `msg_...` id shown instead of the vendor's */
  messageId: string;
  /** the public model id shown instead of the channel's model name */
  model: string;
  /** opens a thinking signature this gateway sealed (another vendor's reasoning); null for any other signature */
  unsealArtefact(signature: string): VendorArtefact | null;
}

/**
 * Messages to Anthropic channels: the client's body goes through with `model` rewritten, its `anthropic-version`
 * forwarded, the betas the forwarding plan allowed, never a query string; thinking blocks whose signature the gateway sealed
 * (reasoning another vendor produced) are dropped, or given back their raw Anthropic signature. The vendor's message
 * id and model name are replaced by the gateway's; usage is read for billing.
 */
export function createMessagesPassThrough(options: MessagesPassThroughOptions): PassThroughProtocol {
  return {
    servesChannel: (channel) => channel.protocol === 'anthropic',
    encode: (channel, upstreamModelId) => {
      const body = fitMessagesBodyToRoutedModel(options.body, channel.upstreamModelLimits?.get(options.model));
      return encodeAnthropicPassThrough({ ...options, body }, channel, upstreamModelId, '/messages');
    },
    mapFailure: (status, bodyText, retryAfter) => mapAnthropicFailure(status, bodyText, retryAfter),
    rewriteAnswer(bodyText) {
      const message = parseObject(bodyText);
      if (!message || message.type !== 'message' || !Array.isArray(message.content))
        throw new UnreadableUpstreamAnswer('not a Message object');
      // Usage, when there is one, is an object of counts: anything else is no answer billing could trust.
      if (message.usage !== undefined && message.usage !== null && !isObject(message.usage))
        throw new UnreadableUpstreamAnswer('usage is not an object');
      const usage = isObject(message.usage) ? tokenUsageOf(message.usage as AnthropicUsage) : undefined;
      return { body: JSON.stringify({ ...message, id: options.messageId, model: options.model }), usage };
    },
    createStreamRelay: (channel) => createRelay(options, channel),
  };
}

/** What a Messages-shaped request (`/messages`, `/messages/count_tokens`) needs to go through to an Anthropic channel. */
export type AnthropicPassThroughRequest = Pick<
  MessagesPassThroughOptions,
  'body' | 'anthropicVersion' | 'anthropicBeta' | 'unsealArtefact'
>;

/**
 * The client's Messages-shaped body for an Anthropic channel at `path`: model replaced, signatures resolved, the
 * client's version and the allowed betas forwarded, no query string (the gateway decides the URL); the key presented as that version wants (bearer from
 * 2026-10-21 on), so both follow the client's.
 */
export function encodeAnthropicPassThrough(
  request: AnthropicPassThroughRequest,
  channel: RoutableChannel,
  upstreamModelId: string,
  path: string,
): UpstreamHttpRequest {
  const versionedChannel = request.anthropicVersion
    ? { ...channel, settings: { ...channel.settings, apiVersion: request.anthropicVersion } }
    : channel;
  const headers: Record<string, string> = {
    ...readAnthropicApiVersion(versionedChannel).headersFor(channel.secret),
    'content-type': 'application/json',
  };
  if (request.anthropicBeta) headers['anthropic-beta'] = request.anthropicBeta;
  const body = {
    ...request.body,
    model: upstreamModelId,
    messages: withVendorSignatures(request.body.messages, request),
  };
  return { url: `${channel.baseUrl}${path}`, headers, body: JSON.stringify(body) };
}

/** The conversation with gateway-sealed signatures resolved: Anthropic's own restored, every other vendor's block dropped. */
function withVendorSignatures(messages: unknown, options: AnthropicPassThroughRequest): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((message: unknown) => {
    if (!isObject(message) || !Array.isArray(message.content)) return message;
    const content = message.content.flatMap((block: unknown) => {
      if (!isObject(block) || block.type !== 'thinking' || typeof block.signature !== 'string') return [block];
      const artefact = options.unsealArtefact(block.signature);
      if (!artefact) return [block];
      return artefact.producer === anthropicArtefactProducer && artefact.signature
        ? [{ ...block, signature: artefact.signature }]
        : [];
    });
    return { ...message, content };
  });
}

function createRelay(options: MessagesPassThroughOptions, channel: RoutableChannel): PassThroughStreamRelay {
  let usage: AnthropicUsage | undefined;
  let framesSent = false;
  return {
    relayEvent(message: EventSourceMessage): PassThroughRelayStep {
      const data = parseObject(message.data);
      // Every Messages event is a JSON object: anything else (an HTML page, cut-off JSON) ends the answer.
      if (!data && message.data.trim() !== '') {
        const failure = unreadableStreamEventError();
        return {
          frames: framesSent
            ? [frame('error', { type: 'error', error: { type: 'api_error', message: failure.message } })]
            : [],
          terminal: true,
          failure,
        };
      }
      const type = message.event ?? (typeof data?.type === 'string' ? data.type : undefined);
      if (!data || !type) return { frames: [] };
      switch (type) {
        case 'message_start': {
          const started = isObject(data.message) ? data.message : {};
          if (isObject(started.usage)) usage = started.usage as AnthropicUsage;
          return sent({
            frames: [frame(type, { ...data, message: { ...started, id: options.messageId, model: options.model } })],
          });
        }
        case 'message_delta': {
          if (isObject(data.usage))
            usage = usage ? mergeAnthropicUsage(usage, data.usage as AnthropicUsage) : (data.usage as AnthropicUsage);
          return sent({ frames: [frame(type, data)], ...(usage ? { usage: tokenUsageOf(usage) } : {}) });
        }
        case 'message_stop':
          return sent({
            frames: [frame(type, data)],
            terminal: true,
            ...(usage ? { usage: tokenUsageOf(usage) } : {}),
          });
        case 'error': {
          const failure = streamFailureOf(data, channel);
          // Before any frame another channel answers instead; after it the client gets the vendor's error event.
          const frames = framesSent
            ? [frame(type, { type: 'error', error: { type: errorTypeOf(data), message: failure.message } })]
            : [];
          return { frames, terminal: framesSent, failure };
        }
        case 'content_block_delta':
          return sent({ frames: [frame(type, data)], ...generatedTextOf(data.delta) });
        default:
          return sent({ frames: [frame(type, data)] });
      }
    },
    cutOff: (failure) => [
      frame('error', {
        type: 'error',
        error: {
          type: failure.code === 'service_unavailable' ? 'overloaded_error' : 'api_error',
          message: failure.message,
        },
      }),
    ],
  };

  function sent(step: PassThroughRelayStep): PassThroughRelayStep {
    framesSent = true;
    return step;
  }
}

/** The text a Messages delta generated (answer, thinking, tool input), kept to bill a stream that ends without usage. */
function generatedTextOf(delta: unknown): { generatedText?: string } {
  if (!isObject(delta)) return {};
  const text = delta.text ?? delta.thinking ?? delta.partial_json;
  return typeof text === 'string' && text.length > 0 ? { generatedText: text } : {};
}

/** Anthropic's usage as billing reads it: input totals include cache reads and writes. */
function tokenUsageOf(usage: AnthropicUsage): TokenUsage {
  return tokenUsageOfCanonical(parseAnthropicUsage(usage));
}

/** Anthropic's mid-stream `error` event as a gateway failure (overloaded is a temporary unavailability). */
function streamFailureOf(data: Record<string, unknown>, channel: RoutableChannel): GatewayError {
  const message =
    isObject(data.error) && typeof data.error.message === 'string'
      ? redactChannelSecrets(data.error.message, channel)
      : 'The upstream vendor failed mid-stream.';
  return new GatewayError(errorTypeOf(data) === 'overloaded_error' ? 'service_unavailable' : 'server_error', message);
}

function errorTypeOf(data: Record<string, unknown>): string {
  return isObject(data.error) && typeof data.error.type === 'string' ? data.error.type : 'api_error';
}

/** An Anthropic SSE frame: every event named, as the SDK requires. */
function frame(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
