import { ApiError } from './api-error';

/** An HTTP method the console sends. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface GatewayErrorBody {
  error?: { message?: unknown; code?: unknown };
}

/**
 * Calls the gateway's /api on this origin with the session cookie (never a Bearer token in the browser) and
 * answers the parsed JSON; a non-2xx answer throws an ApiError carrying the gateway's message and code.
 */
export async function requestApi<Answer>(method: ApiMethod, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new ApiError(0, null, cause instanceof Error ? cause.message : String(cause));
  }
  const text = await response.text();
  const parsed: unknown = text.length > 0 ? parseJson(text) : undefined;
  if (!response.ok) {
    const error = (parsed as GatewayErrorBody | undefined)?.error;
    const message = typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, typeof error?.code === 'string' ? error.code : null, message);
  }
  return parsed as Answer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
