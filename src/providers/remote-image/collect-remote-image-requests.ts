import type { ChatMessage } from '../../core/openai-chat-request.js';
import type { RemoteImageRequest } from './remote-image.js';

const remoteUrlPattern = /^https?:\/\//i;

/**
 * The http(s) image URLs of the user messages, in order, each with the param naming it. `vendorReadsUrl` keeps out URLs
 * the vendor fetches itself (e.g. Gemini Files API URIs).
 */
export function collectRemoteImageRequests(messages: readonly ChatMessage[], vendorReadsUrl: (url: string) => boolean = () => false): RemoteImageRequest[] {
  const requests: RemoteImageRequest[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user' || typeof message.content === 'string') return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'image_url') return;
      const url: unknown = (part.image_url as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || !remoteUrlPattern.test(url) || vendorReadsUrl(url)) return;
      requests.push({ url, param: `messages[${messageIndex}].content[${partIndex}].image_url.url` });
    });
  });
  return requests;
}
