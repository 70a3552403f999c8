import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import { openProviderPage } from './open-provider-page';
import type { ConsoleSession, IdentityList } from './settings-types';

vi.mock('./open-provider-page', () => ({ openProviderPage: vi.fn() }));

const user = { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 };
const me = { user, isAdmin: false, balance: null };
const chromeOnLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const sessions: ConsoleSession[] = [
  { id: 'ses_here', createdAt: Date.UTC(2026, 0, 2), lastSeenAt: Date.UTC(2026, 0, 3), expiresAt: Date.UTC(2026, 1, 1), userAgent: chromeOnLinux, clientIp: '127.0.0.1', current: true },
  { id: 'ses_phone', createdAt: Date.UTC(2026, 0, 1), lastSeenAt: Date.UTC(2026, 0, 2), expiresAt: Date.UTC(2026, 1, 1), userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1', clientIp: '203.0.113.9', current: false },
];
const github = { id: 'idn_1', provider: 'github' as const, displayName: 'ada-gh', email: 'ada@github.test', createdAt: Date.UTC(2026, 0, 1), lastUsedAt: null };

function routes(identities: IdentityList, extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/me': [200, me],
    'GET /api/me/identities': [200, identities],
    'GET /api/auth/sessions': [200, { data: sessions }],
    'GET /api/auth/providers': [200, { providers: [{ id: 'github', name: 'GitHub', startUrl: '/api/auth/github/start' }, { id: 'oidc', name: 'Company SSO', startUrl: '/api/auth/oidc/start' }], password: true }],
    ...extra,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(openProviderPage).mockReset();
});

describe('the Settings page', () => {
  it('saves a trimmed display name and refuses an empty one', async () => {
    const calls = installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'PATCH /api/me': (body) => [200, { ...me, user: { ...user, displayName: (body as { displayName: string }).displayName } }] }));
    renderConsole('/settings');
    const name = await screen.findByLabelText('Display name');
    expect(within(screen.getByRole('region', { name: 'Profile' })).getByText('ada@example.test')).toBeTruthy();
    await userEvent.clear(name);
    expect(screen.getByText('Enter a name.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(name, '  Ada Lovelace ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ displayName: 'Ada Lovelace' }));
    expect(await screen.findByText('Display name saved.')).toBeTruthy();
  });

  it('checks the new password before sending and tells how many sessions ended', async () => {
    const calls = installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'POST /api/me/password': [200, { changed: true, endedSessions: 1 }] }));
    renderConsole('/settings');
    await userEvent.type(await screen.findByLabelText('Current password'), 'old password');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    expect(screen.getByText('At least 8 characters.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'different');
    expect(screen.getByText('The two passwords differ.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(calls.some((call) => call.path === '/api/me/password')).toBe(false);

    await userEvent.type(screen.getByLabelText('New password'), ' and longer');
    await userEvent.clear(screen.getByLabelText('Repeat the new password'));
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'short and longer');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/api/me/password')?.body).toEqual({ currentPassword: 'old password', newPassword: 'short and longer', revoke_other_sessions: true, revoke_api_keys: false }));
    expect(await screen.findByText('Password changed; 1 other session ended.')).toBeTruthy();
  });

  it('shows the gateway’s message when the current password is wrong', async () => {
    installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'POST /api/me/password': [400, { error: { message: 'The current password is wrong.', code: 'invalid_request_error' } }] }));
    renderConsole('/settings');
    await userEvent.type(await screen.findByLabelText('Current password'), 'not it');
    await userEvent.type(screen.getByLabelText('New password'), 'long enough');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'long enough');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong.')).toBeTruthy();
  });

  it('does not let the last way in be unlinked, and says why; no password form without a password', async () => {
    const calls = installFakeGatewayApi(routes({ hasPassword: false, data: [github] }));
    renderConsole('/settings');
    const unlink = await screen.findByRole('button', { name: 'Unlink GitHub' });
    expect((unlink as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('This is your only way to sign in: link another provider before unlinking it.')).toBeTruthy();
    expect(screen.getByText('This account signs in with a provider and has no password.')).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Link Company SSO' })).toBeNull();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('links a provider only after confirmation, by a POST, and then goes to the provider', async () => {
    const authorizationUrl = 'https://sso.example/authorize?state=abc';
    const calls = installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'POST /api/me/identities/link': [200, { provider: 'oidc', authorizationUrl }] }));
    renderConsole('/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Link Company SSO' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Link Company SSO to this account?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to Company SSO' }));
    await waitFor(() => expect(openProviderPage).toHaveBeenCalledWith(authorizationUrl));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/api/me/identities/link', body: { provider: 'oidc', returnTo: '/settings' } });
  });

  it('points out an identity linked in the last day, and not an older one', async () => {
    const fresh = { ...github, id: 'idn_2', provider: 'oidc' as const, displayName: 'ada-sso', email: 'ada@sso.test', createdAt: Date.now() - 60_000 };
    installFakeGatewayApi(routes({ hasPassword: true, data: [github, fresh] }));
    renderConsole('/settings');
    const notice = await screen.findByTestId('recently-linked');
    expect(notice.textContent).toContain('Company SSO (ada@sso.test)');
    expect(notice.textContent).not.toContain('ada@github.test');
  });

  it('unlinks an identity after confirmation when a password remains', async () => {
    const calls = installFakeGatewayApi(routes({ hasPassword: true, data: [github] }, { 'DELETE /api/me/identities/idn_1': [200, { id: 'idn_1', deleted: true }] }));
    renderConsole('/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Unlink GitHub' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Unlink GitHub?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/me/identities/idn_1')).toBe(true));
  });

  it('marks this browser’s session, revokes another after confirmation, and signs out all others', async () => {
    const calls = installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'DELETE /api/auth/sessions/ses_phone': [200, { deleted: true }], 'DELETE /api/auth/sessions': [200, { deleted: 1 }] }));
    renderConsole('/settings');
    const here = await screen.findByTestId('session-row-ses_here');
    expect(within(here).getByText('Chrome on Linux')).toBeTruthy();
    expect(within(here).getByText('This browser')).toBeTruthy();
    expect(within(here).queryByRole('button')).toBeNull();
    const phone = screen.getByTestId('session-row-ses_phone');
    expect(within(phone).getByText('Safari on iOS')).toBeTruthy();
    await userEvent.click(within(phone).getByRole('button', { name: 'Revoke the session of Safari on iOS at 203.0.113.9' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/auth/sessions/ses_phone')).toBe(true));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out all other sessions' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/auth/sessions')).toBe(true));
  });

  it('switches the language from the page', async () => {
    installFakeGatewayApi(routes({ hasPassword: true, data: [] }));
    renderConsole('/settings');
    await userEvent.click(await screen.findByRole('radio', { name: '简体中文' }));
    expect(await screen.findByRole('heading', { name: '设置' })).toBeTruthy();
  });

  it('shows the error state when the sessions cannot be read', async () => {
    installFakeGatewayApi(routes({ hasPassword: true, data: [] }, { 'GET /api/auth/sessions': [500, { error: { message: 'database unavailable', code: 'server_error' } }] }));
    renderConsole('/settings');
    // A 5xx is retried once before the error shows.
    expect(await screen.findByText('Something went wrong: database unavailable', {}, { timeout: 5000 })).toBeTruthy();
  });
});
