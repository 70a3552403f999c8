import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { anthropicVendorAdapter } from '../anthropic/anthropic-vendor-adapter.js';
import { geminiVendorAdapter } from '../gemini/gemini-vendor-adapter.js';
import type { VendorAdapter, VendorCall, VendorHttpRequest } from '../vendor-adapter.js';
import { mapVertexFailure } from './map-vertex-failure.js';
import { VertexAccessTokens } from './vertex-access-tokens.js';
import { vertexAuthHeader } from './vertex-auth-header.js';
import { vertexCallPlan } from './vertex-call-plan.js';
import { vertexEmbeddings } from './vertex-embeddings.js';
import { vertexModelUrl } from './vertex-model-url.js';

/** Claude's Messages body on Vertex names its version in the body, not in a header. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/** The Messages body the Anthropic adapter encoded (the gateway's own JSON). */
const jsonObjectSchema = z.record(z.string(), z.unknown());

/** The tokens of every Vertex channel's service account, shared by chat and embeddings. */
const accessTokens = new VertexAccessTokens();

/**
 * Google Vertex AI (channel protocol `vertex`, base URL `https://aiplatform.googleapis.com/v1`; settings `project`,
 * `location`, `publisher`): Gemini models with Gemini's own body (`:generateContent`, `:streamGenerateContent?alt=sse`)
 * and Claude with the Messages body (`:rawPredict`, `:streamRawPredict`), so both translate and bill exactly as on the
 * public APIs; only the address and the authentication differ.
 */
export const vertexVendorAdapter: VendorAdapter = {
  protocol: 'vertex',
  async encodeRequest(request, call) {
    const plan = vertexCallPlan(call);
    if (plan.publisher === 'google') {
      const encoded = await geminiVendorAdapter.encodeRequest(request, plan.innerCall);
      const action = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      return readdressed(encoded, call, action);
    }
    const encoded = await anthropicVendorAdapter.encodeRequest(request, plan.innerCall);
    const { model: _model, ...body } = jsonObjectSchema.parse(JSON.parse(encoded.body));
    const { 'x-api-key': _key, 'anthropic-version': _version, ...headers } = encoded.headers;
    return readdressed(
      { ...encoded, headers, body: JSON.stringify({ anthropic_version: vertexAnthropicVersion, ...body }) },
      call,
      call.stream ? 'streamRawPredict' : 'rawPredict',
    );
  },
  decodeResponse(bodyText, call) {
    const plan = vertexCallPlan(call);
    return publicAdapterOf(call).decodeResponse(bodyText, plan.innerCall);
  },
  decodeStream(body, call) {
    const plan = vertexCallPlan(call);
    return publicAdapterOf(call).decodeStream(body, plan.innerCall);
  },
  mapFailure: mapVertexFailure,
  embeddings: {
    async encode(request, call) {
      if (vertexCallPlan(call).publisher !== 'google')
        throw new GatewayError('service_unavailable', 'Claude on Vertex AI has no embeddings.');
      return readdressed(vertexEmbeddings.encode(request), call, 'predict');
    },
    decode: (bodyText, request, call) => vertexEmbeddings.decode(bodyText, request, call),
  },
};

function publicAdapterOf(call: VendorCall): VendorAdapter {
  return vertexCallPlan(call).publisher === 'google' ? geminiVendorAdapter : anthropicVendorAdapter;
}

/** The request at its Vertex address with the channel's authentication instead of the public API's. */
async function readdressed(encoded: VendorHttpRequest, call: VendorCall, action: string): Promise<VendorHttpRequest> {
  const plan = vertexCallPlan(call);
  const { 'x-goog-api-key': _key, ...headers } = encoded.headers;
  return {
    url: vertexModelUrl(call.channel, plan.credentials, plan.publisher, call.upstreamModelId, action),
    headers: {
      ...headers,
      ...(await vertexAuthHeader(plan.credentials, accessTokens)),
      'content-type': 'application/json',
    },
    body: encoded.body,
  };
}
