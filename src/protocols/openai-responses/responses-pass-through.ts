import type { EventSourceMessage } from 'eventsource-parser';
import { GatewayError } from '../../core/gateway-error.js';
import { formatResponsesEvent } from './format-responses-event.js';
import { pickPassThroughFields } from './responses-pass-through-fields.js';
import { readResponsesUsage } from './read-responses-usage.js';
import { rewriteVendorEvent, rewriteVendorResponse, type GatewayResponseIds } from './rewrite-vendor-response.js';
import { mapOpenAiUpstreamFailure } from '../../providers/openai/map-openai-upstream-failure.js';
import { openAiQuirks } from '../../providers/openai/openai-wire-quirks.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { redactChannelSecrets, secretsOf } from '../../dispatch/redact-channel-secrets.js';
import { unreadableStreamEventError } from '../../dispatch/relay-stream-errors.js';
import { channelHasResponsesApi } from './channel-has-responses-api.js';
import { isCarryingCallId, plainCallIdOf } from './responses-call-id.js';
import {
  UnreadableUpstreamAnswer,
  type PassThroughProtocol,
  type PassThroughRelayStep,
  type PassThroughStreamRelay,
} from '../../dispatch/pass-through/pass-through-protocol.js';

/** The conversation a `previous_response_id` continues, as a pass-through needs it. */
export interface ResponsesPassThroughChain {
  /** the gateway id the client continued from */
  previousResponseId: string;
  /** the channel and vendor id of the previous response when it was passed through (and so stored at the vendor) */
  vendorContinuation: { channelId: string; vendorResponseId: string } | null;
  /** every ancestor's input and output items, oldest first: what any other channel is sent instead */
  items: Array<Record<string, unknown>>;
}

/** The final Response of a passed-through request, handed to the route before its last byte goes to the client. */
export interface PassedThroughResponse {
  /** the Response as the client sees it (gateway ids) */
  response: Record<string, unknown>;
  /** the vendor's own response id */
  vendorResponseId: string | undefined;
  channelId: string;
}

/** What the Responses pass-through works from. */
export interface ResponsesPassThroughOptions {
  /** the client's validated request body */
  body: Record<string, unknown>;
  /** the gateway's `resp_...` id of this response */
  responseId: string;
  /** the public model id the client asked for (the Response shows it, not the channel's model name) */
  model: string;
  chain: ResponsesPassThroughChain | null;
  /**
   * true when a reasoning item's `encrypted_content` was sealed by this gateway (a translated vendor's artefact): such
   * items are never sent to an OpenAI channel, which did not produce them and could not open them
   */
  isGatewaySealed(encryptedContent: string): boolean;
  /** stores the final response (when the client asked to); awaited before the answer is complete */
  onFinalResponse(final: PassedThroughResponse): Promise<void>;
}

/** Lifecycle events that end a streamed response. */
const terminalTypes = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Responses to OpenAI channels that have the Responses API: the client's body goes through with `model` rewritten
 * and the chain resolved (the vendor's own id on the channel that stored it, the replayed items elsewhere); the
 * vendor's `resp_` id is replaced by the gateway's everywhere the client could see it.
 */
export function createResponsesPassThrough(options: ResponsesPassThroughOptions): PassThroughProtocol {
  const ids: GatewayResponseIds = {
    responseId: options.responseId,
    previousResponseId: options.chain?.previousResponseId ?? null,
    model: options.model,
  };
  return {
    servesChannel: channelHasResponsesApi,
    encode(channel, upstreamModelId) {
      return {
        url: openAiQuirks.urlFor(channel, upstreamModelId, '/responses'),
        headers: openAiQuirks.authHeaders(channel),
        body: JSON.stringify(upstreamBodyFor(options, channel, upstreamModelId)),
      };
    },
    mapFailure: (status, bodyText, retryAfter, channel) =>
      mapOpenAiUpstreamFailure(status, bodyText, retryAfter, secretsOf(channel)),
    async rewriteAnswer(bodyText, channel) {
      const parsed = parseJson(bodyText);
      if (parsed === null || typeof parsed !== 'object' || (parsed as { object?: unknown }).object !== 'response')
        throw new UnreadableUpstreamAnswer('not a Response object');
      const { output, usage } = parsed as { output?: unknown; usage?: unknown };
      if (!Array.isArray(output)) throw new UnreadableUpstreamAnswer('a Response without output');
      // Usage, when there is one, is an object of counts: anything else is no answer billing could trust.
      if (usage !== undefined && usage !== null && (typeof usage !== 'object' || Array.isArray(usage)))
        throw new UnreadableUpstreamAnswer('usage is not an object');
      const { response, vendorResponseId } = rewriteVendorResponse(parsed as Record<string, unknown>, ids);
      await options.onFinalResponse({ response, vendorResponseId, channelId: channel.id });
      return { body: JSON.stringify(response), usage: readResponsesUsage(response.usage) };
    },
    createStreamRelay: (channel) => createRelay(options, ids, channel),
  };
}

/** The client's body for one channel (forwarded fields only): its model name, and the chain as the vendor id or as replayed items. */
function upstreamBodyFor(
  options: ResponsesPassThroughOptions,
  channel: RoutableChannel,
  upstreamModelId: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...pickPassThroughFields(options.body), model: upstreamModelId };
  const ownInput =
    typeof body.input === 'string' || body.input === undefined
      ? body.input
      : forOpenAiChannel(body.input as unknown[], options);
  const chain = options.chain;
  if (!chain) return ownInput === undefined ? body : { ...body, input: ownInput };
  if (chain.vendorContinuation?.channelId === channel.id) {
    return {
      ...body,
      ...(ownInput === undefined ? {} : { input: ownInput }),
      previous_response_id: chain.vendorContinuation.vendorResponseId,
    };
  }
  delete body.previous_response_id;
  const input = typeof ownInput === 'string' ? [{ role: 'user', content: ownInput }] : (ownInput ?? []);
  return { ...body, input: [...forOpenAiChannel(chain.items, options), ...input] };
}

/**
 * The items as an OpenAI channel takes them, whichever vendor made them (a conversation begun on a Gemini channel):
 * without reasoning the gateway sealed (see ResponsesPassThroughOptions.isGatewaySealed), and every `call_id` that
 * carries a translated vendor's artefact cut to its plain call id (OpenAI refuses ids over 64 characters).
 */
function forOpenAiChannel(items: unknown[], options: ResponsesPassThroughOptions): unknown[] {
  return items
    .filter((item) => {
      if (item === null || typeof item !== 'object') return true;
      const { type, encrypted_content: encryptedContent } = item as { type?: unknown; encrypted_content?: unknown };
      return !(
        type === 'reasoning' &&
        typeof encryptedContent === 'string' &&
        options.isGatewaySealed(encryptedContent)
      );
    })
    .map(withPlainCallId);
}

/** An item with its artefact-carrying `call_id` (function, custom and tool-search calls and outputs) made plain. */
function withPlainCallId(item: unknown): unknown {
  if (item === null || typeof item !== 'object') return item;
  const callId = (item as { call_id?: unknown }).call_id;
  if (typeof callId !== 'string' || !isCarryingCallId(callId)) return item;
  return { ...item, call_id: plainCallIdOf(callId) };
}

function createRelay(
  options: ResponsesPassThroughOptions,
  ids: GatewayResponseIds,
  channel: RoutableChannel,
): PassThroughStreamRelay {
  /** the last Response a lifecycle event carried, the base of a synthesised `response.failed` */
  let lastResponse: Record<string, unknown> | undefined;
  let lastSequenceNumber = -1;
  let framesSent = false;
  /** the vendor's mid-stream `error`, which its `response.failed` follows */
  let streamFailure: GatewayError | undefined;

  const failedFrame = (failure: GatewayError): string => {
    const code = failure.code === 'rate_limit_exceeded' ? 'rate_limit_exceeded' : 'server_error';
    const response = {
      ...(lastResponse ?? { id: ids.responseId, object: 'response', output: [] }),
      status: 'failed',
      error: { code, message: failure.message },
    };
    lastSequenceNumber += 1;
    return formatResponsesEvent({ type: 'response.failed', sequence_number: lastSequenceNumber, response });
  };

  return {
    async relayEvent(message: EventSourceMessage): Promise<PassThroughRelayStep> {
      const data = parseJson(message.data);
      // Every Responses event is a JSON object: anything else (an HTML page, cut-off JSON) ends the answer.
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        if (message.data.trim() === '') return { frames: [] };
        const failure = unreadableStreamEventError();
        return { frames: framesSent ? [failedFrame(failure)] : [], terminal: true, failure };
      }
      const rewritten = rewriteVendorEvent(data as Record<string, unknown>, ids);
      const { type, vendorResponseId } = rewritten;
      // A failed response quotes the vendor's error text: it reaches the client (and the stored response) redacted.
      const event = type === 'response.failed' ? withRedactedFailure(rewritten.event, channel) : rewritten.event;
      if (typeof event.sequence_number === 'number') lastSequenceNumber = event.sequence_number;
      if (type === 'error') {
        streamFailure = mapStreamError(event, channel);
        // Before any frame another channel answers instead; after it the client sees the vendor's own events.
        return {
          frames: framesSent ? [vendorFrame(type, { ...event, message: streamFailure.message })] : [],
          failure: streamFailure,
        };
      }
      const response = event.response as Record<string, unknown> | undefined;
      if (response) lastResponse = response;
      if (!terminalTypes.has(type)) {
        framesSent = true;
        const generatedText = generatedTextTypes.has(type) ? event.delta : undefined;
        return {
          frames: [vendorFrame(type, event)],
          ...(typeof generatedText === 'string' && generatedText.length > 0 ? { generatedText } : {}),
        };
      }
      const usage = readResponsesUsage(response?.usage);
      const failure =
        type === 'response.failed'
          ? (streamFailure ?? new GatewayError('server_error', 'The upstream vendor failed the response.'))
          : undefined;
      if (response && (framesSent || !failure))
        await options.onFinalResponse({ response, vendorResponseId, channelId: channel.id });
      framesSent = true;
      return {
        frames: [vendorFrame(type, event)],
        terminal: true,
        ...(usage ? { usage } : {}),
        ...(failure ? { failure } : {}),
      };
    },
    cutOff: (failure) => [failedFrame(failure)],
  };
}

/** The delta events whose `delta` is generated text (answer, tool arguments, reasoning): billed, counted, when no usage arrives. */
const generatedTextTypes: ReadonlySet<string> = new Set([
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.refusal.delta',
]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A vendor event as SSE, its `event:` line equal to its type (vendor event types pass through, known or not). */
function vendorFrame(type: string, event: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A `response.failed` event with its `response.error.message` redacted of the channel's secrets. */
function withRedactedFailure(event: Record<string, unknown>, channel: RoutableChannel): Record<string, unknown> {
  const response = event.response;
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return event;
  const error = (response as Record<string, unknown>).error;
  if (error === null || typeof error !== 'object' || Array.isArray(error)) return event;
  const message = (error as Record<string, unknown>).message;
  if (typeof message !== 'string') return event;
  return { ...event, response: { ...response, error: { ...error, message: redactChannelSecrets(message, channel) } } };
}

/** OpenAI's mid-stream `error` event (`{type:"error", code, message, param}`) as a gateway failure. */
function mapStreamError(event: Record<string, unknown>, channel: RoutableChannel): GatewayError {
  const code = String(event.code ?? '');
  const message =
    typeof event.message === 'string'
      ? redactChannelSecrets(event.message, channel)
      : 'The upstream vendor failed mid-stream.';
  if (/rate_limit/.test(code)) return new GatewayError('rate_limit_exceeded', message);
  return new GatewayError('server_error', message);
}
