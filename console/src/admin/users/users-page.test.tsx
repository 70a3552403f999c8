import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import type { AdminUser, ModelGroup } from './users-types';

const balance = (amount: number, debt = 0) => ({ balance: amount, held: 0, available: amount, debt });
const noLimits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };
const admin: AdminUser = { id: 'u_admin', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: Date.UTC(2026, 0, 1), hasPassword: true, balance: balance(0), limits: noLimits, groups: [{ id: 'g_default', name: 'default' }] };
const grace: AdminUser = { id: 'u_grace', email: 'grace@example.test', displayName: 'Grace', role: 'user', status: 'active', createdAt: Date.UTC(2026, 0, 2), hasPassword: false, balance: balance(12_500_000, 1_000_000), limits: { ...noLimits, requestsPerMinute: 60 }, groups: [{ id: 'g_default', name: 'default' }] };
const groups: ModelGroup[] = [
  { id: 'g_default', name: 'default', description: '', models: ['*'], priceRatioMillionths: 1_000_000 },
  { id: 'g_premium', name: 'premium', description: '', models: ['gpt-4o', 'o3'], priceRatioMillionths: 2_000_000 },
];

function routes(extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/me': [200, { user: admin, isAdmin: true, balance: null }],
    'GET /api/users': [200, { data: [admin, grace] }],
    'GET /api/groups': [200, { data: groups }],
    ...extra,
  };
}

async function openManage(email: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Manage ${email}` }));
  return screen.findByRole('dialog', { name: 'Manage user' });
}

afterEach(() => vi.unstubAllGlobals());

describe('the Users page', () => {
  it('lists users with balance, debt, role, status and groups, and filters by the search', async () => {
    installFakeGatewayApi(routes());
    renderConsole('/admin/users');
    const row = await screen.findByTestId('user-row-u_grace');
    expect(within(row).getByText('12.50')).toBeTruthy();
    expect(within(row).getByText('1.00')).toBeTruthy();
    expect(within(row).getByText('User')).toBeTruthy();
    expect(within(row).getByText('default')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Search'), 'GRACE');
    expect(screen.queryByTestId('user-row-u_admin')).toBeNull();
    expect(screen.getByTestId('user-row-u_grace')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'nobody-like-this');
    expect(screen.getByText('No user matches the search.')).toBeTruthy();
  });

  it('adjusts a balance by a negative amount only with a reason, in micro-units', async () => {
    const calls = installFakeGatewayApi(routes({ 'POST /api/users/u_grace/credits': [201, { balance: 10_000_000, debt: 0 }] }));
    renderConsole('/admin/users');
    const dialog = await openManage('grace@example.test');
    expect(within(dialog).getByTestId('user-detail-balance').textContent).toBe('12.50');
    await userEvent.type(within(dialog).getByLabelText(/^Amount/), '0');
    expect(within(dialog).getByText('Enter a non-zero amount such as 10 or -2.50.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText(/^Amount/));
    await userEvent.type(within(dialog).getByLabelText(/^Amount/), '-2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply adjustment' }));
    expect(within(dialog).getByText('Say why: it is written to the ledger and the audit log.')).toBeTruthy();
    expect(calls.some((call) => call.path.endsWith('/credits'))).toBe(false);

    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'refund of a failed batch');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply adjustment' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/api/users/u_grace/credits')?.body).toEqual({ kind: 'adjustment', amountMicroUnits: -2_500_000, description: 'refund of a failed batch' }));
    expect(await screen.findByText('Balance adjusted; it is now 10.00.')).toBeTruthy();
  });

  it('shows the gateway’s refusal of an adjustment', async () => {
    installFakeGatewayApi(routes({ 'POST /api/users/u_grace/credits': [400, { error: { message: 'The balance would go negative.', code: 'invalid_request_error' } }] }));
    renderConsole('/admin/users');
    const dialog = await openManage('grace@example.test');
    await userEvent.type(within(dialog).getByLabelText(/^Amount/), '-100');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'too much');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply adjustment' }));
    expect(await screen.findByText('The balance would go negative.')).toBeTruthy();
  });

  it('grants a group by saving the whole set of group ids', async () => {
    const calls = installFakeGatewayApi(routes({ 'PUT /api/users/u_grace/groups': [200, { userId: 'u_grace', data: [] }] }));
    renderConsole('/admin/users');
    const dialog = await openManage('grace@example.test');
    const save = within(dialog).getByRole('button', { name: 'Save groups' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /premium · ×2/ }));
    await userEvent.click(save);
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT' && call.path.endsWith('/groups'))?.body).toEqual({ groups: ['g_default', 'g_premium'] }));
  });

  it('sends limits with blank as the default and refuses what is not a whole number', async () => {
    const calls = installFakeGatewayApi(routes({ 'PUT /api/users/u_grace/limits': [200, {}] }));
    renderConsole('/admin/users');
    const dialog = await openManage('grace@example.test');
    const requests = within(dialog).getByLabelText('Requests per minute') as HTMLInputElement;
    expect(requests.value).toBe('60');
    await userEvent.type(within(dialog).getByLabelText('Concurrent requests'), '1.5');
    expect(within(dialog).getByText('A whole number, or blank.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Concurrent requests'));
    await userEvent.type(within(dialog).getByLabelText('Concurrent requests'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(calls.find((call) => call.path.endsWith('/limits'))?.body).toEqual({ requestsPerMinute: 60, tokensPerMinute: null, maxConcurrentRequests: 0 }));
  });

  it('does not let an administrator disable themself, and disables another after confirmation', async () => {
    const calls = installFakeGatewayApi(routes({ 'POST /api/users/u_grace/disable': [200, { ...grace, status: 'disabled' }] }));
    renderConsole('/admin/users');
    const own = await openManage('root@example.test');
    expect((within(own).getByRole('button', { name: 'Disable user' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(own).getByText('You cannot disable your own account.')).toBeTruthy();
    await userEvent.click(within(own).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const dialog = await openManage('grace@example.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable user' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disable grace@example.test?' });
    expect(calls.some((call) => call.path.endsWith('/disable'))).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Disable user' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/api/users/u_grace/disable')).toBe(true));
  });

  it('creates a user, checking the email and the password length first', async () => {
    const calls = installFakeGatewayApi(routes({ 'POST /api/users': (body) => [201, { ...grace, id: 'u_new', email: (body as { email: string }).email }] }));
    renderConsole('/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a user' });
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'not-an-email');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Enter an email address.')).toBeTruthy();
    expect(within(dialog).getByText('At least 8 characters.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText(/^Email/));
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'new@example.test');
    await userEvent.clear(within(dialog).getByLabelText(/^Password/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST' && call.path === '/api/users')?.body).toEqual({ email: 'new@example.test', role: 'user' }));
    expect(await screen.findByText('Created new@example.test.')).toBeTruthy();
  });

  it('shows the error state when the users cannot be read', async () => {
    installFakeGatewayApi(routes({ 'GET /api/users': [403, { error: { message: 'Administrators only.', code: 'forbidden' } }] }));
    renderConsole('/admin/users');
    expect(await screen.findByText('Something went wrong: Administrators only.')).toBeTruthy();
  });
});
