import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { BedrockConverseRequestBody } from './bedrock-converse-types.js';
import { convertBedrockMessages } from './convert-bedrock-messages.js';
import { convertBedrockToolConfig } from './convert-bedrock-tool-config.js';
import { rejectUnsupportedBedrockParameters } from './reject-unsupported-bedrock-parameters.js';

/**
 * Builds the Converse body (the same for `/converse` and `/converse-stream`) with the http(s) image URLs already fetched
 * into `remoteImages` (by URL); throws a 400 GatewayError for what Converse cannot honour.
 */
export function encodeBedrockConverseBody(request: CanonicalRequest, remoteImages: ReadonlyMap<string, RemoteImage>): BedrockConverseRequestBody {
  rejectUnsupportedBedrockParameters(request);
  const conversation = convertBedrockMessages(request.instructions, request.messages, remoteImages);
  const body: BedrockConverseRequestBody = { messages: conversation.messages };
  if (conversation.system.length > 0) body.system = conversation.system;
  const inferenceConfig = convertInferenceConfig(request);
  if (inferenceConfig) body.inferenceConfig = inferenceConfig;
  const toolConfig = convertBedrockToolConfig(request, conversation.usesTools);
  if (toolConfig) body.toolConfig = toolConfig;
  return body;
}

function convertInferenceConfig(request: CanonicalRequest): BedrockConverseRequestBody['inferenceConfig'] {
  const config: NonNullable<BedrockConverseRequestBody['inferenceConfig']> = {};
  // Converse does not require a limit, so none is invented: the model's own default applies.
  if (request.maxOutputTokens !== null) config.maxTokens = request.maxOutputTokens;
  if (request.sampling.temperature !== null) config.temperature = request.sampling.temperature;
  if (request.sampling.topP !== null) config.topP = request.sampling.topP;
  if (request.sampling.stopSequences?.length) config.stopSequences = request.sampling.stopSequences;
  return Object.keys(config).length > 0 ? config : undefined;
}
