import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import { channelFormValuesOf, readChannelForm, readKeyValueLines } from './channel-form-values';
import type { Channel, ChannelPreset } from './channels-types';

const admin = { user: { id: 'a1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const channel: Channel = {
  id: 'ch1', name: 'openai-main', protocol: 'openai', preset: 'openai', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4o-mini', 'fast'], modelMapping: { fast: 'gpt-4o-mini' },
  settings: {}, priority: 5, weight: 2, status: 'enabled', secretSet: true, secretReadable: true, secretLast4: 'WXYZ', createdAt: 0, updatedAt: 0,
};
const presets: ChannelPreset[] = [
  { name: 'openai', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', ownedBy: 'openai' },
  { name: 'anthropic', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', ownedBy: 'anthropic' },
];

function installPage(extra: FakeRoutes = {}) {
  return installFakeGatewayApi({ 'GET /api/me': [200, admin], 'GET /api/channels': [200, { data: [channel] }], 'GET /api/channel-presets': [200, { data: presets }], ...extra });
}

afterEach(() => vi.unstubAllGlobals());

describe('channel form values', () => {
  it('reads mapping and settings lines, and keeps the secret out of an edit left empty', () => {
    expect(readKeyValueLines('fast = gpt-4o-mini\n\nslow=o1')).toEqual({ fast: 'gpt-4o-mini', slow: 'o1' });
    expect(readKeyValueLines('no separator')).toBeNull();
    expect(readKeyValueLines('=value')).toBeNull();
    const edit = readChannelForm({ ...channelFormValuesOf(channel), preset: '' }, true);
    expect(edit).toEqual({ body: { name: 'openai-main', preset: null, protocol: 'openai', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4o-mini', 'fast'], modelMapping: { fast: 'gpt-4o-mini' }, settings: {}, priority: 5, weight: 2 } });
    expect(readChannelForm(channelFormValuesOf(), false)).toEqual({ errors: { name: true, baseUrl: true, secret: true, models: true } });
    expect(readChannelForm({ ...channelFormValuesOf(channel), weight: '-1', priority: '1.5', baseUrl: 'ftp://x' }, true)).toEqual({ errors: { weight: true, priority: true, baseUrl: true } });
  });
});

describe('the Channels page', () => {
  it('lists channels with preset, routing, status and the secret’s last 4 only', async () => {
    installPage();
    renderConsole('/admin/channels');
    const row = await screen.findByTestId('channel-row-openai-main');
    expect(within(row).getByText('openai · openai')).toBeTruthy();
    expect(within(row).getByText('fast → gpt-4o-mini')).toBeTruthy();
    expect(within(row).getByText('priority 5 · weight 2')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    expect(within(row).getByText('Set · …WXYZ')).toBeTruthy();
  });

  it('shows the models whose circuit breaker is open or probing, and nothing for closed ones', async () => {
    const health = [
      { model: 'gpt-4o-mini', state: 'open', consecutiveFailures: 0, retryAt: 1, lastFailure: 'vendor-error' },
      { model: 'fast', state: 'half-open', consecutiveFailures: 0, retryAt: null, lastFailure: 'timeout' },
      { model: 'calm', state: 'closed', consecutiveFailures: 1, retryAt: null, lastFailure: 'timeout' },
    ];
    installPage({ 'GET /api/channels': [200, { data: [{ ...channel, health }] }] });
    renderConsole('/admin/channels');
    const row = await screen.findByTestId('channel-row-openai-main');
    expect(within(row).getByText('gpt-4o-mini: skipped (failing)')).toBeTruthy();
    expect(within(row).getByText('fast: probing')).toBeTruthy();
    expect(within(row).queryByText(/^calm:/)).toBeNull();
  });

  it('creates a channel from a preset with its models and mapping', async () => {
    const calls = installPage({ 'POST /api/channels': [201, { ...channel, id: 'ch2', name: 'claude' }] });
    renderConsole('/admin/channels');
    await userEvent.click(await screen.findByRole('button', { name: 'New channel' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create channel' }));
    expect(within(dialog).getByText('A new channel needs its secret.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Preset/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'anthropic · anthropic', hidden: true }));
    expect((within(dialog).getByLabelText(/^Base URL/) as HTMLInputElement).value).toBe('https://api.anthropic.com/v1');
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'claude');
    await userEvent.type(within(dialog).getByLabelText(/^Secret/), 'sk-ant-secret');
    await userEvent.type(within(dialog).getByLabelText(/^Models/), 'sonnet');
    await userEvent.type(within(dialog).getByLabelText(/^Model mapping/), 'sonnet=claude-sonnet-4-5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create channel' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        name: 'claude', preset: 'anthropic', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', secret: 'sk-ant-secret', models: ['sonnet'], modelMapping: { sonnet: 'claude-sonnet-4-5' }, settings: {}, priority: 0, weight: 1,
      }),
    );
    expect(await screen.findByText('Channel claude created.')).toBeTruthy();
  });

  it('edits a channel without sending the secret when it is left empty', async () => {
    const calls = installPage({ 'PATCH /api/channels/ch1': [200, { ...channel, weight: 3 }] });
    renderConsole('/admin/channels');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit channel openai-main' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/keep the stored secret \(…WXYZ\)/)).toBeTruthy();
    const weight = within(dialog).getByLabelText(/^Weight/);
    await userEvent.clear(weight);
    await userEvent.type(weight, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({ weight: 3, preset: 'openai' }));
    expect(calls.find((call) => call.method === 'PATCH')?.body).not.toHaveProperty('secret');
  });

  it('tests a channel with the chosen model and shows the result, or the vendor’s error', async () => {
    let answer: unknown = { model: 'fast', ok: true, latencyMs: 42, status: 200 };
    const calls = installPage({ 'POST /api/channels/ch1/test': () => [200, answer] });
    renderConsole('/admin/channels');
    await userEvent.click(await screen.findByRole('button', { name: 'Test channel openai-main' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Model' }));
    await userEvent.click(await screen.findByRole('option', { name: 'fast', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send a test request' }));
    expect(await within(dialog).findByText('The channel answered')).toBeTruthy();
    expect(within(dialog).getByText('42 ms')).toBeTruthy();
    expect(within(dialog).getByText('HTTP 200')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/channels/ch1/test')?.body).toEqual({ model: 'fast' });

    answer = { model: 'fast', ok: false, latencyMs: 7, status: 401, error: 'The vendor answered 401: Incorrect API key provided: [redacted]' };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send a test request' }));
    expect(await within(dialog).findByText('The test failed')).toBeTruthy();
    expect(within(dialog).getByText(/Incorrect API key provided/)).toBeTruthy();
    expect(within(dialog).getByText('HTTP 401')).toBeTruthy();
  });

  it('disables a channel, and deletes one only after confirmation', async () => {
    const calls = installPage({ 'POST /api/channels/ch1/disable': [200, { ...channel, status: 'disabled' }], 'DELETE /api/channels/ch1': [200, { id: 'ch1', deleted: true }] });
    renderConsole('/admin/channels');
    await userEvent.click(await screen.findByRole('button', { name: 'Disable channel openai-main' }));
    expect(await screen.findByText('Channel openai-main disabled.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete channel openai-main' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete channel “openai-main”?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/channels/ch1')).toBe(true));
  });

  it('says when there are no channels, and shows the gateway’s error', async () => {
    installPage({ 'GET /api/channels': [200, { data: [] }] });
    const first = renderConsole('/admin/channels');
    expect(await screen.findByText('No channels yet.')).toBeTruthy();
    first.unmount();
    installPage({ 'GET /api/channels': [403, { error: { message: 'admins only', type: 'invalid_request_error', code: 'forbidden' } }] });
    renderConsole('/admin/channels');
    expect(await screen.findByText(/admins only/)).toBeTruthy();
  });
});
