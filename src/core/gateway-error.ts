import { errorCodes, type ErrorCode } from './error-codes.js';

/** The OpenAI error body every failed /v1 request answers with. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An error meant for the client: its code decides the status and type (see error-codes). */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  /** the request field at fault, or null */
  readonly param: string | null;
  /** extra response headers, e.g. `retry-after` */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { param?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorCodes[this.code].status;
  }

  toBody(): OpenAiErrorBody {
    return { error: { message: this.message, type: errorCodes[this.code].type, param: this.param, code: this.code } };
  }
}
