import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import { sessionWithBalance, topUpOrder } from './top-up-test-data';
import { orderPollPolicy } from './use-order-polling';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the top-up return page', () => {
  it('polls the order until it is paid, then shows the credit, the bonus and the current balance', async () => {
    let polls = 0;
    const calls = installFakeGatewayApi({
      'GET /api/me': () => [200, sessionWithBalance(polls >= 2 ? 11_500_000 : 0)],
      'GET /api/topup/orders/top_1': () => {
        polls += 1;
        return [200, topUpOrder({ status: polls >= 2 ? 'paid' : 'pending' })];
      },
    });
    renderConsole('/top-up/return?order=top_1');
    expect(await screen.findByText('Waiting for Stripe to confirm the payment…')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Waiting for the payment' })).toBeTruthy();
    expect(await screen.findByText('Payment received')).toBeTruthy();
    expect(screen.getByText('10.00')).toBeTruthy();
    expect(screen.getByText('1.50')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('current-balance').textContent).toBe('11.50'));
    // Polling stops once the order is final.
    const pollsWhenPaid = polls;
    await new Promise((resolve) => setTimeout(resolve, orderPollPolicy.intervalMs + 200));
    expect(polls).toBe(pollsWhenPaid);
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
  });

  it('shows why a failed order was not credited, and that an expired one was not paid', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, sessionWithBalance(0)],
      'GET /api/topup/orders/top_1': [200, topUpOrder({ status: 'failed', failureReason: 'the provider reported another amount' })],
      'GET /api/topup/orders/top_2': [200, topUpOrder({ id: 'top_2', status: 'expired' })],
    });
    const first = renderConsole('/top-up/return?order=top_1');
    expect(await screen.findByText('The payment failed')).toBeTruthy();
    expect(screen.getByText('the provider reported another amount')).toBeTruthy();
    first.unmount();
    renderConsole('/top-up/return?order=top_2');
    expect(await screen.findByText('The order expired')).toBeTruthy();
  });

  it('stops after the time limit with a still-pending state, and checks again on request', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polls = 0;
    installFakeGatewayApi({
      'GET /api/me': [200, sessionWithBalance(0)],
      'GET /api/topup/orders/top_1': () => {
        polls += 1;
        return [200, topUpOrder()];
      },
    });
    renderConsole('/top-up/return?order=top_1');
    expect(await screen.findByText('Waiting for Stripe to confirm the payment…')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(orderPollPolicy.limitMs + orderPollPolicy.intervalMs);
    });
    expect(await screen.findByText('Still pending')).toBeTruthy();
    const pollsWhenStopped = polls;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(orderPollPolicy.intervalMs * 3);
    });
    expect(polls).toBe(pollsWhenStopped);
    await act(async () => screen.getByRole('button', { name: 'Check again' }).click());
    expect(await screen.findByText('Waiting for Stripe to confirm the payment…')).toBeTruthy();
    expect(polls).toBeGreaterThan(pollsWhenStopped);
  });

  it('says so when the link names no order', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, sessionWithBalance(0)] });
    renderConsole('/top-up/return');
    expect(await screen.findByText(/This link names no order/)).toBeTruthy();
  });
});

describe('the top-up return page for an order that is not the caller’s', () => {
  it('shows the gateway’s message and stops asking', async () => {
    const calls = installFakeGatewayApi({ 'GET /api/me': [200, sessionWithBalance(0)], 'GET /api/topup/orders/top_x': [404, { error: { message: 'No such order.', code: 'not_found' } }] });
    renderConsole('/top-up/return?order=top_x');
    expect((await screen.findByRole('alert')).textContent).toContain('No such order.');
    const asked = calls.filter((call) => call.path === '/api/topup/orders/top_x').length;
    await new Promise((resolve) => setTimeout(resolve, orderPollPolicy.intervalMs + 200));
    expect(calls.filter((call) => call.path === '/api/topup/orders/top_x').length).toBe(asked);
  });

  it('revisited later, shows the order’s own outcome and labels today’s balance as current, not new', async () => {
    const paidAt = Date.UTC(2026, 0, 2, 9, 30);
    installFakeGatewayApi({
      'GET /api/me': [200, sessionWithBalance(42_000_000)],
      'GET /api/topup/orders/top_1': [200, topUpOrder({ status: 'paid', paidAt })],
    });
    renderConsole('/top-up/return?order=top_1');
    expect(await screen.findByText('Payment received')).toBeTruthy();
    expect(screen.getByText('Credited:')).toBeTruthy();
    expect(screen.getByText('10.00')).toBeTruthy();
    expect(screen.getByTestId('order-paid-at').textContent).toContain('2026');
    expect(await screen.findByText('Current balance:')).toBeTruthy();
    expect(screen.getByTestId('current-balance').textContent).toBe('42.00');
    expect(screen.queryByText(/New balance/)).toBeNull();
  });
});

