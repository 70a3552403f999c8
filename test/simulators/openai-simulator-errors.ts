// OpenAI-shaped error bodies and the exception the simulator throws to answer with one.

/** The body OpenAI answers every failed request with. */
export interface SimulatedErrorBody {
  /** the error details, all four fields always present */
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An error answer: thrown by request handlers, turned into a response by the server. */
export class SimulatedError extends Error {
  /** HTTP status of the answer */
  readonly status: number;
  /** OpenAI error type, e.g. `invalid_request_error` */
  readonly type: string;
  /** the request field at fault, or null */
  readonly param: string | null;
  /** OpenAI error code, or null */
  readonly code: string | null;
  /** extra response headers, e.g. `retry-after` */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    details: { type?: string; param?: string | null; code?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'SimulatedError';
    this.status = status;
    this.type = details.type ?? 'invalid_request_error';
    this.param = details.param ?? null;
    this.code = details.code ?? null;
    this.headers = details.headers ?? {};
  }

  toBody(): SimulatedErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** A 400 `invalid_request_error` about one request field. */
export function invalidRequest(message: string, param: string | null, code: string | null = null): SimulatedError {
  return new SimulatedError(400, message, { param, code });
}

/** The 401 OpenAI answers when the bearer token is wrong or missing. */
export function invalidApiKeyError(): SimulatedError {
  return new SimulatedError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' });
}

/** The error a `sim-error-<status>` model answers with, worded like the real vendor's; `retryAfterSeconds` replaces its `Retry-After`. */
export function modelStatusError(status: number, model: string, retryAfterSeconds?: number): SimulatedError {
  const error = statusError(status, model);
  if (retryAfterSeconds === undefined) return error;
  return new SimulatedError(error.status, error.message, {
    type: error.type,
    param: error.param,
    code: error.code,
    headers: { ...error.headers, 'retry-after': String(retryAfterSeconds) },
  });
}

function statusError(status: number, model: string): SimulatedError {
  switch (status) {
    case 400:
      return invalidRequest('Simulated bad request: the request was rejected by the vendor.', null);
    case 401:
      return invalidApiKeyError();
    case 403:
      return new SimulatedError(403, 'Country, region, or territory not supported', {
        type: 'request_forbidden',
        code: 'unsupported_country_region_territory',
      });
    case 404:
      return new SimulatedError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
        code: 'model_not_found',
      });
    case 429:
      return new SimulatedError(
        429,
        `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
        {
          type: 'requests',
          code: 'rate_limit_exceeded',
          headers: { 'retry-after': '1' },
        },
      );
    case 503:
      return new SimulatedError(503, 'The server is overloaded or not ready yet.', { type: 'server_error' });
    default:
      return new SimulatedError(status, 'The server had an error while processing your request. Sorry about that!', {
        type: status >= 500 ? 'server_error' : 'invalid_request_error',
      });
  }
}
