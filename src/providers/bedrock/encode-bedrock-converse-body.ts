import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { closeJsonSchemaObjects } from '../close-json-schema-objects.js';
import { planClaudeThinking } from '../plan-claude-thinking.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { BedrockConverseRequestBody } from './bedrock-converse-types.js';
import { convertBedrockMessages } from './convert-bedrock-messages.js';
import { convertBedrockToolConfig } from './convert-bedrock-tool-config.js';
import { placeBedrockCachePoints } from './place-bedrock-cache-points.js';
import { isBedrockClaudeModel, rejectUnsupportedBedrockParameters } from './reject-unsupported-bedrock-parameters.js';

/** The model a Converse body is for: its id and its output cap from the catalog (tokens), when known. */
export interface BedrockModelTarget {
  id: string;
  maxOutputTokens: number | undefined;
}

/**
 * Builds the Converse body (the same for `/converse` and `/converse-stream`) with the http(s) image URLs already fetched
 * into `remoteImages` (by URL); throws a 400 GatewayError for what Converse cannot honour. A reasoning effort becomes
 * Claude's `thinking` in `additionalModelRequestFields` (planClaudeThinking); an unnamed model is not Claude. A JSON
 * schema output format becomes `outputConfig.textFormat`. Models that cache prompts get the gateway's cache
 * checkpoints (placeBedrockCachePoints).
 */
export function encodeBedrockConverseBody(
  request: CanonicalRequest,
  remoteImages: ReadonlyMap<string, RemoteImage>,
  model: BedrockModelTarget = { id: '', maxOutputTokens: undefined },
): BedrockConverseRequestBody {
  rejectUnsupportedBedrockParameters(request, model.id);
  const thinkingPlan = isBedrockClaudeModel(model.id)
    ? planClaudeThinking(request, model.id, model.maxOutputTokens)
    : {};
  const conversation = convertBedrockMessages(request.instructions, request.messages, remoteImages);
  const body: BedrockConverseRequestBody = { messages: conversation.messages };
  if (conversation.system.length > 0) body.system = conversation.system;
  const inferenceConfig = convertInferenceConfig(request, thinkingPlan.maxTokens);
  if (inferenceConfig) body.inferenceConfig = inferenceConfig;
  if (thinkingPlan.thinking) body.additionalModelRequestFields = { thinking: thinkingPlan.thinking };
  const toolConfig = convertBedrockToolConfig(request, conversation.usesTools);
  if (toolConfig) body.toolConfig = toolConfig;
  const outputConfig = convertOutputConfig(request);
  if (outputConfig) body.outputConfig = outputConfig;
  placeBedrockCachePoints(body, model.id);
  return body;
}

/**
 * A JSON-schema output format as Converse's `outputConfig.textFormat` (the schema as a JSON string, its objects closed
 * where they do not say: Claude takes closed objects only).
 */
function convertOutputConfig(request: CanonicalRequest): BedrockConverseRequestBody['outputConfig'] {
  const format = request.outputFormat;
  if (format.type !== 'json-schema') return undefined;
  return {
    textFormat: {
      type: 'json_schema',
      structure: {
        jsonSchema: {
          schema: JSON.stringify(closeJsonSchemaObjects(format.schema)),
          name: format.name,
          ...(format.description ? { description: format.description } : {}),
        },
      },
    },
  };
}

function convertInferenceConfig(
  request: CanonicalRequest,
  thinkingMaxTokens: number | undefined,
): BedrockConverseRequestBody['inferenceConfig'] {
  const config: NonNullable<BedrockConverseRequestBody['inferenceConfig']> = {};
  // Converse does not require a limit, so none is invented (the model's own default applies) unless thinking needs one.
  const maxTokens = thinkingMaxTokens ?? request.maxOutputTokens;
  if (maxTokens !== null) config.maxTokens = maxTokens;
  if (request.sampling.temperature !== null) config.temperature = request.sampling.temperature;
  if (request.sampling.topP !== null) config.topP = request.sampling.topP;
  if (request.sampling.stopSequences?.length) config.stopSequences = request.sampling.stopSequences;
  return Object.keys(config).length > 0 ? config : undefined;
}
