// Small helpers the payment tests share: signed-in /api calls and ledger reads.
import { request } from 'undici';
import type { BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import type { UserRecord } from '../../src/storage/store-records.js';

/** The password every payment-test user gets. */
export const testPassword = 'correct horse battery staple';

/** An /api answer: status and parsed JSON (or text). */
export interface ApiAnswer {
  status: number;
  body: any;
}

/** Calls the /api with a bearer token. */
export async function callApi(
  gateway: BillingTestGateway,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

/** Creates a user with the test password and signs them in; returns the user and a session token. */
export async function createSignedInUser(
  gateway: BillingTestGateway,
  role: UserRecord['role'] = 'user',
): Promise<{ user: UserRecord; token: string }> {
  const user = await gateway.createUser(role, testPassword);
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: testPassword }),
  });
  const token = ((await response.body.json()) as { token: string }).token;
  return { user, token };
}

/** The user's top-up and bonus ledger entries (kind, amount, reference), oldest first. */
export async function paymentEntries(
  gateway: BillingTestGateway,
  userId: string,
): Promise<Array<{ kind: string; amount: number; reference: string | null }>> {
  const entries = await gateway.running.billing.store.listLedgerEntries(userId, { limit: 100 });
  return entries
    .filter((entry) => entry.kind === 'top-up' || entry.kind === 'bonus')
    .reverse()
    .map((entry) => ({ kind: entry.kind, amount: entry.amount, reference: entry.reference }));
}
