import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountActorOfCommandLine, type AccountActor } from '../accounts/account-actor.js';
import { auditActorOfCaller } from '../accounts/audit-actor.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { createChannelService, type ChannelProbeTarget, type ChannelService } from './channel-service.js';

// A reversible stand-in for the secret box, so the test can see what was sealed.
const secretBox = {
  encrypt: (plain: string) => `sealed:${plain}`,
  decrypt: (sealed: string) => sealed.replace(/^sealed:/, ''),
};
const adminTokenActor: AccountActor = {
  user: undefined,
  isAdmin: true,
  audit: auditActorOfCaller({ user: undefined, adminToken: { id: 'adt_1', name: 'deploy' } }),
};
const cliActor = accountActorOfCommandLine('operator');
const userActor: AccountActor = {
  user: undefined,
  isAdmin: false,
  audit: { actorUserId: 'usr_1', actorLabel: 'ada@example.com', actorKind: 'user', actorId: null },
};

describe('createChannelService', () => {
  let store: GatewayStore;
  let service: ChannelService;
  let refreshes: number;
  let probed: ChannelProbeTarget[];

  beforeEach(async () => {
    store = createGatewayStore({ databaseUrl: 'sqlite::memory:' });
    await store.migrate();
    refreshes = 0;
    probed = [];
    service = createChannelService({
      channels: store,
      audit: store,
      secretBox,
      exclusive: (work) => work(),
      refreshRouting: async () => {
        refreshes += 1;
      },
      probe: async (target) => {
        probed.push(target);
        return { ok: true, latencyMs: 3, status: 200 };
      },
    });
  });

  afterEach(async () => {
    await store.close();
  });

  const create = (actor: AccountActor = adminTokenActor) =>
    service.createChannel(actor, {
      name: 'main',
      baseUrl: 'https://api.example.com/v1/',
      secret: 'sk-first',
      models: ['gpt-4o'],
    });

  it('lets only administrators read or change channels', async () => {
    await expect(create(userActor)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(service.listChannels(userActor)).rejects.toMatchObject({ code: 'forbidden' });
    const channel = await create();
    await expect(service.setChannelStatus(userActor, channel.id, 'disabled')).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(service.testChannel(userActor, channel.id)).rejects.toMatchObject({ code: 'forbidden' });
    expect((await store.listChannels()).map((entry) => entry.status)).toEqual(['enabled']);
  });

  it('seals the secret, trims the base URL, refuses a second channel of the same name and reloads routing', async () => {
    const channel = await create();
    expect(channel.baseUrl).toBe('https://api.example.com/v1');
    expect(channel.encryptedSecret).toBe('sealed:sk-first');
    expect(refreshes).toBe(1);
    await expect(create()).rejects.toMatchObject({ code: 'invalid_request_error', param: 'name' });
    await expect(
      service.createChannel(adminTokenActor, { name: 'x', baseUrl: 'ftp://host', secret: 's', models: ['m'] }),
    ).rejects.toMatchObject({ param: 'baseUrl' });
  });

  it('needs the secret again when the base URL moves to another origin, not for a new path', async () => {
    const channel = await create();
    await expect(
      service.updateChannel(adminTokenActor, channel.id, { baseUrl: 'https://evil.example/v1' }),
    ).rejects.toMatchObject({ param: 'secret' });
    expect((await service.showChannel(adminTokenActor, channel.id)).baseUrl).toBe('https://api.example.com/v1');
    const moved = await service.updateChannel(adminTokenActor, channel.id, { baseUrl: 'https://api.example.com/v2' });
    expect(moved.baseUrl).toBe('https://api.example.com/v2');
    const rekeyed = await service.updateChannel(adminTokenActor, channel.id, {
      baseUrl: 'https://other.example/v1',
      secret: 'sk-second',
    });
    expect(rekeyed.encryptedSecret).toBe('sealed:sk-second');
  });

  it('audits every change with the admin token id and name, or the CLI user, and never the secret', async () => {
    const channel = await create(adminTokenActor);
    await service.updateChannel(cliActor, channel.id, { secret: 'sk-rotated' });
    await service.setChannelStatus(cliActor, channel.id, 'disabled');
    await service.testChannel(adminTokenActor, channel.id);
    await service.deleteChannel(cliActor, channel.id);
    const entries = (await store.listAuditEntries({ targetId: channel.id, limit: 10 })).reverse();
    expect(entries.map((entry) => [entry.action, entry.actorKind, entry.actorId, entry.actorLabel])).toEqual([
      ['channel.create', 'admin_token', 'adt_1', 'admin token deploy'],
      ['channel.update', 'cli', 'operator', 'cli operator'],
      ['channel.disable', 'cli', 'operator', 'cli operator'],
      ['channel.test', 'admin_token', 'adt_1', 'admin token deploy'],
      ['channel.delete', 'cli', 'operator', 'cli operator'],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/sk-first|sk-rotated/);
    expect(entries[1]?.details).toEqual({ secretChanged: true });
  });

  it('probes with the opened secret and the first model when none is named', async () => {
    const channel = await create();
    expect(await service.testChannel(adminTokenActor, channel.id)).toEqual({
      model: 'gpt-4o',
      ok: true,
      latencyMs: 3,
      status: 200,
    });
    expect(probed.map((target) => target.secret)).toEqual(['sk-first']);
    await expect(service.testChannel(adminTokenActor, 'chn_missing')).rejects.toMatchObject({ code: 'not_found' });
  });
});
