import { GatewayError } from '../core/gateway-error.js';

/** An assistant tool call's JSON arguments string as the object vendors expect; an empty string means none. */
export function parseToolArguments(argumentsText: string, param: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new GatewayError('invalid_request_error', 'Tool call arguments must be a JSON object.', { param });
}
