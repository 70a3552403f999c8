import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../accounts/secret-box.js';
import type { ChannelRecord, RoutingSnapshotRecords } from '../storage/store-records.js';
import { createModelCatalog } from './model-catalog.js';
import { RoutingTable } from './routing-table.js';

const secretBox = createSecretBox('test');

function channelRecord(overrides: Partial<ChannelRecord>): ChannelRecord {
  return {
    id: 'chn_a',
    name: 'a',
    protocol: 'openai',
    preset: 'openai',
    baseUrl: 'http://127.0.0.1:1/v1/',
    encryptedSecret: secretBox.encrypt('upstream-secret'),
    models: ['gpt-4o'],
    modelMapping: {},
    settings: {},
    priority: 0,
    weight: 1,
    status: 'enabled',
    createdAt: 1_700_000_000_000,
    updatedAt: 0,
    ...overrides,
  };
}

function snapshot(overrides: Partial<RoutingSnapshotRecords> = {}): RoutingSnapshotRecords {
  return {
    revision: 7,
    catalogEntries: [],
    users: [
      {
        id: 'usr_1',
        email: 'a@example.com',
        displayName: 'a',
        role: 'user',
        passwordHash: null,
        status: 'active',
        createdAt: 0,
      },
      {
        id: 'usr_2',
        email: 'b@example.com',
        displayName: 'b',
        role: 'user',
        passwordHash: null,
        status: 'disabled',
        createdAt: 0,
      },
    ],
    groups: [
      { id: 'grp_all', name: 'all', description: '', models: ['*'], createdAt: 0 },
      { id: 'grp_small', name: 'small', description: '', models: ['gpt-4o-mini'], createdAt: 0 },
    ],
    channels: [
      channelRecord({
        models: ['gpt-4o', 'gpt-4o-mini', 'vendor/custom-model'],
        modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      }),
      channelRecord({ id: 'chn_b', name: 'b', priority: 5, models: ['gpt-4o'] }),
      channelRecord({ id: 'chn_off', name: 'off', status: 'disabled', models: ['dall-e-3'] }),
    ],
    apiKeys: [
      {
        id: 'key_all',
        userId: 'usr_1',
        groupId: 'grp_all',
        name: '',
        keyHash: 'hash-all',
        keyPrefix: '',
        status: 'active',
        disabledBy: null,
        expiresAt: null,
        createdAt: 0,
      },
      {
        id: 'key_small',
        userId: 'usr_1',
        groupId: 'grp_small',
        name: '',
        keyHash: 'hash-small',
        keyPrefix: '',
        status: 'active',
        disabledBy: null,
        expiresAt: null,
        createdAt: 0,
      },
      {
        id: 'key_disabled',
        userId: 'usr_1',
        groupId: 'grp_all',
        name: '',
        keyHash: 'hash-disabled',
        keyPrefix: '',
        status: 'disabled',
        disabledBy: 'owner',
        expiresAt: null,
        createdAt: 0,
      },
      {
        id: 'key_of_disabled_user',
        userId: 'usr_2',
        groupId: 'grp_all',
        name: '',
        keyHash: 'hash-user-off',
        keyPrefix: '',
        status: 'active',
        disabledBy: null,
        expiresAt: null,
        createdAt: 0,
      },
    ],
    userGroups: [
      { userId: 'usr_1', groupId: 'grp_all', createdAt: 0 },
      { userId: 'usr_1', groupId: 'grp_small', createdAt: 0 },
      { userId: 'usr_2', groupId: 'grp_all', createdAt: 0 },
    ],
    ...overrides,
  };
}

describe('RoutingTable', () => {
  const table = new RoutingTable(snapshot(), createModelCatalog(), secretBox);

  it('knows only active keys of active users', () => {
    expect(table.findPrincipal('hash-all')?.groupName).toBe('all');
    expect(table.findPrincipal('hash-disabled')).toBeUndefined();
    expect(table.findPrincipal('hash-user-off')).toBeUndefined();
    expect(table.findPrincipal('unknown')).toBeUndefined();
  });

  it('lists every served model for a wildcard group and only its own for others', () => {
    const all = table.findPrincipal('hash-all');
    const small = table.findPrincipal('hash-small');
    if (!all || !small) throw new Error('principals missing');
    expect(table.listModelsFor(all).map((model) => model.id)).toEqual(['gpt-4o', 'gpt-4o-mini', 'vendor/custom-model']);
    expect(table.listModelsFor(small).map((model) => model.id)).toEqual(['gpt-4o-mini']);
    expect(table.findModelFor(small, 'gpt-4o')).toBeUndefined();
  });

  it('does not serve models of disabled channels', () => {
    const all = table.findPrincipal('hash-all');
    if (!all) throw new Error('principal missing');
    expect(table.findModelFor(all, 'dall-e-3')).toBeUndefined();
  });

  it('describes uncatalogued models with the channel vendor and creation time', () => {
    const all = table.findPrincipal('hash-all');
    if (!all) throw new Error('principal missing');
    expect(table.findModelFor(all, 'vendor/custom-model')).toMatchObject({
      ownedBy: 'openai',
      created: 1_700_000_000,
      kind: 'any',
    });
  });

  it('orders channels by priority, decrypts secrets and keeps mappings', () => {
    const channels = table.channelsFor('gpt-4o');
    expect(channels.map((channel) => channel.name)).toEqual(['b', 'a']);
    expect(channels[1]?.secret).toBe('upstream-secret');
    expect(channels[1]?.baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(channels[1]?.modelMapping.get('gpt-4o')).toBe('gpt-4o-2024-08-06');
  });

  it('keeps the limits of each catalog model a channel maps a public id to, for fitting requests to it', () => {
    const mapped = new RoutingTable(
      snapshot({
        channels: [
          channelRecord({
            models: ['claude-sonnet-4-5', 'my-model'],
            modelMapping: { 'claude-sonnet-4-5': 'gpt-4o', 'my-model': 'in-house' },
          }),
        ],
      }),
      createModelCatalog(),
      secretBox,
    );
    const limits = mapped.channelsFor('claude-sonnet-4-5')[0]?.upstreamModelLimits;
    expect(limits?.get('claude-sonnet-4-5')).toEqual({ maxOutputTokens: 16_384, reasoning: false });
    // A name the catalog does not know: the public model's own entry is used.
    expect(limits?.has('my-model')).toBe(false);
  });
});

describe('RoutingTable entitlements', () => {
  it("leaves out a key whose user no longer holds the key's group, and keeps the user's other keys", () => {
    const withdrawn = new RoutingTable(
      snapshot({ userGroups: [{ userId: 'usr_1', groupId: 'grp_all', createdAt: 0 }] }),
      createModelCatalog(),
      secretBox,
    );
    expect(withdrawn.findPrincipal('hash-small')).toBeUndefined();
    expect(withdrawn.findPrincipal('hash-all')?.groupName).toBe('all');
  });
});

describe('RoutingTable with a channel whose secret cannot be decrypted', () => {
  const otherKeyBox = createSecretBox('another gateway secret key');
  const records = snapshot({
    channels: [
      channelRecord({
        id: 'chn_bad',
        name: 'bad',
        encryptedSecret: otherKeyBox.encrypt('foreign-secret'),
        models: ['gpt-4o', 'o3'],
      }),
      channelRecord({ id: 'chn_garbage', name: 'garbage', encryptedSecret: 'not a sealed secret', models: ['o3'] }),
      channelRecord({ id: 'chn_good', name: 'good', models: ['gpt-4o'] }),
    ],
  });

  it('builds the table, treating that channel as disabled, and names it without its secret', () => {
    const table = new RoutingTable(records, createModelCatalog(), secretBox);
    expect(table.channelsFor('gpt-4o').map((channel) => channel.name)).toEqual(['good']);
    expect(table.channelsFor('o3')).toEqual([]);
    expect(table.undecryptableChannels).toEqual([
      { id: 'chn_bad', name: 'bad' },
      { id: 'chn_garbage', name: 'garbage' },
    ]);
    expect(JSON.stringify(table.undecryptableChannels)).not.toContain('foreign-secret');
    const all = table.findPrincipal('hash-all');
    if (!all) throw new Error('principal missing');
    expect(table.findModelFor(all, 'gpt-4o')).toBeDefined();
    expect(table.findModelFor(all, 'o3')).toBeUndefined();
  });
});

describe('RoutingTable with a stored channel whose protocol the gateway does not speak', () => {
  const records = snapshot({
    channels: [
      channelRecord({ id: 'chn_typo', name: 'typo', protocol: 'open-ai', models: ['gpt-4o', 'o3'] }),
      channelRecord({ id: 'chn_good', name: 'good', models: ['gpt-4o'] }),
    ],
  });

  it('leaves it out of routing and names it, so dispatch only ever sees a known protocol', () => {
    const table = new RoutingTable(records, createModelCatalog(), secretBox);
    expect(table.channelsFor('gpt-4o').map((channel) => [channel.name, channel.protocol])).toEqual([
      ['good', 'openai'],
    ]);
    expect(table.channelsFor('o3')).toEqual([]);
    expect(table.unknownProtocolChannels).toEqual([{ id: 'chn_typo', name: 'typo' }]);
    expect(table.undecryptableChannels).toEqual([]);
  });
});
