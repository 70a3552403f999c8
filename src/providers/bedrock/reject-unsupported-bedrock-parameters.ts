import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { refuseUnmappedOpenAiFields } from '../translated-stream/refuse-unmapped-openai-fields.js';

/**
 * A 400 naming the first parameter Converse cannot honour and whose loss would change the answer, or that changes
 * the price (the same refusals as Anthropic and Gemini: premium `service_tier`, audio, web search, `reasoning_effort`, ...).
 * `seed`, `user`, `stream_options` and `parallel_tool_calls` change nothing a client can rely on and are not sent.
 */
export function rejectUnsupportedBedrockParameters(request: ChatCompletionRequest): void {
  refuseUnmappedOpenAiFields(request);
  if (request.n !== undefined && request.n !== null && request.n !== 1) {
    throw new GatewayError('invalid_request_error', 'Bedrock models return one choice per request; `n` must be 1.', { param: 'n' });
  }
  // Converse's InferenceConfiguration caps temperature at 1 (OpenAI allows 2); clamping would change the answer.
  if (typeof request.temperature === 'number' && request.temperature > 1) {
    throw new GatewayError('invalid_request_error', 'Bedrock models accept a temperature from 0 to 1.', { param: 'temperature' });
  }
  if (request.response_format && request.response_format.type !== 'text') {
    throw new GatewayError('invalid_request_error', 'Bedrock Converse does not support `response_format`; describe the format in the prompt or use a tool.', {
      param: 'response_format',
    });
  }
  for (const name of ['presence_penalty', 'frequency_penalty'] as const) {
    const value = request[name];
    if (value !== undefined && value !== null && value !== 0) {
      throw new GatewayError('invalid_request_error', `Bedrock Converse does not support \`${name}\`.`, { param: name });
    }
  }
  if (request.logprobs === true) {
    throw new GatewayError('invalid_request_error', 'Bedrock Converse does not return log probabilities.', { param: 'logprobs' });
  }
  if (request.logit_bias && typeof request.logit_bias === 'object' && Object.keys(request.logit_bias).length > 0) {
    throw new GatewayError('invalid_request_error', 'Bedrock Converse does not support `logit_bias`.', { param: 'logit_bias' });
  }
}
