import type { CanonicalMessage } from '../../core/canonical/canonical-request.js';
import type { RemoteImageRequest } from './remote-image.js';

const remoteUrlPattern = /^https?:\/\//i;

/**
 * The http(s) image URLs of the user messages, in order, each with the param naming it (in the chat request's terms,
 * whose message and part indices the canonical request keeps). `vendorReadsUrl` keeps out URLs the vendor fetches
 * itself (e.g. Gemini Files API URIs).
 */
export function collectRemoteImageRequests(
  messages: readonly CanonicalMessage[],
  vendorReadsUrl: (url: string) => boolean = () => false,
): RemoteImageRequest[] {
  const requests: RemoteImageRequest[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user') return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'image' || !remoteUrlPattern.test(part.url) || vendorReadsUrl(part.url)) return;
      requests.push({ url: part.url, param: `messages[${messageIndex}].content[${partIndex}].image_url.url` });
    });
  });
  return requests;
}
