// Answers of the fake /api the top-up and ledger tests share.
import { vi } from 'vitest';
import type { TopUpOptions, TopUpOrder } from './top-up-types';

/** GET /api/me for a user with `balance` micro-units. */
export function sessionWithBalance(balance: number, debt = 0) {
  return { user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 }, isAdmin: false, balance: { balance, held: 0, available: balance, debt } };
}

/** Both methods (Alipay by QR at 0.14 units per yuan), minimum 1, 10% + 0.5 capped at 2 for a first top-up. */
export const bothMethods: TopUpOptions = {
  methods: [
    { method: 'stripe', currency: 'usd', unitsPerCurrencyUnit: '1', kind: 'redirect' },
    { method: 'alipay', currency: 'cny', unitsPerCurrencyUnit: '0.14', kind: 'qr' },
  ],
  presets: ['5', '10', '20'],
  minimum: '1',
  bonus: { percent: '10', fixed: '0.5', cap: '2', eligible: true },
};

/** A top-up order with the given fields changed. */
export function topUpOrder(fields: Partial<TopUpOrder> = {}): TopUpOrder {
  return {
    id: 'top_1', userId: 'u1', method: 'stripe', status: 'pending', amountPaidMinor: 1000, amountPaid: '10.00', currency: 'usd',
    credit: 10_000_000, bonus: 1_500_000, providerReference: 'cs_test_1', failureReason: null, createdAt: Date.UTC(2026, 10, 1), paidAt: null, updatedAt: Date.UTC(2026, 10, 1),
    ...fields,
  };
}

/** Records the URL (query string included) of every /api call from now on; call after installFakeGatewayApi. */
export function recordRequestedUrls(): string[] {
  const urls: string[] = [];
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    urls.push(String(input));
    return answer(input, init);
  });
  return urls;
}
