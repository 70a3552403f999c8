// Gemini-shaped error bodies (`{error:{code, message, status, details}}`) and the exception that carries one.

const statusNameByCode: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** An error answer: thrown by validation and handlers, sent by the server. */
export class GeminiSimulatedError extends Error {
  /** HTTP status */
  readonly status: number;
  /** e.g. `INVALID_ARGUMENT` */
  readonly statusName: string;
  /** `details[].reason` values, e.g. `API_KEY_INVALID` */
  readonly reasons: string[];

  constructor(status: number, message: string, reasons: string[] = []) {
    super(message);
    this.status = status;
    this.statusName = statusNameByCode[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
    this.reasons = reasons;
  }

  /** The body Gemini answers with. */
  toBody(): { error: { code: number; message: string; status: string; details: unknown[] } } {
    const details = this.reasons.map((reason) => ({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason,
      domain: 'googleapis.com',
    }));
    return { error: { code: this.status, message: this.message, status: this.statusName, details } };
  }
}

/** A 400 INVALID_ARGUMENT, worded like Gemini's. */
export function geminiInvalidArgument(message: string): GeminiSimulatedError {
  return new GeminiSimulatedError(400, message);
}

/** What a `sim-error-<status>` model answers. */
export function geminiStatusError(status: number): GeminiSimulatedError {
  switch (status) {
    case 400:
      return geminiInvalidArgument('Simulated bad request: Request contains an invalid argument.');
    case 401:
      return new GeminiSimulatedError(401, 'Request had invalid authentication credentials.');
    case 429:
      return new GeminiSimulatedError(429, 'Resource has been exhausted (e.g. check quota).');
    case 503:
      return new GeminiSimulatedError(503, 'The model is overloaded. Please try again later.');
    default:
      return new GeminiSimulatedError(
        status,
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      );
  }
}
