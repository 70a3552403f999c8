import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey } from '../api/api-types';
import { installFakeGatewayApi, type FakeRoutes } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import type { UsageLog } from './usage-logs-types';

const session = (isAdmin: boolean) => ({ user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: isAdmin ? 'admin' : 'user', status: 'active', createdAt: 0 }, isAdmin, balance: null });
const key: ApiKey = {
  id: 'key_1', userId: 'u1', groupId: 'g1', name: 'laptop', keyPrefix: 'sk-gw-AbCd', status: 'active', disabledBy: null, usable: true, disabledReason: null,
  expiresAt: null, createdAt: 0, spendingCap: null, spent: 0, allowedIps: [], lastUsedAt: null,
};
const log: UsageLog = {
  id: 'use_1', createdAt: Date.UTC(2026, 10, 23, 9, 30), requestId: 'req_first', userId: 'u1', apiKeyId: 'key_1', model: 'gpt-4o-mini', channelId: 'chn_1',
  endpoint: 'chat.completions', promptTokens: 100, completionTokens: 7, cachedTokens: 30, cacheWriteTokens: 10, cost: 434, status: 200, errorCode: null,
  latencyMs: 1234, firstTokenMs: 250, streamed: true, clientIp: '127.0.0.1',
  pricing: { inputPerMillion: 2_500_000, cachedInputPerMillion: 1_250_000, cacheWritePerMillion: 3_125_000, outputPerMillion: 10_000_000, priceRatioMillionths: 1_500_000, imageCost: 0, audioMilliseconds: 0, audioPerMinute: 0, videoCost: 0 },
};
const refused: UsageLog = { ...log, id: 'use_2', requestId: 'req_refused', status: 429, errorCode: 'insufficient_quota', cost: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, firstTokenMs: null, streamed: false, pricing: null };

afterEach(() => vi.unstubAllGlobals());

/** Installs the fake /api and also records the full URL (query string included) of every call. */
function installApi(routes: FakeRoutes): string[] {
  installFakeGatewayApi(routes);
  const fake = globalThis.fetch;
  const urls: string[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    urls.push(String(input));
    return fake(input, init);
  });
  return urls;
}

const logsCalls = (urls: string[]) => urls.filter((url) => url.startsWith('/api/usage/logs?')).map((url) => new URLSearchParams(url.split('?')[1]));

describe('the usage logs page', () => {
  it('lists requests with key name, tokens, cost, status and timing', async () => {
    installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [log, refused], nextCursor: null }], 'GET /api/keys': [200, { data: [key] }] });
    renderConsole('/logs');
    const row = await screen.findByTestId('usage-log-row-use_1');
    for (const text of ['laptop', 'gpt-4o-mini', 'chat.completions', '100 / 7 / 30', '0.000434', '200', '1,234 ms / 250 ms', 'Yes', 'req_first']) {
      expect(within(row).getByText(text), text).toBeTruthy();
    }
    expect(within(screen.getByTestId('usage-log-row-use_2')).getByText('429 · insufficient_quota')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'User' })).toBeNull();
  });

  it('sends the filters, keeps them in the URL, and exports the same filter as CSV', async () => {
    const urls = installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [log], nextCursor: null }], 'GET /api/keys': [200, { data: [key] }] });
    const { history } = renderConsole('/logs');
    await screen.findByTestId('usage-log-row-use_1');
    expect(logsCalls(urls)[0]?.get('limit')).toBe('50');

    await userEvent.selectOptions(screen.getByLabelText('Time range'), 'all');
    await userEvent.selectOptions(screen.getByLabelText('Key'), 'laptop');
    await userEvent.selectOptions(screen.getByLabelText('Status'), '4xx');
    await userEvent.type(screen.getByLabelText('Request ID'), 'req_first');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(logsCalls(urls).at(-1)?.get('requestId')).toBe('req_first'));
    const sent = logsCalls(urls).at(-1)!;
    expect(Object.fromEntries(sent)).toEqual({ keyId: 'key_1', statusClass: '4xx', requestId: 'req_first', limit: '50' });
    expect(history.location.search).toContain('requestId=req_first');
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe('/api/usage/logs.csv?keyId=key_1&statusClass=4xx&requestId=req_first');
  });

  it('reads its filters from the URL it was opened with', async () => {
    const urls = installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [log], nextCursor: null }], 'GET /api/keys': [200, { data: [key] }] });
    renderConsole('/logs?range=all&requestId=req_first');
    await screen.findByTestId('usage-log-row-use_1');
    expect(Object.fromEntries(logsCalls(urls)[0]!)).toEqual({ requestId: 'req_first', limit: '50' });
    expect((screen.getByLabelText('Request ID') as HTMLInputElement).value).toBe('req_first');
  });

  it('loads older pages with the cursor', async () => {
    const urls = installApi({
      'GET /api/me': [200, session(false)],
      'GET /api/keys': [200, { data: [key] }],
      // The fake ignores the query: the first call gets a cursor, the next gets the last page.
      'GET /api/usage/logs': (() => {
        let calls = 0;
        return () => (++calls === 1 ? [200, { data: [log], nextCursor: '123:use_1' }] : [200, { data: [refused], nextCursor: null }]);
      })(),
    });
    renderConsole('/logs');
    await screen.findByTestId('usage-log-row-use_1');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByTestId('usage-log-row-use_2');
    expect(logsCalls(urls).at(-1)?.get('cursor')).toBe('123:use_1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('2 requests shown')).toBeTruthy();
  });

  it('opens a row’s detail with every field and a breakdown that adds up to the cost', async () => {
    installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [log, refused], nextCursor: null }], 'GET /api/keys': [200, { data: [key] }] });
    renderConsole('/logs');
    await userEvent.click(await screen.findByRole('button', { name: 'Details of request req_first' }));
    const drawer = await screen.findByRole('dialog', { name: 'Request details' });
    expect(within(drawer).getByText('use_1')).toBeTruthy();
    expect(within(drawer).getByText('127.0.0.1')).toBeTruthy();
    const breakdown = within(drawer).getByTestId('cost-breakdown');
    expect(within(breakdown).getByText('Price ratio applied (group × premium): ×1.5')).toBeTruthy();
    expect(within(breakdown).getByText('60 tokens')).toBeTruthy();
    expect(within(breakdown).getByText('2.50 / 1M tokens')).toBeTruthy();
    expect(within(breakdown).getByText('0.000225')).toBeTruthy();
    expect(within(breakdown).getByTestId('breakdown-exact-total').textContent).toBe('0.000433125');
    expect(within(breakdown).getByTestId('breakdown-rounded-total').textContent).toBe('0.000434');
    expect(within(breakdown).getByText('The breakdown adds up to the cost charged.')).toBeTruthy();
  });

  it('says why a refused request has no breakdown', async () => {
    installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [refused], nextCursor: null }], 'GET /api/keys': [200, { data: [key] }] });
    renderConsole('/logs');
    await userEvent.click(await screen.findByRole('button', { name: 'Details of request req_refused' }));
    const drawer = await screen.findByRole('dialog', { name: 'Request details' });
    expect(within(drawer).getByText(/No breakdown/)).toBeTruthy();
  });

  it('shows the empty state, and the gateway’s error', async () => {
    installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [200, { data: [], nextCursor: null }], 'GET /api/keys': [200, { data: [] }] });
    const empty = renderConsole('/logs');
    expect(await screen.findByText('No requests match these filters.')).toBeTruthy();
    empty.unmount();
    installApi({ 'GET /api/me': [200, session(false)], 'GET /api/usage/logs': [400, { error: { message: 'use 2xx, 4xx or 5xx', code: 'invalid_request_error' } }], 'GET /api/keys': [200, { data: [] }] });
    renderConsole('/logs');
    expect((await screen.findByRole('alert')).textContent).toContain('use 2xx, 4xx or 5xx');
  });
});

describe('the all usage logs page', () => {
  it('shows each row’s user and filters by user', async () => {
    const urls = installApi({
      'GET /api/me': [200, session(true)],
      'GET /api/usage/logs': [200, { data: [{ ...log, userId: 'u2' }], nextCursor: null }],
      'GET /api/keys': [200, { data: [{ ...key, userId: 'u2' }] }],
      'GET /api/users': [200, { data: [{ id: 'u1', email: 'ada@example.test', displayName: 'Ada' }, { id: 'u2', email: 'bob@example.test', displayName: 'Bob' }] }],
    });
    renderConsole('/admin/logs');
    const row = await screen.findByTestId('usage-log-row-use_1');
    expect(await within(row).findByText('bob@example.test')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'User' })).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('User'), 'bob@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(logsCalls(urls).at(-1)?.get('userId')).toBe('u2'));
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('userId=u2');
  });
});
