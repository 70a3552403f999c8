import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey, GrantedGroup } from '../api/api-types';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';

const session = (isAdmin: boolean) => ({ user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: isAdmin ? 'admin' : 'user', status: 'active', createdAt: 0 }, isAdmin, balance: null });
const group: GrantedGroup = { id: 'g1', name: 'default', description: 'everyday models', priceRatioMillionths: 1_500_000, models: [{ id: '*', available: true }, { id: 'gpt-4o-mini', available: true }] };
const existingKey: ApiKey = {
  id: 'k1', userId: 'u1', groupId: 'g1', name: 'laptop', keyPrefix: 'sk-gw-AbCd', status: 'active', disabledBy: null, usable: true, disabledReason: null,
  expiresAt: null, createdAt: Date.UTC(2026, 0, 2), spendingCap: 5_000_000, spent: 1_250_000, allowedIps: [], lastUsedAt: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('the API keys page', () => {
  it('lists keys with group ratio, status and spend against cap', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [existingKey] }], 'GET /api/me/groups': [200, { data: [group] }] });
    renderConsole('/keys');
    const row = await screen.findByTestId('key-row-k1');
    expect(within(row).getByText('default ×1.5')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('1.25 / 5.00')).toBeTruthy();
    expect(within(row).getByText('sk-gw-AbCd…')).toBeTruthy();
  });

  it('requires a group, sends the cap in micro-units and shows the secret once with this gateway’s snippets', async () => {
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, session(false)],
      'GET /api/keys': [200, { data: [] }],
      'GET /api/me/groups': [200, { data: [group, { ...group, id: 'g2', name: 'premium', priceRatioMillionths: 2_000_000 }] }],
      'POST /api/keys': [201, { ...existingKey, id: 'k2', name: 'ci', key: 'sk-gw-the-whole-secret' }],
    });
    renderConsole('/keys');
    expect(await screen.findByText('You have no keys yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'ci');
    await userEvent.type(within(dialog).getByLabelText(/Spending cap/), '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose a group.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(within(dialog).getByRole('combobox', { name: /Group/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'default · ×1.5 · 2 models', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ group: 'g1', name: 'ci', spendingCap: 2_500_000 }));
    expect((await screen.findByTestId('new-key-secret')).textContent).toBe('sk-gw-the-whole-secret');
    expect(screen.getByText(/curl http:\/\/localhost(:\d+)?\/v1\/chat\/completions/)).toBeTruthy();
  });

  it('refuses a spending cap that is not an amount', async () => {
    const calls = installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [] }], 'GET /api/me/groups': [200, { data: [group] }] });
    renderConsole('/keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Spending cap/), '-3');
    expect(within(dialog).getByText('Enter an amount such as 10 or 2.50.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('disables a key, and deletes one only after confirmation', async () => {
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, session(false)],
      'GET /api/keys': [200, { data: [existingKey] }],
      'GET /api/me/groups': [200, { data: [group] }],
      'POST /api/keys/k1/disable': [200, { ...existingKey, status: 'disabled' }],
      'DELETE /api/keys/k1': [200, { deleted: true }],
    });
    renderConsole('/keys');
    const row = await screen.findByTestId('key-row-k1');
    await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/api/keys/k1/disable')).toBe(true));

    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Delete key “laptop”?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/keys/k1')).toBe(true));
  });

  it('edits a key’s name, cap, expiry and addresses with PATCH and shows the gateway’s refusal', async () => {
    let refuse = true;
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, session(false)],
      'GET /api/keys': [200, { data: [existingKey] }],
      'GET /api/me/groups': [200, { data: [group] }],
      'PATCH /api/keys/k1': (body) => (refuse ? [400, { error: { message: 'allowedIps[0] must be an IP address or a CIDR range such as 10.0.0.0/8', code: 'invalid_request_error' } }] : [200, { ...existingKey, ...(body as object) }]),
    });
    renderConsole('/keys');
    const row = await screen.findByTestId('key-row-k1');
    await userEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit key “laptop”' });
    expect((within(dialog).getByLabelText(/Spending cap/) as HTMLInputElement).value).toBe('5');
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'desktop');
    await userEvent.clear(within(dialog).getByLabelText(/Spending cap/));
    await userEvent.type(within(dialog).getByLabelText(/Spending cap/), '12.5');
    await userEvent.type(within(dialog).getByLabelText(/Allowed IPs/), 'not-an-address');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Expires' }));
    await userEvent.click(await screen.findByRole('option', { name: 'In 30 days', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('allowedIps[0] must be an IP address');

    refuse = false;
    await userEvent.clear(within(dialog).getByLabelText(/Allowed IPs/));
    await userEvent.type(within(dialog).getByLabelText(/Allowed IPs/), '10.0.0.0/8');
    const before = Date.now();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit key “laptop”' })).toBeNull());
    const patch = calls.filter((call) => call.method === 'PATCH').at(-1)?.body as { expiresAt: number };
    expect(patch).toMatchObject({ name: 'desktop', spendingCap: 12_500_000, allowedIps: ['10.0.0.0/8'] });
    expect(patch.expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(await screen.findByText('Key “desktop” saved.')).toBeTruthy();
  });

  it('does not send an edit with a cap that is not an amount', async () => {
    const calls = installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [existingKey] }], 'GET /api/me/groups': [200, { data: [group] }] });
    renderConsole('/keys');
    await userEvent.click(within(await screen.findByTestId('key-row-k1')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Spending cap/), 'x');
    expect(within(dialog).getByText('Enter an amount such as 10 or 2.50.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('tells the owner that only an administrator can enable a key an admin disabled', async () => {
    const locked: ApiKey = { ...existingKey, status: 'disabled', disabledBy: 'admin', usable: false, disabledReason: 'disabled_by_admin' };
    installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [locked] }], 'GET /api/me/groups': [200, { data: [group] }] });
    const owner = renderConsole('/keys');
    const row = await screen.findByTestId('key-row-k1');
    expect(within(row).getByText('Disabled by an admin')).toBeTruthy();
    expect(within(row).getByText('Only an administrator can enable it again.')).toBeTruthy();
    expect((within(row).getByRole('button', { name: 'Enable' }) as HTMLButtonElement).disabled).toBe(true);
    owner.unmount();

    installFakeGatewayApi({ 'GET /api/me': [200, session(true)], 'GET /api/keys': [200, { data: [locked] }], 'GET /api/me/groups': [200, { data: [group] }] });
    renderConsole('/keys');
    const adminRow = await screen.findByTestId('key-row-k1');
    expect((within(adminRow).getByRole('button', { name: 'Enable' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(adminRow).queryByText('Only an administrator can enable it again.')).toBeNull();
  });

  it('shows the gateway’s error when the keys cannot be read', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [500, { error: { message: 'database is down', code: 'server_error' } }], 'GET /api/me/groups': [200, { data: [group] }] });
    renderConsole('/keys');
    expect((await screen.findByRole('alert')).textContent).toContain('database is down');
  });
});

describe('the app shell', () => {
  it('shows the administration section to administrators only', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session(true)], 'GET /api/keys': [200, { data: [] }], 'GET /api/me/groups': [200, { data: [] }] });
    const admin = renderConsole('/keys');
    expect(await screen.findByText('Administration')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    admin.unmount();

    installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [] }], 'GET /api/me/groups': [200, { data: [] }] });
    renderConsole('/keys');
    expect(await screen.findByText('My account')).toBeTruthy();
    expect(screen.queryByText('Administration')).toBeNull();
  });

  it('switches the language from the header', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session(false)], 'GET /api/keys': [200, { data: [] }], 'GET /api/me/groups': [200, { data: [] }] });
    renderConsole('/keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Language' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '简体中文', hidden: true }));
    expect(await screen.findByText('你还没有密钥。')).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});
