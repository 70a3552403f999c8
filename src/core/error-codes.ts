/** One entry of the error registry: how a gateway error looks on the wire. */
export interface ErrorCodeDefinition {
  /** HTTP status sent to the client */
  status: number;
  /** OpenAI error `type` */
  type: string;
  /** whether the same request may succeed on another upstream channel */
  retryableOnAnotherChannel: boolean;
  /** one line for docs/API.md */
  description: string;
}

/**
 * Every error the gateway can answer, keyed by the OpenAI error `code` it carries.
 * Statuses and codes follow the product spec's error table (section 7); docs/API.md lists the same
 * rows and a test keeps the two in step.
 */
export const errorCodes = {
  invalid_request_error: {
    status: 400,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'A request parameter is missing or invalid; `param` names it.',
  },
  invalid_api_key: {
    status: 401,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The API key is missing, unknown, disabled or expired.',
  },
  unauthorized: {
    status: 401,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The /api request has no valid session or admin token.',
  },
  forbidden: {
    status: 403,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description:
      'The caller may not do this: an admin-only /api route, a state-changing /api call with the session cookie from another site, or an API key used from an address outside its allow-list.',
  },
  model_not_found: {
    status: 404,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: "The model does not exist or is not in the key's model group.",
  },
  not_found: {
    status: 404,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'No such route, or no such record for this caller (a key, a user, a group not granted to the user).',
  },
  method_not_allowed: {
    status: 405,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The route exists but not for this HTTP method; the `Allow` header lists the methods it takes.',
  },
  request_timeout: {
    status: 408,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The client did not send the whole request (headers and body) in time; the connection is closed.',
  },
  request_too_large: {
    status: 413,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The request body or an uploaded file is larger than the configured limit.',
  },
  unsupported_media_type: {
    status: 415,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The Content-Type is not one this endpoint accepts.',
  },
  headers_too_large: {
    status: 431,
    type: 'invalid_request_error',
    retryableOnAnotherChannel: false,
    description: 'The request line and headers are larger than the gateway accepts; the connection is closed.',
  },
  insufficient_quota: {
    status: 429,
    type: 'insufficient_quota',
    retryableOnAnotherChannel: false,
    description: 'The balance or quota cannot cover the request.',
  },
  rate_limit_exceeded: {
    status: 429,
    type: 'rate_limit_error',
    retryableOnAnotherChannel: true,
    description: 'Too many requests; slow down and retry after the `Retry-After` header.',
  },
  server_error: {
    status: 500,
    type: 'server_error',
    retryableOnAnotherChannel: true,
    description: 'Internal or upstream failure; for images, generation failed and may succeed with another prompt.',
  },
  upstream_error: {
    status: 502,
    type: 'server_error',
    retryableOnAnotherChannel: true,
    description:
      "Every channel tried answered in a way the gateway cannot relay: a redirect, a body that is not the endpoint's JSON (an HTML page, cut-off JSON, missing `choices`/`data`/`output`/`content`), a plain answer to a streamed request, an answer larger than `GATEWAY_UPSTREAM_MAX_BODY_BYTES`, or a connection cut mid-answer.",
  },
  upstream_timeout: {
    status: 504,
    type: 'server_error',
    retryableOnAnotherChannel: true,
    description:
      'Every channel tried was silent too long: no response head within `GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS`, or no body bytes within `GATEWAY_UPSTREAM_BODY_TIMEOUT_MS`.',
  },
  service_unavailable: {
    status: 503,
    type: 'server_error',
    retryableOnAnotherChannel: true,
    description:
      'No upstream channel can serve the model right now, or the gateway is overloaded (in-flight cap, settlement queue full) or shutting down; retry after `Retry-After`.',
  },
} as const satisfies Record<string, ErrorCodeDefinition>;

/** A code of the registry. */
export type ErrorCode = keyof typeof errorCodes;
