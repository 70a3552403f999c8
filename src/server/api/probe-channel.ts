import { request, type Dispatcher } from 'undici';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import type { VendorCall } from '../../providers/vendor-adapter.js';
import { findVendorAdapter } from '../../providers/vendor-adapter-registry.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import { mapOpenAiUpstreamFailure } from '../../providers/openai/map-openai-upstream-failure.js';
import { createOpenAiWireTarget, openAiWireProtocols } from '../../providers/openai/openai-wire-target.js';
import { redactUpstreamText } from '../../providers/openai/redact-upstream-text.js';
import { isChannelProtocol } from '../../core/channel-protocol.js';
import { GatewayError } from '../../core/gateway-error.js';
import { withChannelOutcome } from '../../dispatch/channel-attempt-result.js';
import { transportFailureOutcome } from '../../dispatch/transport-failure-outcome.js';
import { tryChannelsWithBreakers } from '../../dispatch/try-channels-with-breakers.js';
import type { ChannelHealthService } from '../../routing/channel-health/channel-health-service.js';
import type { ChannelOutcome } from '../../routing/channel-health/channel-outcome.js';
import { mapStatusToChannelOutcome } from '../../routing/channel-health/map-status-to-channel-outcome.js';
import type { RoutableChannel } from '../../routing/routing-table.js';

/** The channel to probe, with its secret already decrypted. */
export interface ProbedChannel {
  id: string;
  name: string;
  protocol: string;
  /** base URL without a trailing slash */
  baseUrl: string;
  /** decrypted secret; never part of the answer */
  secret: string;
  settings: Readonly<Record<string, string>>;
  /** public model id -> upstream model id */
  modelMapping: Readonly<Record<string, string>>;
}

/** How to reach the vendor and measure the time. */
export interface ProbeOptions {
  dispatcher: Dispatcher;
  /** Unix milliseconds */
  clock: () => number;
  /** longest wait for the vendor's headers and between body chunks, in milliseconds */
  timeoutMs: number;
  /** the gateway's circuit breakers: the probe's outcome is recorded on the channel's breaker for the model */
  channelHealth: ChannelHealthService;
}

/** The result of one probe: whether the vendor answered 2xx, in how many milliseconds, and a redacted error. */
export interface ChannelProbeResult {
  ok: boolean;
  /** milliseconds from sending to the end of the vendor's answer */
  latencyMs: number;
  /** the vendor's HTTP status, or null when it could not be reached */
  status: number | null;
  /** what went wrong, with the channel's secret, host and any URL or key-like text removed; absent on success */
  error?: string;
}

/**
 * Sends one tiny chat completion (one output token) for `model` to the channel through the same encoding the
 * gateway uses (the OpenAI wire for openai/azure, the channel protocol's adapter otherwise), through the failover loop
 * with the breaker gate over this one channel. A probe is always sent, even while the channel's breaker is open (the
 * administrator asked for this channel: the gate lets a lone open channel through, as when every channel is open), and
 * its outcome is recorded on the breaker for the model: a success closes an open breaker, a failure leaves its
 * cool-down standing (a Retry-After may lengthen it), a refusal the request caused (4xx) counts for nothing. Nothing
 * is billed or logged as usage: the caller is an administrator testing the channel.
 */
export async function probeChannel(
  channel: ProbedChannel,
  model: string,
  options: ProbeOptions,
): Promise<ChannelProbeResult> {
  if (!isChannelProtocol(channel.protocol))
    return { ok: false, latencyMs: 0, status: null, error: `No adapter serves the protocol ${channel.protocol}.` };
  const routable: RoutableChannel = {
    id: channel.id,
    name: channel.name,
    protocol: channel.protocol,
    baseUrl: channel.baseUrl,
    secret: channel.secret,
    priority: 0,
    weight: 1,
    ownedBy: 'custom',
    modelMapping: new Map(Object.entries(channel.modelMapping)),
    settings: channel.settings,
  };
  let probed: ChannelProbeResult | undefined;
  try {
    const answered = await tryChannelsWithBreakers({
      health: options.channelHealth,
      modelId: model,
      channels: [routable],
      attempt: async () => {
        const once = await probeOnce(channel, model, options);
        probed = once.result;
        return withChannelOutcome(
          once.result.ok ? { kind: 'success', value: once.result } : { kind: 'final-failure', error: probeFailed },
          once.outcome,
        );
      },
    });
    return answered.value;
  } catch (error) {
    if (probed) return probed;
    throw error;
  }
}

/** Stands for a failed probe in the failover loop; the administrator sees the probe's own result instead. */
const probeFailed = new GatewayError('service_unavailable', 'The channel test failed.');

/** One probe of the channel, and what it says of the channel's health for its breaker. */
async function probeOnce(
  channel: ProbedChannel,
  model: string,
  options: ProbeOptions,
): Promise<{ result: ChannelProbeResult; outcome: ChannelOutcome }> {
  const inconclusive: ChannelOutcome = { kind: 'inconclusive' };
  const upstreamModelId = channel.modelMapping[model] ?? model;
  const knownSecrets = [
    channel.secret,
    channel.baseUrl,
    URL.canParse(channel.baseUrl) ? new URL(channel.baseUrl).host : '',
  ];
  const redact = (text: string) => redactUpstreamText(text, knownSecrets);
  const chatRequest: ChatCompletionRequest = {
    model,
    messages: [{ role: 'user', content: 'ping' }],
    max_tokens: 1,
    stream: false,
  };
  const startedAt = options.clock();
  const elapsed = () => Math.max(0, options.clock() - startedAt);
  const adapter = findVendorAdapter(channel.protocol);
  let vendorRequest: { url: string; headers: Record<string, string>; body: string };
  try {
    if (openAiWireProtocols.has(channel.protocol)) {
      const target = createOpenAiWireTarget(channel.protocol, channel, upstreamModelId);
      vendorRequest = {
        url: target.urlFor('/chat/completions'),
        headers: target.headers,
        body: JSON.stringify({ ...chatRequest, model: upstreamModelId }),
      };
    } else if (adapter) {
      const call: VendorCall = {
        channel,
        upstreamModelId,
        publicModelId: model,
        maxOutputTokens: 1,
        stream: false,
        clock: options.clock,
      };
      vendorRequest = await adapter.encodeRequest(chatRequestToCanonical(chatRequest), call);
    } else {
      const error = `No adapter serves the protocol ${channel.protocol}.`;
      return { result: { ok: false, latencyMs: 0, status: null, error }, outcome: inconclusive };
    }
  } catch (error) {
    const message =
      error instanceof GatewayError ? error.message : 'The test request could not be encoded for this channel.';
    return { result: { ok: false, latencyMs: 0, status: null, error: redact(message) }, outcome: inconclusive };
  }
  let response: Dispatcher.ResponseData;
  try {
    response = await request(vendorRequest.url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...vendorRequest.headers },
      body: vendorRequest.body,
      dispatcher: options.dispatcher,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (error) {
    return {
      result: {
        ok: false,
        latencyMs: elapsed(),
        status: null,
        error: `The vendor could not be reached (${describeTransportError(error)}).`,
      },
      outcome: transportFailureOutcome(error),
    };
  }
  const bodyText = await response.body.text().catch(() => '');
  const latencyMs = elapsed();
  if (response.statusCode < 400)
    return { result: { ok: true, latencyMs, status: response.statusCode }, outcome: { kind: 'success' } };
  const retryAfterHeader = response.headers['retry-after'];
  const retryAfter = Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader;
  const mapped = adapter
    ? adapter.mapFailure(response.statusCode, bodyText, retryAfter)
    : mapOpenAiUpstreamFailure(response.statusCode, bodyText, retryAfter, knownSecrets);
  const summary = mapped.kind === 'success' ? `The vendor answered ${response.statusCode}.` : mapped.error.message;
  const vendorMessage = readVendorMessage(bodyText);
  const detail = vendorMessage === undefined ? summary : `${summary} Vendor said: ${vendorMessage}`;
  return {
    result: { ok: false, latencyMs, status: response.statusCode, error: redact(detail) },
    outcome: mapStatusToChannelOutcome(response.statusCode, retryAfter),
  };
}

/** The vendor's own error message (OpenAI, Anthropic and Gemini all put one at `error.message`), or undefined. */
function readVendorMessage(bodyText: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (!parsed || typeof parsed !== 'object' || !('error' in parsed)) return undefined;
    const error: unknown = parsed.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
      return error.message;
  } catch {
    // Not JSON: nothing of it is shown.
  }
  return undefined;
}

/** A transport failure's code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ...), never its message, which may hold the address. */
function describeTransportError(error: unknown): string {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'connection failed';
}
