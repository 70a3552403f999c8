import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import { genAiAttributeNames as names } from '../observability/telemetry/gen-ai-attribute-names.js';
import type { GatewayServices } from './gateway-services.js';

/** What a request outside the metered forwarding is, for its span: its GenAI operation and the model asked for. */
export interface UnmeteredOperation {
  /** `gen_ai.operation.name`: `generate_content` for a video submission, `count_tokens` for Messages count_tokens */
  operation: string;
  /** the public model id the client asked for */
  modelId: string;
}

/**
 * Runs the work of a /v1 request that is not a metered forwarding (a video task submission, a Messages token count)
 * within a SERVER span named `{operation} {model}` when tracing is on, so its upstream attempts (CLIENT spans) find
 * their parent; the span ends with the answer's status, or the error's status and code as `error.type`. Without tracing
 * the work just runs.
 */
export async function observeUnmeteredRequest<Result>(
  services: GatewayServices,
  request: FastifyRequest,
  operation: UnmeteredOperation,
  work: () => Promise<Result>,
): Promise<Result> {
  const tracing = services.telemetry?.tracing;
  if (!tracing) return work();
  const { span, context } = tracing.startRequestSpan(
    `${operation.operation} ${operation.modelId}`,
    request.receivedAt,
    request.headers,
    {
      [names.operationName]: operation.operation,
      [names.requestModel]: operation.modelId,
      [names.gatewayRequestId]: String(request.id),
      [names.gatewayApiKeyId]: request.principal.apiKeyId,
      [names.gatewayUserId]: request.principal.userId,
    },
  );
  try {
    const result = await tracing.runWithin(context, work);
    span.setAttribute(names.httpResponseStatusCode, 200);
    tracing.endSpan(span, '');
    return result;
  } catch (error) {
    const status = error instanceof GatewayError ? error.status : 500;
    span.setAttribute(names.httpResponseStatusCode, status);
    tracing.endSpan(span, error instanceof GatewayError ? error.code : '_OTHER');
    throw error;
  }
}
