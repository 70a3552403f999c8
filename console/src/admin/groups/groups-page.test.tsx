import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import { readCatalogForm, catalogFormValuesOf } from './catalog-form-values';
import { formatRatio } from './format-ratio';
import type { CatalogEntry, ModelGroup, ModelPrice } from './groups-types';
import { parsePriceRatio } from './parse-price-ratio';
import { readPriceForm } from './price-form-values';

const admin = { user: { id: 'a1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const group: ModelGroup = { id: 'g1', name: 'default', description: 'everyday models', models: ['*'], priceRatioMillionths: 1_000_000, createdAt: 0 };
const price: ModelPrice = { modelId: 'gpt-4o-mini', inputPerMillion: 150_000, cachedInputPerMillion: 75_000, cacheWritePerMillion: 150_000, outputPerMillion: 600_000, imagePrices: {}, audioPerMinute: 0, videoPerSecond: 0 };
const entry: CatalogEntry = { modelId: 'house-model', fields: { ownedBy: 'us', kind: 'chat', contextWindow: 8192, aliases: ['house'] }, updatedAt: Date.UTC(2026, 0, 2) };

function installPage(extra: FakeRoutes = {}) {
  return installFakeGatewayApi({
    'GET /api/me': [200, admin],
    'GET /api/groups': [200, { data: [group] }],
    'GET /api/prices': [200, { data: [price, { ...price, modelId: 'claude-sonnet-4' }] }],
    'GET /api/catalog/entries': [200, { data: [entry] }],
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('ratio, price and catalog form values', () => {
  it('reads ratios and prices exactly into millionths and micro-units', () => {
    expect(parsePriceRatio('1.5')).toBe(1_500_000);
    expect(parsePriceRatio('0.000001')).toBe(1);
    expect(parsePriceRatio('1.2.3')).toBeNull();
    expect(parsePriceRatio('1001')).toBeNull();
    expect(formatRatio(1_500_000)).toBe('×1.50');
    expect(formatRatio(1_234_500)).toBe('×1.2345');
    expect(readPriceForm({ input: '0.15', output: '0.6', cachedInput: '', cacheWrite: '' })).toEqual({ body: { inputPerMillion: 150_000, outputPerMillion: 600_000 } });
    expect(readPriceForm({ input: '2.5', output: '10', cachedInput: '1.25', cacheWrite: '0.1' })).toEqual({ body: { inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, cachedInputPerMillion: 1_250_000, cacheWritePerMillion: 100_000 } });
    expect(readPriceForm({ input: '', output: 'x', cachedInput: '-1', cacheWrite: '' })).toEqual({ errors: { input: true, output: true, cachedInput: true } });
    expect(readPriceForm({ input: '3', output: '15', cachedInput: '', cacheWrite: '3.75', cacheWriteOneHour: '6' })).toEqual({ body: { inputPerMillion: 3_000_000, outputPerMillion: 15_000_000, cacheWritePerMillion: 3_750_000, cacheWriteOneHourPerMillion: 6_000_000 } });
  });

  it('keeps a catalog entry’s other fields, drops emptied ones and wants both default prices', () => {
    const values = { ...catalogFormValuesOf('house-model', entry.fields), contextWindow: '', maxOutputTokens: '4096', input: '1', output: '2.5' };
    expect(readCatalogForm(values, entry.fields)).toEqual({ fields: { ownedBy: 'us', kind: 'chat', aliases: ['house'], maxOutputTokens: 4096, defaultPrices: { inputPerMillion: 1_000_000, outputPerMillion: 2_500_000 } } });
    expect(readCatalogForm({ ...values, output: '', contextWindow: '1.5' }, entry.fields)).toEqual({ errors: { output: true, contextWindow: true } });
  });
});

describe('the Groups & prices page', () => {
  it('shows groups with their ratio, the prices in force and the catalog entries', async () => {
    installPage();
    renderConsole('/admin/groups');
    const row = await screen.findByTestId('group-row-default');
    expect(within(row).getByText('×1.00')).toBeTruthy();
    expect(within(row).getByText('every model (*)')).toBeTruthy();
    const priceRow = await screen.findByTestId('price-row-gpt-4o-mini');
    expect(within(priceRow).getAllByText('0.15')).toHaveLength(2);
    expect(within(priceRow).getByText('0.60')).toBeTruthy();
    expect(within(await screen.findByTestId('catalog-row-house-model')).getByText('8,192')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Search models'), 'claude');
    expect(screen.queryByTestId('price-row-gpt-4o-mini')).toBeNull();
    expect(screen.getByTestId('price-row-claude-sonnet-4')).toBeTruthy();
  });

  it('sends a typed ratio as exact millionths, and refuses one that is not a ratio', async () => {
    const calls = installPage({ 'PUT /api/groups/g1/price-ratio': [200, { groupId: 'g1', priceRatioMillionths: 1_500_000 }] });
    renderConsole('/admin/groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Change the price ratio of default' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Price ratio');
    await userEvent.clear(input);
    await userEvent.type(input, '1.5x');
    expect(within(dialog).getByText(/Enter a ratio such as/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(input, '{backspace}');
    expect(within(dialog).getByText('Prices will be multiplied by ×1.50.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/groups/g1/price-ratio', body: { priceRatioMillionths: 1_500_000 } }));
    expect(await screen.findByText('default now costs ×1.50.')).toBeTruthy();
  });

  it('creates a group with its models, and shows the gateway’s refusal', async () => {
    const calls = installPage({ 'POST /api/groups': [400, { error: { message: 'A group named default exists already.', type: 'invalid_request_error', param: 'name' } }] });
    renderConsole('/admin/groups');
    await userEvent.click(await screen.findByRole('button', { name: 'New group' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(within(dialog).getByText('Give the group a name.')).toBeTruthy();
    expect(within(dialog).getByText('List at least one model (or *).')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'default');
    await userEvent.type(within(dialog).getByLabelText(/^Models/), 'gpt-4o-mini, claude-sonnet-4\ngpt-4o-mini');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'default', description: '', models: ['gpt-4o-mini', 'claude-sonnet-4'] }));
    expect(await screen.findByText('A group named default exists already.')).toBeTruthy();
  });

  it('sets a price override in micro-units and resets one only after confirmation', async () => {
    const calls = installPage({ 'PUT /api/prices/gpt-4o-mini': [200, price], 'DELETE /api/prices/claude-sonnet-4': [200, { modelId: 'claude-sonnet-4' }] });
    renderConsole('/admin/groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Set the price of gpt-4o-mini' }));
    const dialog = await screen.findByRole('dialog');
    const output = within(dialog).getByLabelText(/^Output per 1M/);
    await userEvent.clear(output);
    await userEvent.type(output, '1.2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/prices/gpt-4o-mini', body: { inputPerMillion: 150_000, outputPerMillion: 1_200_000, cachedInputPerMillion: 75_000, cacheWritePerMillion: 150_000 } }));

    await userEvent.click(screen.getByRole('button', { name: 'Reset the price of claude-sonnet-4' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset the price of claude-sonnet-4?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reset to the catalog price' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/prices/claude-sonnet-4')).toBe(true));
  });

  it('adds a catalog entry and shows an error state when the groups do not load', async () => {
    const calls = installPage({ 'GET /api/groups': [403, { error: { message: 'database is down', type: 'invalid_request_error', code: 'forbidden' } }], 'PUT /api/catalog/new-model': [200, { entry: {} }] });
    renderConsole('/admin/groups');
    expect(await screen.findByText(/database is down/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add catalog entry' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/^Model id/), 'new-model');
    await userEvent.type(within(dialog).getByLabelText(/^Owned by/), 'acme');
    await userEvent.type(within(dialog).getByLabelText(/^Context window/), '128000');
    await userEvent.type(within(dialog).getByLabelText(/^Default input price/), '0.5');
    await userEvent.type(within(dialog).getByLabelText(/^Default output price/), '1.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/catalog/new-model', body: { ownedBy: 'acme', contextWindow: 128_000, defaultPrices: { inputPerMillion: 500_000, outputPerMillion: 1_500_000 } } }));
  });
});
