import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi } from '../test/fake-gateway-api';
import { renderConsole } from '../test/render-console';
import { filterGroups } from './filter-groups';
import type { PricedGroup } from './models-types';
import { otherPricesOf } from './other-prices';

const session = { user: { id: 'u1', email: 'ada@example.test', displayName: 'Ada', role: 'user', status: 'active', createdAt: 0 }, isAdmin: false, balance: null };
const tokens = (input: number, output: number) => ({ inputPerMillion: input, outputPerMillion: output, cachedInputPerMillion: input / 2, cacheWritePerMillion: 0 });
const groups: PricedGroup[] = [
  {
    id: 'g1', name: 'premium', description: 'the big models', priceRatioMillionths: 1_500_000,
    models: [
      { id: 'gpt-4o-mini', available: true, ownedBy: 'openai', prices: tokens(225_000, 900_000) },
      { id: 'dall-e-3', available: false, ownedBy: 'openai', prices: { ...tokens(0, 0), imagePrices: { '1024x1024:standard': 60_000, '1024x1024:hd': 120_000 } } },
    ],
  },
  { id: 'g2', name: 'audio', description: '', priceRatioMillionths: 1_000_000, models: [{ id: 'whisper-1', available: true, ownedBy: 'openai', prices: { ...tokens(0, 0), audioPerMinute: 6_000 } }] },
];

afterEach(() => vi.unstubAllGlobals());

describe('the models & prices page', () => {
  it('shows each group with its ratio and its models’ prices after the ratio, availability and image and audio prices', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session], 'GET /api/me/groups': [200, { data: groups }] });
    renderConsole('/models');
    expect(await screen.findByText('Price ratio ×1.5')).toBeTruthy();
    const mini = screen.getByTestId('model-row-g1-gpt-4o-mini');
    expect(within(mini).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['gpt-4o-miniopenai', 'Available', '0.225', '0.1125', '0.00', '0.90', '—']);
    const image = screen.getByTestId('model-row-g1-dall-e-3');
    expect(within(image).getByText('Unavailable')).toBeTruthy();
    expect(within(image).getByText('1024x1024:hd: 0.12 / image')).toBeTruthy();
    expect(within(screen.getByTestId('model-row-g2-whisper-1')).getByText('Audio: 0.006 / minute')).toBeTruthy();
  });

  it('filters models as you type and says when nothing matches', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session], 'GET /api/me/groups': [200, { data: groups }] });
    renderConsole('/models');
    await screen.findByTestId('model-row-g2-whisper-1');
    await userEvent.type(screen.getByLabelText('Search models'), 'DALL');
    expect(screen.getByTestId('model-row-g1-dall-e-3')).toBeTruthy();
    expect(screen.queryByTestId('model-row-g1-gpt-4o-mini')).toBeNull();
    expect(screen.queryByTestId('model-row-g2-whisper-1')).toBeNull();
    await userEvent.clear(screen.getByLabelText('Search models'));
    await userEvent.type(screen.getByLabelText('Search models'), 'nothing-like-this');
    expect(screen.getByText('No model matches “nothing-like-this”.')).toBeTruthy();
  });

  it('says when the caller holds no group, and shows the gateway’s error', async () => {
    installFakeGatewayApi({ 'GET /api/me': [200, session], 'GET /api/me/groups': [200, { data: [] }] });
    const first = renderConsole('/models');
    expect(await screen.findByText('You hold no group yet.')).toBeTruthy();
    first.unmount();
    installFakeGatewayApi({ 'GET /api/me': [200, session], 'GET /api/me/groups': [500, { error: { message: 'catalog unavailable', code: 'server_error' } }] });
    renderConsole('/models');
    expect((await screen.findByRole('alert')).textContent).toContain('catalog unavailable');
  });
});

describe('model filtering and prices', () => {
  it('keeps a whole group whose name matches, and matches the owner', () => {
    expect(filterGroups(groups, 'AUDIO').map((group) => group.models.length)).toEqual([1]);
    expect(filterGroups(groups, 'openai').map((group) => group.name)).toEqual(['premium', 'audio']);
    expect(filterGroups(groups, '  ')).toBe(groups);
  });

  it('lists image prices by variant, then audio and video', () => {
    expect(otherPricesOf({ ...tokens(0, 0), imagePrices: { b: 2, a: 1 }, audioPerMinute: 3, videoPerSecond: 4 })).toEqual([
      { kind: 'image', variant: 'a', amount: 1 }, { kind: 'image', variant: 'b', amount: 2 }, { kind: 'audio', amount: 3 }, { kind: 'video', amount: 4 },
    ]);
  });

  it('reads the groups again when the window regains focus, so a group granted meanwhile shows without a reload', async () => {
    let granted: PricedGroup[] = [];
    const calls = installFakeGatewayApi({ 'GET /api/me': [200, session], 'GET /api/me/groups': () => [200, { data: granted }] });
    renderConsole('/models');
    expect(await screen.findByText('You hold no group yet.')).toBeTruthy();
    granted = groups;
    // Within the cache's 10 s: a focus still reads again.
    window.dispatchEvent(new Event('visibilitychange'));
    expect(await screen.findByText('Price ratio ×1.5')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/me/groups')).toHaveLength(2);
  });
});

