import type { VendorCall } from '../vendor-adapter.js';
import { defaultAnthropicApiVersion } from '../anthropic/anthropic-api-version.js';
import { parseVertexCredentials, type VertexCredentials } from './parse-vertex-credentials.js';
import type { VertexPublisher } from './vertex-model-url.js';

/** What one Vertex call is: whose model it reaches, with what credentials, and the call the public adapter sees. */
export interface VertexCallPlan {
  publisher: VertexPublisher;
  credentials: VertexCredentials;
  /**
   * the call handed to the Gemini or Anthropic adapter: the same for encoding and decoding (adapters key per-call
   * state on it); Claude's body is the 2023-06-01 Messages body, the version Vertex's `vertex-2023-10-16` follows
   */
  innerCall: VendorCall;
}

const plans = new WeakMap<VendorCall, VertexCallPlan>();

/**
 * The plan of a call, made once: the publisher is the channel's `publisher` setting (`google` or `anthropic`), else
 * `anthropic` for model names starting with `claude`, else `google`.
 */
export function vertexCallPlan(call: VendorCall): VertexCallPlan {
  const known = plans.get(call);
  if (known) return known;
  const setting = call.channel.settings['publisher'];
  const publisher: VertexPublisher =
    setting === 'anthropic' || setting === 'google'
      ? setting
      : call.upstreamModelId.startsWith('claude')
        ? 'anthropic'
        : 'google';
  const innerCall: VendorCall =
    publisher === 'anthropic'
      ? {
          ...call,
          channel: { ...call.channel, settings: { ...call.channel.settings, apiVersion: defaultAnthropicApiVersion } },
        }
      : call;
  const plan = { publisher, credentials: parseVertexCredentials(call.channel.secret), innerCall };
  plans.set(call, plan);
  return plan;
}
