import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';

const signedInSession = { user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 }, isAdmin: false, balance: null };

afterEach(() => vi.unstubAllGlobals());

function routes(state: { signedIn: boolean }, extra: FakeRoutes): FakeRoutes {
  return {
    'GET /api/auth/providers': [200, { providers: [], password: true }],
    'GET /api/setup': [200, { open: false }],
    'GET /api/me': () => (state.signedIn ? [200, signedInSession] : [401, { error: { message: 'sign in', code: 'unauthorized' } }]),
    'GET /api/keys': [200, { data: [] }],
    'GET /api/me/groups': [200, { data: [] }],
    ...extra,
  };
}

describe('the sign-in page’s second-factor step', () => {
  it('asks for the code after a correct password, shows a refusal, and then goes on to the page asked for', async () => {
    const state = { signedIn: false };
    let attempts = 0;
    const calls = installFakeGatewayApi(
      routes(state, {
        'POST /api/auth/login': [200, { twoFactorRequired: true, expiresAt: 0 }],
        'POST /api/auth/two-factor': () => {
          attempts += 1;
          if (attempts === 1) return [401, { error: { message: 'The code is wrong or was used already.', code: 'unauthorized' } }];
          state.signedIn = true;
          return [200, { token: 't', expiresAt: 0, user: signedInSession.user, returnPath: '/' }];
        },
      }),
    );
    const { history } = renderConsole('/sign-in?returnTo=%2Fkeys');
    await userEvent.type(await screen.findByLabelText(/Email/), 'ada@example.test');
    await userEvent.type(screen.getByLabelText(/Password/), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await userEvent.type(await screen.findByLabelText('Code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is wrong or was used already.')).toBeTruthy();
    expect(history.location.pathname).toBe('/sign-in');

    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-fghij');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(history.location.pathname).toBe('/keys'));
    expect(calls.filter((call) => call.path === '/api/auth/two-factor').map((call) => call.body)).toEqual([{ code: '000000' }, { recoveryCode: 'abcde-fghij' }]);
  });

  it('after a social sign-in’s redirect, asks for the code and goes to the return path the gateway kept', async () => {
    const state = { signedIn: false };
    installFakeGatewayApi(
      routes(state, {
        'POST /api/auth/two-factor': () => {
          state.signedIn = true;
          return [200, { token: 't', expiresAt: 0, user: signedInSession.user, returnPath: '/keys' }];
        },
      }),
    );
    const { history } = renderConsole('/sign-in?second_factor=1');
    await userEvent.type(await screen.findByLabelText('Code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(history.location.pathname).toBe('/keys'));
  });
});
