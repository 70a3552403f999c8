import { request, type Dispatcher } from 'undici';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import type { VendorCall } from '../../providers/vendor-adapter.js';
import { findVendorAdapter } from '../../providers/vendor-adapter-registry.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import { mapOpenAiUpstreamFailure } from '../../providers/openai/map-openai-upstream-failure.js';
import { createOpenAiWireTarget, openAiWireProtocols } from '../../providers/openai/openai-wire-target.js';
import { redactUpstreamText } from '../../providers/openai/redact-upstream-text.js';
import { GatewayError } from '../../core/gateway-error.js';

/** The channel to probe, with its secret already decrypted. */
export interface ProbedChannel {
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
 * gateway uses (the OpenAI wire for openai/azure, the channel protocol's adapter otherwise). Nothing is billed or
 * logged as usage: the caller is an administrator testing the channel.
 */
export async function probeChannel(
  channel: ProbedChannel,
  model: string,
  options: ProbeOptions,
): Promise<ChannelProbeResult> {
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
      return { ok: false, latencyMs: 0, status: null, error: `No adapter serves the protocol ${channel.protocol}.` };
    }
  } catch (error) {
    const message =
      error instanceof GatewayError ? error.message : 'The test request could not be encoded for this channel.';
    return { ok: false, latencyMs: 0, status: null, error: redact(message) };
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
      ok: false,
      latencyMs: elapsed(),
      status: null,
      error: `The vendor could not be reached (${describeTransportError(error)}).`,
    };
  }
  const bodyText = await response.body.text().catch(() => '');
  const latencyMs = elapsed();
  if (response.statusCode < 400) return { ok: true, latencyMs, status: response.statusCode };
  const retryAfter = undefined;
  const mapped = adapter
    ? adapter.mapFailure(response.statusCode, bodyText, retryAfter)
    : mapOpenAiUpstreamFailure(response.statusCode, bodyText, retryAfter, knownSecrets);
  const summary = mapped.kind === 'success' ? `The vendor answered ${response.statusCode}.` : mapped.error.message;
  const vendorMessage = readVendorMessage(bodyText);
  const detail = vendorMessage === undefined ? summary : `${summary} Vendor said: ${vendorMessage}`;
  return { ok: false, latencyMs, status: response.statusCode, error: redact(detail) };
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
