// Anthropic-shaped error bodies (`{type:'error', error:{type, message}, request_id}`) and the exception that carries one.
import { randomIdentifier } from './openai-simulator-text.js';

/** Anthropic's error types by HTTP status. */
const errorTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** An error answer: thrown by the validation and handlers, sent by the server. */
export class AnthropicSimulatedError extends Error {
  /** HTTP status */
  readonly status: number;
  /** Anthropic error type, e.g. `invalid_request_error` */
  readonly type: string;
  /** extra response headers, e.g. `retry-after` */
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.type = errorTypeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    this.headers = headers;
  }

  /** The body Anthropic answers with. */
  toBody(): { type: 'error'; error: { type: string; message: string }; request_id: string } {
    return {
      type: 'error',
      error: { type: this.type, message: this.message },
      request_id: `req_${randomIdentifier()}`,
    };
  }
}

/** A 400 invalid_request_error, worded like Anthropic's (`<path>: <problem>`). */
export function anthropicInvalidRequest(message: string): AnthropicSimulatedError {
  return new AnthropicSimulatedError(400, message);
}

/** What a `sim-error-<status>` model answers, worded like the real vendor. */
export function anthropicStatusError(status: number): AnthropicSimulatedError {
  switch (status) {
    case 400:
      return anthropicInvalidRequest('Simulated bad request: messages: the request was rejected by the vendor.');
    case 401:
      return new AnthropicSimulatedError(401, 'invalid x-api-key');
    case 403:
      return new AnthropicSimulatedError(403, 'Your API key does not have permission to use the specified resource.');
    case 404:
      return new AnthropicSimulatedError(404, 'model: not found');
    case 429:
      return new AnthropicSimulatedError(429, 'Number of request tokens has exceeded your per-minute rate limit.', {
        'retry-after': '7',
      });
    case 529:
      return new AnthropicSimulatedError(529, 'Overloaded');
    default:
      return new AnthropicSimulatedError(status, 'Internal server error');
  }
}
