import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import { recordRequestedUrls, sessionWithBalance } from '../top-up/top-up-test-data';
import type { LedgerEntry } from './ledger-types';

afterEach(() => vi.unstubAllGlobals());

const entry = (fields: Partial<LedgerEntry> & Pick<LedgerEntry, 'id' | 'kind' | 'amount'>): LedgerEntry => ({ userId: 'u1', debtChange: 0, description: '', reference: null, createdAt: Date.UTC(2026, 10, 1), ...fields });

describe('the ledger page', () => {
  it('shows each entry with its translated kind, signed amount, balance after, debt change and reference, page by page', async () => {
    let pages = 0;
    installFakeGatewayApi({
      'GET /api/me': [200, sessionWithBalance(11_250_000, 0)],
      'GET /api/ledger': () => {
        pages += 1;
        return pages === 1
          ? [200, { data: [entry({ id: 'l3', kind: 'settlement', amount: -250_000, debtChange: 100_000, description: 'chat gpt-4o-mini', reference: 'req_1' }), entry({ id: 'l2', kind: 'bonus', amount: 1_500_000, reference: 'top_1' })], nextCursor: '1:l2' }]
          : [200, { data: [entry({ id: 'l1', kind: 'top-up', amount: 10_000_000, description: 'Stripe top-up', reference: 'top_1' })], nextCursor: null }];
      },
    });
    const urls = recordRequestedUrls();
    renderConsole('/ledger');
    const charge = await screen.findByTestId('ledger-row-l3');
    expect(within(charge).getByText('Request charge')).toBeTruthy();
    expect(within(charge).getByText('-0.25')).toBeTruthy();
    expect(within(charge).getByText('11.25')).toBeTruthy();
    expect(within(charge).getByText('+0.10')).toBeTruthy();
    expect(within(charge).getByText('req_1')).toBeTruthy();
    const bonus = screen.getByTestId('ledger-row-l2');
    expect(within(bonus).getByText('Bonus')).toBeTruthy();
    expect(within(bonus).getByText('+1.50')).toBeTruthy();
    expect(within(bonus).getByText('11.50')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const topUp = await screen.findByTestId('ledger-row-l1');
    expect(within(topUp).getByText('Top-up')).toBeTruthy();
    expect(within(topUp).getByText('10.00')).toBeTruthy();
    expect(urls.filter((url) => url.startsWith('/api/ledger?'))).toEqual(['/api/ledger?limit=50', '/api/ledger?limit=50&cursor=1%3Al2']);
  });

  it('shows the kinds in Chinese', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, sessionWithBalance(3_000_000)], 'GET /api/ledger': [200, { data: [entry({ id: 'l1', kind: 'redemption', amount: 3_000_000 })], nextCursor: null }] });
    renderConsole('/ledger', 'zh-CN');
    expect(within(await screen.findByTestId('ledger-row-l1')).getByText('兑换充值码')).toBeTruthy();
  });

  it('has an empty state and an error state', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, sessionWithBalance(0)], 'GET /api/ledger': [200, { data: [], nextCursor: null }] });
    const empty = renderConsole('/ledger');
    expect(await screen.findByText('Nothing in your ledger yet.')).toBeTruthy();
    empty.unmount();
    installFakeGatewayApi({ 'GET /api/me': [200, sessionWithBalance(0)], 'GET /api/ledger': [500, { error: { message: 'database is down', code: 'server_error' } }] });
    renderConsole('/ledger');
    expect((await screen.findByRole('alert')).textContent).toContain('database is down');
  });
});
