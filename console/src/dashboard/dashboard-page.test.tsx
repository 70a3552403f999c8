import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiBalance, ApiKey } from '../api/api-types';
import { installFakeGatewayApi, type FakeRoutes } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import type { DailyUsageRow, HourlyUsageSummary } from './dashboard-types';
import { utcDayOf } from './usage-range';

const session = (balance: ApiBalance) => ({ user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 }, isAdmin: false, balance });
const key = (id: string, name: string): ApiKey => ({
  id, userId: 'u1', groupId: 'g1', name, keyPrefix: `sk-gw-${id}`, status: 'active', disabledBy: null, usable: true, disabledReason: null,
  expiresAt: null, createdAt: 0, spendingCap: null, spent: 0, allowedIps: [], lastUsedAt: null,
});
const dayRow = (daysAgo: number, apiKeyId: string, model: string, cost: number, requestCount: number): DailyUsageRow => ({
  day: utcDayOf(Date.now() - daysAgo * 86_400_000), userId: 'u1', apiKeyId, model, requestCount, errorCount: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost,
});
const emptyTotals = { requestCount: 0, errorCount: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 };
const hourly = (rows: HourlyUsageSummary['data']): HourlyUsageSummary => {
  const to = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  return { granularity: 'hour', from: to - 86_400_000, to, data: rows, hours: Array.from({ length: 24 }, (_, index) => ({ hour: to - (24 - index) * 3_600_000, ...emptyTotals })), totals: emptyTotals };
};

/** A fake /api answering the summary by its granularity. */
function routes(balance: ApiBalance, daily: DailyUsageRow[], hourlyRows: HourlyUsageSummary['data'] = []): FakeRoutes {
  return {
    'GET /api/me': [200, session(balance)],
    'GET /api/keys': [200, { data: [key('k1', 'laptop'), key('k2', 'server')] }],
    'GET /api/usage/summary': (_body, url) => (url.includes('granularity=hour') ? [200, hourly(hourlyRows)] : [200, { data: daily, totals: emptyTotals }]),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the dashboard', () => {
  it('shows the balance with its runway, spend and requests per range, and usage per key for the chosen range', async () => {
    const now = Date.now();
    const calls = installFakeGatewayApi(
      routes(
        { balance: 20_000_000, held: 0, available: 20_000_000, debt: 0 },
        // 7 units in the last 7 days (1 a day: 20 days of runway); 3 more 20 days ago.
        [dayRow(0, 'k1', 'gpt-4o-mini', 4_000_000, 3), dayRow(3, 'k2', 'gpt-4.1', 3_000_000, 2), dayRow(20, 'k2', 'gpt-4.1', 3_000_000, 5)],
        [{ hour: Math.floor(now / 3_600_000) * 3_600_000, userId: 'u1', apiKeyId: 'k1', model: 'gpt-4o-mini', requestCount: 3, errorCount: 1, promptTokens: 0, completionTokens: 0, cost: 4_000_000 }],
      ),
    );
    renderConsole('/dashboard');
    expect(await screen.findByText('About 20 days left at your 7-day average spend.')).toBeTruthy();
    expect(screen.getAllByText('20.00')).toHaveLength(2); // available and balance
    expect(screen.queryByText('Your balance is running low')).toBeNull();
    expect(screen.getByTestId('spend-24h').textContent).toBe('4.00');
    expect(screen.getByTestId('requests-24h').textContent).toBe('3 requests · 1 error');
    expect(screen.getByTestId('spend-7d').textContent).toBe('7.00');
    expect(screen.getByTestId('requests-7d').textContent).toBe('5 requests');
    expect(screen.getByTestId('spend-30d').textContent).toBe('10.00');

    const table = screen.getByRole('table', { name: 'Usage per key' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['laptopsk-gw-k1…', '4.00', '3', '0', 'never'],
      ['serversk-gw-k2…', '3.00', '2', '0', 'never'],
    ]);

    await userEvent.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Usage per key' })).getAllByRole('row')[1]?.textContent).toContain('server'));
    expect(within(screen.getByRole('table', { name: 'Usage per key' })).getAllByRole('row')[1]?.textContent).toContain('6.00');

    await userEvent.click(screen.getByRole('radio', { name: 'Last 24 hours' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Usage per key' })).getAllByRole('row')).toHaveLength(2));

    const summaryCalls = calls.filter((call) => call.path === '/api/usage/summary');
    expect(summaryCalls.length).toBe(2);
    expect(screen.getByText('Model share of spend')).toBeTruthy();
    expect(screen.getByText('Spend per hour by model')).toBeTruthy();
  });

  it('warns with a link to top up when the runway is short', async () => {
    installFakeGatewayApi(routes({ balance: 1_000_000, held: 0, available: 1_000_000, debt: 0 }, [dayRow(1, 'k1', 'gpt-4o-mini', 7_000_000, 7)]));
    renderConsole('/dashboard');
    expect(await screen.findByText('Your balance is running low')).toBeTruthy();
    expect(screen.getByText('About 1 day left at your 7-day average spend.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Top up now' }).getAttribute('href')).toBe('/top-up');
  });

  it('says more than a year instead of a huge runway', async () => {
    installFakeGatewayApi(routes({ balance: 500_000_000, held: 0, available: 500_000_000, debt: 0 }, [dayRow(1, 'k1', 'gpt-4o-mini', 7_000, 7)]));
    renderConsole('/dashboard');
    expect(await screen.findByText('More than a year left at your 7-day average spend.')).toBeTruthy();
  });

  it('warns about a debt even without spend', async () => {
    installFakeGatewayApi(routes({ balance: 0, held: 0, available: 0, debt: 2_000_000 }, []));
    renderConsole('/dashboard');
    expect(await screen.findByText('You owe the gateway: new requests are refused until the debt is paid.')).toBeTruthy();
  });

  it('asks a new user to make a first request, linking to the keys page', async () => {
    installFakeGatewayApi(routes({ balance: 5_000_000, held: 0, available: 5_000_000, debt: 0 }, []));
    renderConsole('/dashboard');
    expect(await screen.findByText('No usage yet')).toBeTruthy();
    expect(screen.getByText('No spend in the last 7 days, so no runway estimate.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create an API key' }).getAttribute('href')).toBe('/keys');
    expect(screen.queryByText('Your balance is running low')).toBeNull();
  });

  it('shows the gateway’s error when the usage cannot be read', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, session({ balance: 0, held: 0, available: 1, debt: 0 })],
      'GET /api/keys': [200, { data: [] }],
      'GET /api/usage/summary': [500, { error: { message: 'rollups unavailable', code: 'server_error' } }],
    });
    renderConsole('/dashboard');
    expect((await screen.findByRole('alert')).textContent).toContain('rollups unavailable');
  });
});
