import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import type { TwoFactorState } from './settings-types';

const user = { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 };
const off: TwoFactorState = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
const recoveryCodes = Array.from({ length: 10 }, (_, index) => `abcde-fgh${index}k`);

function routes(extra: FakeRoutes): FakeRoutes {
  return {
    'GET /api/me': [200, { user, isAdmin: false, balance: null }],
    'GET /api/me/identities': [200, { hasPassword: true, data: [] }],
    'GET /api/auth/sessions': [200, { data: [] }],
    'GET /api/auth/providers': [200, { providers: [], password: true }],
    ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('Settings → Security', () => {
  it('enrols with a QR code and a confirming code, then shows the ten recovery codes once', async () => {
    let state = off;
    const calls = installFakeGatewayApi(
      routes({
        'GET /api/me/two-factor': () => [200, state],
        'POST /api/me/two-factor/enrol': [200, { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Gateway:ada?secret=JBSWY3DPEHPK3PXP' }],
        'POST /api/me/two-factor/confirm': () => {
          state = { enabled: true, enabledAt: 1, recoveryCodesLeft: 10, required: false };
          return [200, { enabled: true, recoveryCodes }];
        },
      }),
    );
    renderConsole('/settings');
    const section = await screen.findByRole('region', { name: 'Security' });
    expect(await within(section).findByText('Two-factor sign-in is off.')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect((await within(section).findByTestId('two-factor-secret')).textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(await within(section).findByAltText('QR code for the authenticator app')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: 'Turn on' }));
    expect(within(section).getByText('Enter the 6-digit code.')).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/me/two-factor/confirm')).toBe(false);
    await userEvent.type(within(section).getByLabelText('Code'), '123456');
    await userEvent.click(within(section).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/api/me/two-factor/confirm')?.body).toEqual({ code: '123456' }));
    const shown = await within(section).findByTestId('recovery-codes');
    expect(within(shown).getAllByRole('listitem')).toHaveLength(10);
    await userEvent.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(await within(section).findByText('Two-factor sign-in is on. 10 recovery codes left.')).toBeTruthy();
    expect(within(section).queryByTestId('recovery-codes')).toBeNull();
  });

  it('turns off with the password and shows the gateway’s refusal', async () => {
    const calls = installFakeGatewayApi(
      routes({
        'GET /api/me/two-factor': [200, { enabled: true, enabledAt: 1, recoveryCodesLeft: 7, required: false }],
        'POST /api/me/two-factor/disable': [400, { error: { message: 'The password is wrong.', code: 'invalid_request_error' } }],
      }),
    );
    renderConsole('/settings');
    const section = await screen.findByRole('region', { name: 'Security' });
    expect(await within(section).findByText('Two-factor sign-in is on. 7 recovery codes left.')).toBeTruthy();
    await userEvent.type(within(section).getByLabelText('Password'), 'not it');
    await userEvent.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByText('The password is wrong.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/me/two-factor/disable')?.body).toEqual({ password: 'not it' });
  });

  it('makes new recovery codes with a current code and shows them once', async () => {
    const renewedCodes = Array.from({ length: 10 }, (_, index) => `zyxwv-uts${index}q`);
    const calls = installFakeGatewayApi(
      routes({
        'GET /api/me/two-factor': [200, { enabled: true, enabledAt: 1, recoveryCodesLeft: 1, required: false }],
        'POST /api/me/two-factor/recovery-codes': [200, { recoveryCodes: renewedCodes }],
      }),
    );
    renderConsole('/settings');
    const section = await screen.findByRole('region', { name: 'Security' });
    await userEvent.click(await within(section).findByRole('button', { name: 'Make new recovery codes' }));
    expect(within(section).getByText('Enter the 6-digit code.')).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/me/two-factor/recovery-codes')).toBe(false);
    await userEvent.type(within(section).getByLabelText('Current code'), '654321');
    await userEvent.click(within(section).getByRole('button', { name: 'Make new recovery codes' }));
    const shown = await within(section).findByTestId('recovery-codes');
    expect(within(shown).getAllByRole('listitem').map((item) => item.textContent)).toEqual(renewedCodes);
    expect(calls.find((call) => call.path === '/api/me/two-factor/recovery-codes')?.body).toEqual({ code: '654321' });
  });

  it('sends the revocation choices with a password change', async () => {
    const calls = installFakeGatewayApi(
      routes({ 'GET /api/me/two-factor': [200, off], 'POST /api/me/password': [200, { changed: true, endedSessions: 0, disabledApiKeys: 2 }] }),
    );
    renderConsole('/settings');
    await userEvent.type(await screen.findByLabelText('Current password'), 'old password');
    await userEvent.type(screen.getByLabelText('New password'), 'long enough');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'long enough');
    await userEvent.click(screen.getByLabelText('Sign out my other sessions'));
    await userEvent.click(screen.getByLabelText('Disable my API keys'));
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/api/me/password')?.body).toEqual({
        currentPassword: 'old password',
        newPassword: 'long enough',
        revoke_other_sessions: false,
        revoke_api_keys: true,
      }),
    );
  });
});
