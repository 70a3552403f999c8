import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import { noOrderFilters, ordersQueryString } from './order-filters';
import type { AdminTopUpOrder } from './orders-types';

const adminSession = { user: { id: 'admin1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const pendingOrder: AdminTopUpOrder = {
  id: 'ord_1', userId: 'usr_ada', user: { email: 'ada@example.test', displayName: 'Ada Lovelace' }, method: 'stripe', status: 'pending', amountPaidMinor: 1000, amountPaid: '10.00', currency: 'usd',
  credit: 10_000_000, bonus: 1_500_000, providerReference: 'cs_test_123', failureReason: null, createdAt: Date.UTC(2026, 0, 2), paidAt: null, updatedAt: Date.UTC(2026, 0, 2),
};
const failedOrder: AdminTopUpOrder = { ...pendingOrder, id: 'ord_2', user: null, method: 'alipay', status: 'failed', amountPaid: '70.00', currency: 'cny', bonus: 0, providerReference: null, failureReason: 'card declined' };

afterEach(() => vi.unstubAllGlobals());

/** Records every URL the page fetches from the fake /api installed before; answers the query strings of order lists. */
function recordOrderQueries(): () => string[] {
  const urls: string[] = [];
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    urls.push(String(input));
    return answer(input, init);
  });
  return () => urls.filter((url) => url.startsWith('/api/admin/orders?')).map((url) => url.slice('/api/admin/orders?'.length));
}

describe('ordersQueryString', () => {
  it('sends only the filters that are set, the page size and the cursor', () => {
    expect(ordersQueryString(noOrderFilters, null)).toBe('limit=25');
    expect(ordersQueryString({ status: 'paid', method: 'alipay', userId: ' usr_1 ' }, '123:ord_9')).toBe('status=paid&method=alipay&user=usr_1&limit=25&cursor=123%3Aord_9');
  });
});

describe('the Orders page', () => {
  it('lists orders with amount paid in its currency, credit and bonus, status, reference and failure', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, adminSession], 'GET /api/admin/orders': [200, { data: [pendingOrder, failedOrder], nextCursor: null }] });
    renderConsole('/admin/orders');
    const row = await screen.findByTestId('order-row-ord_1');
    expect(within(row).getByText('10.00 USD')).toBeTruthy();
    expect(within(row).getAllByRole('cell')[4]?.textContent).toBe('10.00 + 1.50 bonus');
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(within(row).getByText('cs_test_123')).toBeTruthy();
    // Who placed it by email and name; the id on one line, never broken mid-word.
    expect(within(row).getByText('ada@example.test')).toBeTruthy();
    expect(within(row).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(row).getByText('usr_ada').style.whiteSpace).toBe('nowrap');
    const failed = screen.getByTestId('order-row-ord_2');
    expect(within(failed).getByText('Alipay')).toBeTruthy();
    expect(within(failed).getByText('70.00 CNY')).toBeTruthy();
    expect(within(failed).getByText('card declined')).toBeTruthy();
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('usr_ada')).toBeTruthy();
  });

  it('filters by status, method and user id, and pages on with the cursor', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/orders': [200, { data: [pendingOrder], nextCursor: '1767312000000:ord_1' }],
    });
    const orderQueries = recordOrderQueries();
    renderConsole('/admin/orders');
    await screen.findByTestId('order-row-ord_1');
    expect(orderQueries()).toEqual(['limit=25']);

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(orderQueries().at(-1)).toBe('limit=25&cursor=1767312000000%3Aord_1'));
    expect(await screen.findByText('Page 2')).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Paid', hidden: true }));
    await waitFor(() => expect(orderQueries().at(-1)).toBe('status=paid&limit=25'));
    expect(screen.getByText('Page 1')).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: 'Method' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Alipay', hidden: true }));
    await userEvent.type(screen.getByRole('textbox', { name: 'User id' }), 'usr_ada');
    await waitFor(() => expect(orderQueries().at(-1)).toBe('status=paid&method=alipay&user=usr_ada&limit=25'));
  });

  it('re-checks an order: shows what the provider says and the outcome, and reads the list again', async () => {
    let paid = false;
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/orders': () => [200, { data: [paid ? { ...pendingOrder, status: 'paid', paidAt: 1 } : pendingOrder], nextCursor: null }],
      'POST /api/admin/orders/ord_1/recheck': () => {
        paid = true;
        return [200, { order: { ...pendingOrder, status: 'paid', paidAt: 1 }, providerSays: 'paid', outcome: 'credited' }];
      },
    });
    renderConsole('/admin/orders');
    const row = await screen.findByTestId('order-row-ord_1');
    await userEvent.click(within(row).getByRole('button', { name: 'Re-check order ord_1' }));
    const result = await screen.findByTestId('recheck-result');
    expect(within(result).getByText('Stripe says the order is paid.')).toBeTruthy();
    expect(within(result).getByText('Credited now: the balance was topped up')).toBeTruthy();
    expect(within(result).getByText('Paid')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/api/admin/orders/ord_1/recheck']);
    await waitFor(() => expect(within(screen.getByTestId('order-row-ord_1')).getByText('Paid')).toBeTruthy());
  });

  it('shows the gateway’s message when the provider cannot be reached', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/orders': [200, { data: [pendingOrder], nextCursor: null }],
      'POST /api/admin/orders/ord_1/recheck': [500, { error: { message: 'The payment provider (stripe) could not be asked about the order; try again later.', code: 'server_error' } }],
    });
    renderConsole('/admin/orders');
    await userEvent.click(await screen.findByRole('button', { name: 'Re-check order ord_1' }));
    expect(await screen.findByText('The payment provider (stripe) could not be asked about the order; try again later.')).toBeTruthy();
    expect(screen.queryByTestId('recheck-result')).toBeNull();
  });

  it('has an empty and an error state', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, adminSession], 'GET /api/admin/orders': [200, { data: [], nextCursor: null }] });
    const empty = renderConsole('/admin/orders');
    expect(await screen.findByText('No orders match.')).toBeTruthy();
    empty.unmount();

    installFakeGatewayApi({ 'GET /api/me': [200, adminSession], 'GET /api/admin/orders': [404, { error: { message: 'Top-up is not set up on this gateway.', code: 'not_found' } }] });
    renderConsole('/admin/orders', 'zh-CN');
    expect((await screen.findByRole('alert')).textContent).toContain('Top-up is not set up on this gateway.');
  });
});
