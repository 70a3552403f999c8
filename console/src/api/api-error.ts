/** An /api answer that was not a success, with the gateway's OpenAI-shaped error fields. */
export class ApiError extends Error {
  /** HTTP status of the answer (0 when the gateway could not be reached) */
  readonly status: number;
  /** the gateway's error code, e.g. `unauthorized`, `not_found`; null when the body had none */
  readonly code: string | null;

  constructor(status: number, code: string | null, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** True when the caller is not signed in (no session, or it ended). */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
