import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import type { AdminStatus } from './status-types';

const me = { user: { id: 'u1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const status: AdminStatus = {
  publicUrl: 'https://gateway.example.test',
  signIn: { password: true, github: { configured: false, host: null }, oidc: { configured: true, name: 'Company SSO', issuerHost: 'login.example.test' } },
  payments: [
    { method: 'stripe', configured: true, mode: 'test', currency: 'usd', lastDelivery: { method: 'stripe', receivedAt: Date.UTC(2026, 0, 5, 12), verified: false, outcome: 'rejected', orderId: null } },
    { method: 'alipay', configured: true, mode: 'qr', sandbox: true, currency: 'cny', lastDelivery: { method: 'alipay', receivedAt: Date.UTC(2026, 0, 5, 13), verified: true, outcome: 'credited', orderId: 'ord_123' } },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('the Status page', () => {
  it('shows the configured providers, the public URL and each provider’s last webhook', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, me], 'GET /api/admin/status': [200, status] });
    renderConsole('/admin/status');
    expect(await screen.findByText('https://gateway.example.test')).toBeTruthy();
    const signIn = screen.getByRole('region', { name: 'Sign-in providers' });
    expect(within(within(signIn).getByTestId('provider-Company SSO')).getByText('Configured')).toBeTruthy();
    expect(within(signIn).getByText('issuer login.example.test')).toBeTruthy();
    expect(within(within(signIn).getByTestId('provider-GitHub')).getByText('Not configured')).toBeTruthy();

    const stripe = screen.getByTestId('payment-stripe');
    expect(within(stripe).getByText('Test mode · USD')).toBeTruthy();
    expect(within(stripe).getByText('Did not verify')).toBeTruthy();
    expect(within(stripe).getByText('Rejected')).toBeTruthy();
    const alipay = screen.getByTestId('payment-alipay');
    expect(within(alipay).getByText('QR code, sandbox · CNY')).toBeTruthy();
    expect(within(alipay).getByText('Verified')).toBeTruthy();
    expect(within(alipay).getByText('Credited')).toBeTruthy();
    expect(within(alipay).getByText('ord_123')).toBeTruthy();
  });

  it('says when nothing is configured and no webhook came', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, me],
      'GET /api/admin/status': [200, { ...status, publicUrl: null, payments: [{ method: 'stripe', configured: false, mode: null, currency: null, lastDelivery: null }] }],
    });
    renderConsole('/admin/status', 'zh-CN');
    expect(await screen.findByText('未设置：提供方和浏览器将被引导到网关监听的地址。')).toBeTruthy();
    const stripe = screen.getByTestId('payment-stripe');
    expect(within(stripe).getByText('未配置')).toBeTruthy();
    expect(within(stripe).getByText('尚未收到')).toBeTruthy();
  });

  it('shows the gateway’s error', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, me], 'GET /api/admin/status': [403, { error: { message: 'Administrators only.', code: 'forbidden' } }] });
    renderConsole('/admin/status');
    expect(await screen.findByText('Something went wrong: Administrators only.')).toBeTruthy();
  });
});
