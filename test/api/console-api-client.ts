// Calls the console /api of a test gateway as a given session, and makes sessions without the cost of a password sign-in.
import { request } from 'undici';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from '../../src/accounts/console-token.js';
import type { BillingTestGateway } from '../billing/start-billing-test-gateway.js';

/** A parsed /api answer: status, headers and the JSON body (or the raw text when it is not JSON). */
export interface ConsoleApiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/** Sends one /api request with `Authorization: Bearer <token>` (no header when the token is undefined). */
export async function callConsoleApi(
  gateway: { url: string },
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<ConsoleApiAnswer> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.statusCode, headers: response.headers, body: parsed, text };
}

/** A live console session for the user, stored the way POST /api/auth/login stores one. */
export async function createSessionToken(gateway: BillingTestGateway, userId: string): Promise<string> {
  const token = generateConsoleToken(sessionTokenPrefix);
  await gateway.running.signIn.store.createSession({
    tokenHash: hashConsoleToken(token),
    userId,
    expiresAt: Date.now() + 3_600_000,
    userAgent: null,
    clientIp: null,
  });
  return token;
}
