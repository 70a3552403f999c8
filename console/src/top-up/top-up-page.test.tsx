import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import { redirectBrowser } from './redirect-browser';
import { bothMethods, recordRequestedUrls, sessionWithBalance, topUpOrder } from './top-up-test-data';

vi.mock('./redirect-browser', () => ({ redirectBrowser: vi.fn() }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(redirectBrowser).mockReset();
});

const baseRoutes = {
  'GET /api/me': [200, sessionWithBalance(2_500_000)] as [number, unknown],
  'GET /api/topup/options': [200, bothMethods] as [number, unknown],
  'GET /api/topup/orders': [200, { data: [], nextCursor: null }] as [number, unknown],
};

describe('the top-up page', () => {
  it('shows the balance and the exact charge, credit and first-top-up bonus before paying, checking the amount as you type', async () => {
    installFakeGatewayApi(baseRoutes);
    renderConsole('/top-up');
    expect((await screen.findByTestId('balance')).textContent).toBe('2.50');
    expect(await screen.findByText('First top-up bonus: 10% of it plus 0.5, at most 2.')).toBeTruthy();
    // The first preset is chosen: 5 units by Stripe cost 5.00 USD and earn 0.5 + 0.5.
    expect(screen.getByTestId('top-up-preview').textContent).toBe('Pay 5.00 USD, receive 5.00 + bonus 1.00.');

    const amount = screen.getByLabelText(/Amount to add/);
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.5');
    expect(screen.getByText('The smallest top-up is 1.')).toBeTruthy();
    expect(screen.queryByTestId('top-up-preview')).toBeNull();
    expect((screen.getByRole('button', { name: 'Pay with Stripe' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.clear(amount);
    await userEvent.type(amount, '1.2345678');
    expect(screen.getByText('Enter an amount such as 10 or 2.50.')).toBeTruthy();

    // Alipay at 0.14 units per yuan: 10 units cost 71.43 CNY, which buys 10.0002; bonus 10% (1.00002) + 0.5.
    await userEvent.click(screen.getByRole('radio', { name: 'Alipay' }));
    await userEvent.click(screen.getByRole('button', { name: '10' }));
    expect(screen.getByTestId('top-up-preview').textContent).toBe('Pay 71.43 CNY, receive 10.0002 + bonus 1.50002.');
  });

  it('offers no bonus once the caller has paid an order', async () => {
    installFakeGatewayApi({ ...baseRoutes, 'GET /api/topup/options': [200, { ...bothMethods, bonus: { ...bothMethods.bonus, eligible: false } }] });
    renderConsole('/top-up');
    expect((await screen.findByTestId('top-up-preview')).textContent).toBe('Pay 5.00 USD, receive 5.00.');
    expect(screen.queryByText(/First top-up bonus/)).toBeNull();
  });

  it('creates a Stripe order with the typed decimal string and sends the browser to Checkout', async () => {
    const calls = installFakeGatewayApi({ ...baseRoutes, 'POST /api/topup/orders': [201, { order: topUpOrder(), redirectUrl: 'https://checkout.example.test/pay/cs_test_1' }] });
    renderConsole('/top-up');
    const amount = await screen.findByLabelText(/Amount to add/);
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.30');
    await userEvent.click(screen.getByRole('button', { name: 'Pay with Stripe' }));
    await waitFor(() => expect(redirectBrowser).toHaveBeenCalledWith('https://checkout.example.test/pay/cs_test_1'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ method: 'stripe', amount: '12.30' });
  });

  it('shows the Alipay QR code and polls the order until it is paid, then the credit, bonus and new balance', async () => {
    let paid = false;
    const qrOrder = topUpOrder({ id: 'top_qr', method: 'alipay', currency: 'cny', amountPaid: '35.72', amountPaidMinor: 3572, credit: 5_000_800, bonus: 1_000_080, providerReference: null });
    installFakeGatewayApi({
      ...baseRoutes,
      'GET /api/me': () => [200, sessionWithBalance(paid ? 8_500_880 : 2_500_000)],
      'POST /api/topup/orders': [201, { order: qrOrder, qrCode: 'https://qr.alipay.com/fake-top_qr' }],
      'GET /api/topup/orders/top_qr': () => [200, paid ? { ...qrOrder, status: 'paid' } : qrOrder],
    });
    renderConsole('/top-up');
    await userEvent.click(await screen.findByRole('radio', { name: 'Alipay' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay with Alipay' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Scan with Alipay and pay 35.72 CNY.')).toBeTruthy();
    const image = (await within(dialog).findByRole('img', { name: 'QR code to pay with Alipay' })) as HTMLImageElement;
    expect(image.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(within(dialog).getByText('Waiting for Alipay to confirm the payment…')).toBeTruthy();

    paid = true;
    expect(await within(dialog).findByText('Payment received')).toBeTruthy();
    expect(within(dialog).getByText('5.0008')).toBeTruthy();
    expect(within(dialog).getByText('1.00008')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByTestId('current-balance').textContent).toBe('8.50088'));
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('8.50088'));
  });

  it('redeems a code and shows the amount and new balance; shows the gateway’s refusal and the lockout', async () => {
    let answer: [number, unknown] = [200, { amount: 3_000_000, balance: 5_500_000, debt: 0 }];
    const calls = installFakeGatewayApi({ ...baseRoutes, 'POST /api/redeem': () => answer });
    renderConsole('/top-up');
    const code = await screen.findByLabelText('Redemption code');
    await userEvent.type(code, ' k7qm-2xpa ');
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect((await screen.findByTestId('redeem-result')).textContent).toBe('Credited 3.00. New balance: 5.50.');
    expect(calls.find((call) => call.path === '/api/redeem')?.body).toEqual({ code: 'k7qm-2xpa' });

    answer = [400, { error: { message: 'This code cannot be redeemed: it is wrong, already used, expired or disabled.', code: 'invalid_request_error' } }];
    await userEvent.type(code, 'WRONG');
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect((await screen.findByTestId('redeem-error')).textContent).toContain('it is wrong, already used, expired or disabled');

    answer = [429, { error: { message: 'Too many refused redemption codes; try again in 3600 seconds.', code: 'rate_limit_exceeded' } }];
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    await waitFor(() => expect(screen.getByTestId('redeem-error').textContent).toContain('Too many refused codes'));
    expect(screen.getByTestId('redeem-error').textContent).toContain('try again in 3600 seconds');
  });

  it('lists orders page by page', async () => {
    let pages = 0;
    installFakeGatewayApi({
      ...baseRoutes,
      'GET /api/topup/orders': () => {
        pages += 1;
        return pages === 1
          ? [200, { data: [topUpOrder({ status: 'paid' })], nextCursor: '1700000000000:top_1' }]
          : [200, { data: [topUpOrder({ id: 'top_0', status: 'failed', method: 'alipay', bonus: 0, failureReason: 'amount mismatch', providerReference: null })], nextCursor: null }];
      },
    });
    const urls = recordRequestedUrls();
    renderConsole('/top-up');
    const first = await screen.findByTestId('order-row-top_1');
    expect(within(first).getByText('Paid')).toBeTruthy();
    expect(within(first).getByText('10.00 USD')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const second = await screen.findByTestId('order-row-top_0');
    expect(within(second).getByText('Failed')).toBeTruthy();
    expect(within(second).getByText('amount mismatch')).toBeTruthy();
    expect(urls.filter((url) => url.startsWith('/api/topup/orders?'))).toEqual(['/api/topup/orders?limit=10', '/api/topup/orders?limit=10&cursor=1700000000000%3Atop_1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when online payment is not set up, and still offers redemption', async () => {
    installFakeGatewayApi({ ...baseRoutes, 'GET /api/topup/options': [404, { error: { message: 'Top-up is not set up on this gateway.', code: 'not_found' } }] });
    renderConsole('/top-up');
    expect(await screen.findByText(/Online payment is not set up on this gateway/)).toBeTruthy();
    expect(screen.getByLabelText('Redemption code')).toBeTruthy();
    expect(screen.queryByText('Order history')).toBeNull();
  });
});
