import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { VendorCall, VendorChannel, VendorHttpRequest } from '../vendor-adapter.js';
import { collectRemoteImageRequests } from '../remote-image/collect-remote-image-requests.js';
import { fetchRemoteImages } from '../remote-image/fetch-remote-images.js';
import { convertGeminiContents } from './convert-gemini-contents.js';
import { convertGeminiTools } from './convert-gemini-tools.js';
import { encodeGeminiGenerationConfig } from './encode-gemini-generation-config.js';
import { isGeminiFileUri } from './is-gemini-file-uri.js';

/**
 * Builds `POST {base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a stream. Image URLs other
 * than Files API URIs are fetched first and sent inline, since Gemini's `fileData` does not read ordinary web URLs.
 */
export async function encodeGeminiRequest(request: CanonicalRequest, call: VendorCall): Promise<VendorHttpRequest> {
  // Before any image is fetched: a refused effort costs nothing.
  const generationConfig = encodeGeminiGenerationConfig(request, call.upstreamModelId);
  const remoteImages = await fetchRemoteImages(
    collectRemoteImageRequests(request.messages, isGeminiFileUri),
    call.fetchRemoteImage,
  );
  const conversation = convertGeminiContents(request.instructions, request.messages, remoteImages);
  const body = {
    // Members only Gemini honours (safetySettings), as the Gemini-native client sent them; encoded members win.
    ...request.vendorExtras?.gemini,
    contents: conversation.contents,
    ...(conversation.systemInstruction ? { systemInstruction: conversation.systemInstruction } : {}),
    ...convertGeminiTools(request),
    ...(generationConfig ? { generationConfig } : {}),
  };
  const action = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return {
    url: geminiModelUrl(call.channel, call.upstreamModelId, action),
    headers: geminiHeaders(call.channel),
    body: JSON.stringify(body),
  };
}

/** `{base}/models/{model}:{action}`; a model name given as `models/x` is accepted too. */
export function geminiModelUrl(channel: VendorChannel, model: string, action: string): string {
  const name = model.replace(/^models\//, '');
  return `${channel.baseUrl}/models/${encodeURIComponent(name)}:${action}`;
}

/** The key header (Gemini API keys go in `x-goog-api-key`, never in the URL). */
export function geminiHeaders(channel: VendorChannel): Record<string, string> {
  return { 'x-goog-api-key': channel.secret, 'content-type': 'application/json' };
}
