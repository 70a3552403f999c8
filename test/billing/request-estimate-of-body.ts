import type { MeteredEndpoint } from '../../src/billing/request-accounting.js';
import type { RequestEstimate } from '../../src/core/request-estimate.js';
import { parseMessagesRequest } from '../../src/protocols/anthropic-messages/parse-messages-request.js';
import { estimateMessagesRequest } from '../../src/protocols/anthropic-messages/estimate-messages-request.js';
import { estimateChatRequest, type ChatEstimateFields } from '../../src/protocols/openai-chat/estimate-chat-request.js';
import { estimateCompletionRequest } from '../../src/protocols/openai-endpoints/estimate-completion-request.js';
import { estimateEmbeddingRequest } from '../../src/protocols/openai-endpoints/estimate-embedding-request.js';
import { estimateImageRequest } from '../../src/protocols/openai-endpoints/estimate-image-request.js';
import { estimateModerationRequest } from '../../src/protocols/openai-endpoints/estimate-moderation-request.js';
import { moderationRequestSchema } from '../../src/protocols/openai-endpoints/moderation-request-schema.js';
import { estimateSpeechRequest } from '../../src/protocols/openai-endpoints/estimate-speech-request.js';
import { speechRequestSchema } from '../../src/protocols/openai-endpoints/speech-request-schema.js';
import { estimateTranscriptionRequest } from '../../src/protocols/openai-endpoints/estimate-transcription-request.js';
import { estimateResponsesRequest } from '../../src/protocols/openai-responses/estimate-responses-request.js';
import { parseResponsesRequest } from '../../src/protocols/openai-responses/parse-responses-request.js';

/**
 * The estimate the route of `endpoint` hands billing for a request body (JSON, or a form's text fields), made by the
 * endpoint's client protocol as in the gateway: for tests that build MeteredRequests by hand.
 */
export function requestEstimateOf(endpoint: MeteredEndpoint, body: Record<string, unknown>): RequestEstimate {
  switch (endpoint) {
    case 'chat.completions':
      return estimateChatRequest({ messages: [], ...body } as ChatEstimateFields);
    case 'completions':
      return estimateCompletionRequest(body);
    case 'embeddings':
      return estimateEmbeddingRequest(body);
    case 'images.generations':
    case 'images.edits':
      return estimateImageRequest(body);
    case 'audio.transcriptions':
      return estimateTranscriptionRequest(body);
    case 'audio.speech':
      // Token-priced (gpt-4o-mini-tts); a test of a character-priced model builds its estimate itself.
      return estimateSpeechRequest(speechRequestSchema.parse(body), 'tokens');
    case 'moderations':
      return estimateModerationRequest(moderationRequestSchema.parse(body));
    case 'responses':
      return estimateResponsesRequest(parseResponsesRequest(body).request);
    case 'messages':
      return estimateMessagesRequest(parseMessagesRequest(body).request);
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}
