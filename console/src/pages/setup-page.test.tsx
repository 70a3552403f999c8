import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';

afterEach(() => vi.unstubAllGlobals());

describe('the first-run setup page', () => {
  it('checks the form before sending it, then creates the administrator with the link’s token', async () => {
    let created = false;
    const calls = installFakeGatewayApi({
      'GET /api/setup': [200, { open: true }],
      'POST /api/setup': () => {
        created = true;
        return [200, { token: 't', expiresAt: 0, user: {}, groups: [] }];
      },
      'GET /api/me': () => (created ? [200, { user: { id: 'u1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null }] : [401, { error: { message: 'no', code: 'unauthorized' } }]),
      'GET /api/keys': [200, { data: [] }],
      'GET /api/me/groups': [200, { data: [] }],
    });
    const { history } = renderConsole('/setup?token=setup-token-1');
    await userEvent.type(await screen.findByLabelText(/Email/), 'root@example.test');
    await userEvent.type(screen.getByLabelText(/Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Create administrator' }));
    expect(await screen.findByText('The password needs at least 8 characters.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText(/Password/), '-but-longer');
    await userEvent.click(screen.getByRole('button', { name: 'Create administrator' }));
    await waitFor(() => expect(history.location.pathname).toBe('/dashboard'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ token: 'setup-token-1', email: 'root@example.test', password: 'short-but-longer' });
    expect(await screen.findByText('Administration')).toBeTruthy();
  });

  it('asks for the setup link when the token is missing, and says when setup is over', async () => {
    installFakeGatewayApi({ 'GET /api/setup': [200, { open: true }] });
    const first = renderConsole('/setup');
    expect(await screen.findByText(/needs the setup link/)).toBeTruthy();
    first.unmount();
    installFakeGatewayApi({ 'GET /api/setup': [200, { open: false }] });
    renderConsole('/setup?token=x');
    expect(await screen.findByText(/Setup is finished/)).toBeTruthy();
  });
});
