import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { VendorCall, VendorHttpRequest } from '../vendor-adapter.js';
import { collectRemoteImageRequests } from '../remote-image/collect-remote-image-requests.js';
import { fetchRemoteImages } from '../remote-image/fetch-remote-images.js';
import { loadEventStreamCodec } from './decode-bedrock-event-frames.js';
import { encodeBedrockConverseBody } from './encode-bedrock-converse-body.js';
import { parseBedrockCredentials } from './parse-bedrock-credentials.js';
import { rejectUnsupportedBedrockParameters } from './reject-unsupported-bedrock-parameters.js';
import { resolveBedrockRegion } from './resolve-bedrock-region.js';
import { signBedrockRequest } from './sign-bedrock-request.js';

/** The Converse URL for a model: ids such as `anthropic.claude-3-5-sonnet-20240620-v1:0` or ARNs are percent-encoded into one path segment. */
export function bedrockConverseUrl(baseUrl: string, modelId: string, stream: boolean): string {
  return `${baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(modelId)}/${stream ? 'converse-stream' : 'converse'}`;
}

/** Maps a canonical request to a signed Converse (or ConverseStream) request, fetching http(s) image URLs to send their bytes. */
export async function encodeBedrockChatRequest(
  request: CanonicalRequest,
  call: VendorCall,
): Promise<VendorHttpRequest> {
  // Refused parameters fail before any image is fetched.
  rejectUnsupportedBedrockParameters(request, call.upstreamModelId);
  const remoteImages = await fetchRemoteImages(collectRemoteImageRequests(request.messages), call.fetchRemoteImage);
  if (call.stream) await loadEventStreamCodec();
  const body = JSON.stringify(
    encodeBedrockConverseBody(request, remoteImages, {
      id: call.upstreamModelId,
      maxOutputTokens: call.maxOutputTokens,
    }),
  );
  return signBedrockRequest({
    url: bedrockConverseUrl(call.channel.baseUrl, call.upstreamModelId, call.stream),
    body,
    region: resolveBedrockRegion(call.channel),
    credentials: parseBedrockCredentials(call.channel.secret),
    signingTime: call.clock(),
  });
}
