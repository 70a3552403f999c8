import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';

const signedInSession = { user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 }, isAdmin: false, balance: null };

afterEach(() => vi.unstubAllGlobals());

describe('the sign-in page', () => {
  it('offers each configured provider with the return path, and signs in with a password', async () => {
    let signedIn = false;
    const calls = installFakeGatewayApi({
      'GET /api/auth/providers': [200, { providers: [{ id: 'github', name: 'GitHub', startUrl: '/api/auth/github/start' }, { id: 'oidc', name: 'Company SSO', startUrl: '/api/auth/oidc/start' }], password: true }],
      'GET /api/setup': [200, { open: false }],
      'POST /api/auth/login': () => {
        signedIn = true;
        return [200, { token: 't', expiresAt: 0, user: signedInSession.user }];
      },
      'GET /api/me': () => (signedIn ? [200, signedInSession] : [401, { error: { message: 'sign in', code: 'unauthorized' } }]),
      'GET /api/keys': [200, { data: [] }],
      'GET /api/me/groups': [200, { data: [] }],
    });
    const { history } = renderConsole('/sign-in?returnTo=%2Fkeys');

    const github = await screen.findByRole('link', { name: 'Continue with GitHub' });
    expect(github.getAttribute('href')).toBe('/api/auth/github/start?returnTo=%2Fkeys');
    expect(screen.getByRole('link', { name: 'Continue with Company SSO' }).getAttribute('href')).toBe('/api/auth/oidc/start?returnTo=%2Fkeys');

    await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await userEvent.type(screen.getByLabelText(/Password/), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(history.location.pathname).toBe('/keys'));
    expect(calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', path: '/api/auth/login', body: { email: 'ada@example.test', password: 'correct horse' } });
    expect(await screen.findByText('You have no keys yet.')).toBeTruthy();
  });

  it('shows the gateway’s refusal of a wrong password', async () => {
    installFakeGatewayApi({
      'GET /api/auth/providers': [200, { providers: [], password: true }],
      'GET /api/setup': [200, { open: false }],
      'POST /api/auth/login': [401, { error: { message: 'Wrong email or password.', type: 'invalid_request_error', code: 'unauthorized' } }],
    });
    renderConsole('/sign-in');
    await userEvent.type(await screen.findByLabelText(/Email/), 'ada@example.test');
    await userEvent.type(screen.getByLabelText(/Password/), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong email or password.');
  });

  it('explains the error a provider callback redirected with, in Chinese too', async () => {
    installFakeGatewayApi({ 'GET /api/auth/providers': [200, { providers: [], password: true }], 'GET /api/setup': [200, { open: true }] });
    renderConsole('/sign-in?error=account_disabled', 'zh-CN');
    expect((await screen.findByRole('alert')).textContent).toBe('此账户已被停用。');
    expect(await screen.findByText(/此网关还没有管理员/)).toBeTruthy();
  });

  it('sends a visitor without a session from a console page to sign-in, remembering the page, without a 401', async () => {
    const calls = installFakeGatewayApi({
      'GET /api/me': [401, { error: { message: 'sign in', code: 'unauthorized' } }],
      'GET /api/auth/providers': [200, { providers: [], password: true }],
      'GET /api/setup': [200, { open: false }],
    });
    const { history } = renderConsole('/keys');
    await waitFor(() => expect(history.location.pathname).toBe('/sign-in'));
    expect(history.location.search).toContain('returnTo=%2Fkeys');
    // A 401 would show as an error in the browser's console: the public session check comes first.
    expect(calls.some((call) => call.path === '/api/me')).toBe(false);
  });
});

describe('the sign-in page for someone already signed in', () => {
  it('goes straight on to the page asked for, but shows a provider’s error first', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, signedInSession],
      'GET /api/keys': [200, { data: [] }],
      'GET /api/me/groups': [200, { data: [] }],
      'GET /api/auth/providers': [200, { providers: [], password: true }],
      'GET /api/setup': [200, { open: false }],
    });
    const straightOn = renderConsole('/sign-in?returnTo=%2Fkeys');
    await waitFor(() => expect(straightOn.history.location.pathname).toBe('/keys'));
    straightOn.unmount();

    const withError = renderConsole('/sign-in?error=identity_in_use');
    expect((await screen.findByRole('alert')).textContent).toBe('That account is already linked to another user.');
    expect(withError.history.location.pathname).toBe('/sign-in');
  });
});
