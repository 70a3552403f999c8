import { vi } from 'vitest';

/** One recorded call to the fake /api. */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

/** An answer of the fake /api: a status and a JSON body. */
export type FakeAnswer = [status: number, body: unknown];

/** A handler per `METHOD /api/path` (query string ignored); unknown calls answer 404 in the gateway's shape. */
export type FakeRoutes = Record<string, FakeAnswer | ((body: unknown) => FakeAnswer)>;

/**
 * Replaces `fetch` with a fake gateway /api answering from `routes`; returns the calls it received. Unless given,
 * GET /api/auth/session answers as the gateway would from what GET /api/me answers now.
 */
export function installFakeGatewayApi(routes: FakeRoutes): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const me = routes['GET /api/me'];
  routes = {
    'GET /api/auth/session': () => {
      const [status, body] = me === undefined ? [401, undefined] : typeof me === 'function' ? me(undefined) : me;
      return [200, { signedIn: status === 200, isAdmin: status === 200 && (body as { isAdmin?: boolean }).isAdmin === true }];
    },
    ...routes,
  };
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(input).split('?')[0] ?? '';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const route = routes[`${method} ${path}`];
    const [status, answer] = route === undefined ? [404, { error: { message: 'not found', type: 'invalid_request_error', code: 'not_found' } }] : typeof route === 'function' ? route(body) : route;
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}
