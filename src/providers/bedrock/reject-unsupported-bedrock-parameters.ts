import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { refuseCanonicalReasoningEffort } from '../refuse-canonical-reasoning-effort.js';

/** Claude on Bedrock (`anthropic.claude-...`, cross-region `us.anthropic.claude-...`, or an ARN naming one). */
export function isBedrockClaudeModel(modelId: string): boolean {
  return modelId.includes('claude');
}

/**
 * A 400 naming the first parameter Converse cannot honour and whose loss would change the answer: a reasoning
 * effort for a model other than Claude (Claude's is planned with the body), a temperature above 1, a JSON-object output
 * format (a JSON schema is sent as `outputConfig.textFormat`), penalties, `top_k`. `seed` and the end-user id change
 * nothing a client can rely on and are not sent; `parallelToolCalls: false` is honoured by dispatch (keepFirstToolCall).
 */
export function rejectUnsupportedBedrockParameters(request: CanonicalRequest, modelId: string): void {
  if (!isBedrockClaudeModel(modelId)) refuseCanonicalReasoningEffort(request);
  // Converse's InferenceConfiguration caps temperature at 1 (OpenAI allows 2); clamping would change the answer.
  if (request.sampling.temperature !== null && request.sampling.temperature > 1) {
    throw new GatewayError('invalid_request_error', 'Bedrock models accept a temperature from 0 to 1.', {
      param: 'temperature',
    });
  }
  if (request.outputFormat.type === 'json-object') {
    throw new GatewayError(
      'invalid_request_error',
      "`response_format` 'json_object' has no equivalent on Bedrock Converse (its JSON output takes a schema); use 'json_schema' with a schema.",
      { param: 'response_format' },
    );
  }
  const penalties = [
    ['presence_penalty', request.sampling.presencePenalty],
    ['frequency_penalty', request.sampling.frequencyPenalty],
  ] as const;
  for (const [name, value] of penalties) {
    if (value !== undefined && value !== 0)
      throw new GatewayError('invalid_request_error', `Bedrock Converse does not support \`${name}\`.`, {
        param: name,
      });
  }
  if (request.sampling.topK !== undefined)
    throw new GatewayError('invalid_request_error', 'Bedrock Converse does not support `top_k`.', { param: 'top_k' });
}
