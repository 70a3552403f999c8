import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import type { CreatedRedemptionBatch, RedemptionCode } from './redemption-codes-types';

const adminSession = { user: { id: 'admin1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const activeCode: RedemptionCode = {
  id: 'rcd_1', batchId: 'rcb_1', codePrefix: 'GWRC-AB12', amount: 10_000_000, status: 'active', note: 'spring', expiresAt: null,
  createdAt: Date.UTC(2026, 0, 2), createdBy: 'root@example.test', redeemedBy: null, redeemedAt: null, disabledAt: null,
};
const redeemedCode: RedemptionCode = { ...activeCode, id: 'rcd_2', codePrefix: 'GWRC-CD34', status: 'redeemed', redeemedBy: 'usr_ada', redeemedAt: Date.UTC(2026, 0, 3) };
const createdBatch: CreatedRedemptionBatch = {
  batchId: 'rcb_9', amount: 2_500_000, count: 2, expiresAt: null, note: 'launch',
  codes: [{ id: 'rcd_8', code: 'GWRC-1111-2222-3333', codePrefix: 'GWRC-1111' }, { id: 'rcd_9', code: 'GWRC-4444-5555-6666', codePrefix: 'GWRC-4444' }],
};

afterEach(() => vi.unstubAllGlobals());

describe('the Redemption codes page', () => {
  it('lists codes with status badges, amount, note and who redeemed them, and exports the filtered list', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, adminSession], 'GET /api/admin/redemption-codes': [200, { data: [activeCode, redeemedCode], nextCursor: null }] });
    renderConsole('/admin/redemption-codes');
    const active = await screen.findByTestId('code-row-rcd_1');
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText('10.00')).toBeTruthy();
    expect(within(active).getByText('GWRC-AB12…')).toBeTruthy();
    expect(within(active).getByRole('button', { name: 'Disable code GWRC-AB12' }).hasAttribute('disabled')).toBe(false);
    const redeemed = screen.getByTestId('code-row-rcd_2');
    expect(within(redeemed).getByText('Redeemed')).toBeTruthy();
    expect(within(redeemed).getByText('usr_ada')).toBeTruthy();
    expect(within(redeemed).getByRole('button', { name: 'Disable code GWRC-CD34' }).hasAttribute('disabled')).toBe(true);

    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/redemption-codes?format=csv');
    await userEvent.click(within(active).getByRole('button', { name: 'Show only batch rcb_1' }));
    expect((screen.getByRole('textbox', { name: 'Batch id' }) as HTMLInputElement).value).toBe('rcb_1');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/redemption-codes?batch=rcb_1&format=csv'));
  });

  it('validates the batch form, sends the amount in micro-units and shows the codes once with copy-all', async () => {
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/redemption-codes': [200, { data: [], nextCursor: null }],
      'POST /api/admin/redemption-codes': [201, createdBatch],
    });
    renderConsole('/admin/redemption-codes');
    expect(await screen.findByText('No codes match.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create codes' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Enter the amount each code is worth.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Amount per code/), '0');
    expect(within(dialog).getByText(/Enter an amount above zero/)).toBeTruthy();
    const count = within(dialog).getByLabelText(/Number of codes/);
    await userEvent.clear(count);
    await userEvent.type(count, '1001');
    expect(within(dialog).getByText('Enter a whole number from 1 to 1000.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText(/Amount per code/));
    await userEvent.type(within(dialog).getByLabelText(/Amount per code/), '2.5');
    await userEvent.clear(count);
    await userEvent.type(count, '2');
    await userEvent.type(within(dialog).getByLabelText('Note'), 'launch');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ amountMicroUnits: 2_500_000, count: 2, note: 'launch' }));

    expect((await screen.findByTestId('new-redemption-codes')).textContent).toBe('GWRC-1111-2222-3333\nGWRC-4444-5555-6666');
    expect(screen.getByText(/2 codes worth 2\.50 each\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByTestId('new-redemption-codes')).toBeNull());
  });

  it('disables a code and a whole batch only after confirmation', async () => {
    const calls = installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/redemption-codes': [200, { data: [activeCode], nextCursor: null }],
      'POST /api/admin/redemption-codes/rcd_1/disable': [200, { disabled: 1 }],
      'POST /api/admin/redemption-batches/rcb_1/disable': [200, { batchId: 'rcb_1', disabled: 3 }],
    });
    renderConsole('/admin/redemption-codes');
    const row = await screen.findByTestId('code-row-rcd_1');
    await userEvent.click(within(row).getByRole('button', { name: 'Disable code GWRC-AB12' }));
    let confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Disable code GWRC-AB12…?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(within(row).getByRole('button', { name: 'Disable the batch of code GWRC-AB12' }));
    confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Disable batch rcb_1?')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/api/admin/redemption-batches/rcb_1/disable']));
    expect(await screen.findByText('Disabled 3 codes.')).toBeTruthy();
  });

  it('shows the gateway’s message when a disable fails', async () => {
    installFakeGatewayApi({
      'GET /api/me': [200, adminSession],
      'GET /api/admin/redemption-codes': [200, { data: [activeCode], nextCursor: null }],
      'POST /api/admin/redemption-codes/rcd_1/disable': [404, { error: { message: 'No active redemption code with this id.', code: 'not_found' } }],
    });
    renderConsole('/admin/redemption-codes');
    await userEvent.click(within(await screen.findByTestId('code-row-rcd_1')).getByRole('button', { name: 'Disable code GWRC-AB12' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('No active redemption code with this id.')).toBeTruthy();
  });

  it('shows an error state when the list cannot be read', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, adminSession], 'GET /api/admin/redemption-codes': [500, { error: { message: 'database is down', code: 'server_error' } }] });
    renderConsole('/admin/redemption-codes');
    expect((await screen.findByRole('alert')).textContent).toContain('database is down');
  });
});
