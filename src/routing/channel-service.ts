import type { ChannelProtocol } from '../core/channel-protocol.js';
import { GatewayError } from '../core/gateway-error.js';
import type { AuditRepository } from '../storage/kysely-audit-repository.js';
import type { ChannelRepository } from '../storage/kysely-channel-repository.js';
import type { ChannelChanges, ChannelRecord } from '../storage/store-records.js';
import type { ChannelSecretDecrypter } from './channel-secret-decrypter.js';
import { requireSecretForNewOrigin } from './require-secret-for-new-origin.js';
import { requireAdministratorActor, type ServiceActor } from './service-actor.js';
import { findVendorPreset } from './vendor-presets.js';

/** What the channel service seals secrets with (accounts/secret-box.ts satisfies it). */
export interface ChannelSecretSealer extends ChannelSecretDecrypter {
  /** the sealed form of a plain secret, as stored in `encryptedSecret` */
  encrypt(plain: string): string;
}

/** A channel to probe, with its secret opened; the secret never reaches the answer. */
export interface ChannelProbeTarget {
  id: string;
  name: string;
  protocol: string;
  /** base URL without a trailing slash */
  baseUrl: string;
  /** the opened secret */
  secret: string;
  settings: Readonly<Record<string, string>>;
  /** public model id -> upstream model id */
  modelMapping: Readonly<Record<string, string>>;
}

/** One probe's result: whether the vendor answered 2xx, in how many milliseconds, and a redacted error. */
export interface ChannelProbeOutcome {
  ok: boolean;
  /** milliseconds from sending to the end of the vendor's answer */
  latencyMs: number;
  /** the vendor's HTTP status, or null when it could not be reached */
  status: number | null;
  /** what went wrong, without the secret; absent on success */
  error?: string;
}

/** What the channel service needs: the narrowest stores and hooks, so the /api and the CLI build it alike. */
export interface ChannelServiceDependencies {
  channels: ChannelRepository;
  audit: Pick<AuditRepository, 'recordAuditEntry'>;
  secretBox: ChannelSecretSealer;
  /** runs a routing write after this node's in-flight billing writes (billing's writer lock); the CLI runs it at once */
  exclusive<Result>(work: () => Promise<Result>): Promise<Result>;
  /** reloads this node's routing table after a change; the CLI has none (gateways see the revision bump) */
  refreshRouting(): Promise<void>;
  /** sends one test request to a channel; absent where no vendor may be reached (the CLI) */
  probe?: (target: ChannelProbeTarget, model: string) => Promise<ChannelProbeOutcome>;
}

/** A new channel as an administrator describes it: a preset gives the protocol and base URL unless these are given. */
export interface ChannelCreation {
  name: string;
  preset?: string | undefined;
  protocol?: ChannelProtocol | undefined;
  baseUrl?: string | undefined;
  /** the vendor's API key; write-only */
  secret: string;
  models: string[];
  modelMapping?: Record<string, string> | undefined;
  settings?: Record<string, string> | undefined;
  priority?: number | undefined;
  weight?: number | undefined;
  status?: ChannelRecord['status'] | undefined;
}

/** What an administrator changes on a channel; `preset: null` makes it a custom one. */
export interface ChannelUpdate {
  name?: string | undefined;
  protocol?: ChannelProtocol | undefined;
  preset?: string | null | undefined;
  baseUrl?: string | undefined;
  secret?: string | undefined;
  models?: string[] | undefined;
  modelMapping?: Record<string, string> | undefined;
  settings?: Record<string, string> | undefined;
  priority?: number | undefined;
  weight?: number | undefined;
}

/** A channel test's answer: the model tried and the probe's outcome. */
export type ChannelTestResult = ChannelProbeOutcome & { model: string };

/** The channel rules, once, for the /api routes and the `gateway channel` commands. */
export interface ChannelService {
  listChannels(actor: ServiceActor): Promise<ChannelRecord[]>;
  /** 404 `not_found` for an unknown id */
  showChannel(actor: ServiceActor, channelId: string): Promise<ChannelRecord>;
  /** 404 `not_found` for an unknown name */
  findChannelByName(actor: ServiceActor, name: string): Promise<ChannelRecord>;
  createChannel(actor: ServiceActor, creation: ChannelCreation): Promise<ChannelRecord>;
  updateChannel(actor: ServiceActor, channelId: string, update: ChannelUpdate): Promise<ChannelRecord>;
  setChannelStatus(actor: ServiceActor, channelId: string, status: ChannelRecord['status']): Promise<ChannelRecord>;
  deleteChannel(actor: ServiceActor, channelId: string): Promise<ChannelRecord>;
  /** one request to the vendor for `model` (default: the channel's first model) */
  testChannel(actor: ServiceActor, channelId: string, model?: string): Promise<ChannelTestResult>;
}

/**
 * Channels for administrators only (403 otherwise): unique names, a preset's protocol and base URL, an http(s) base
 * URL, a write-only secret sealed before it is stored, a base URL on another origin only with the secret again
 * (`requireSecretForNewOrigin`), and every change reloaded into routing and audit-logged with the actor, never the
 * secret.
 */
export function createChannelService(dependencies: ChannelServiceDependencies): ChannelService {
  const { channels, audit, secretBox } = dependencies;

  async function findChannel(channelId: string): Promise<ChannelRecord> {
    const channel = (await channels.listChannels()).find((candidate) => candidate.id === channelId);
    if (!channel) throw new GatewayError('not_found', 'No such channel.');
    return channel;
  }

  async function requireFreeName(name: string, exceptChannelId?: string): Promise<void> {
    const existing = await channels.findChannelByName(name);
    if (existing && existing.id !== exceptChannelId)
      throw new GatewayError('invalid_request_error', `A channel named ${name} exists already.`, { param: 'name' });
  }

  async function record(
    actor: ServiceActor,
    action: 'create' | 'update' | 'enable' | 'disable' | 'delete' | 'test',
    channelId: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    await audit.recordAuditEntry({
      ...actor.audit,
      action: `channel.${action}`,
      targetType: 'channel',
      targetId: channelId,
      details,
    });
  }

  async function write(work: () => Promise<unknown>): Promise<void> {
    await dependencies.exclusive(work);
    await dependencies.refreshRouting();
  }

  return {
    async listChannels(actor) {
      requireAdministratorActor(actor);
      return channels.listChannels();
    },

    async showChannel(actor, channelId) {
      requireAdministratorActor(actor);
      return findChannel(channelId);
    },

    async findChannelByName(actor, name) {
      requireAdministratorActor(actor);
      const channel = await channels.findChannelByName(name);
      if (!channel) throw new GatewayError('not_found', `No channel named ${name}.`);
      return channel;
    },

    async createChannel(actor, creation) {
      requireAdministratorActor(actor);
      const preset = creation.preset === undefined ? undefined : findVendorPreset(creation.preset);
      if (creation.preset !== undefined && !preset)
        throw new GatewayError('invalid_request_error', `Unknown preset ${creation.preset}.`, { param: 'preset' });
      const givenBaseUrl = creation.baseUrl ?? preset?.baseUrl;
      if (!givenBaseUrl)
        throw new GatewayError('invalid_request_error', 'Give baseUrl or a preset.', { param: 'baseUrl' });
      const baseUrl = normaliseChannelBaseUrl(givenBaseUrl);
      await requireFreeName(creation.name);
      const { secret, ...described } = creation;
      let created: ChannelRecord | undefined;
      await write(async () => {
        created = await channels.createChannel({
          name: creation.name,
          protocol: creation.protocol ?? preset?.protocol ?? 'openai',
          preset: preset?.name ?? null,
          baseUrl,
          encryptedSecret: secretBox.encrypt(secret),
          models: creation.models,
          modelMapping: creation.modelMapping ?? {},
          settings: creation.settings ?? {},
          priority: creation.priority ?? 0,
          weight: creation.weight ?? 1,
          status: creation.status ?? 'enabled',
        });
      });
      if (!created) throw new Error('The channel store returned no channel.');
      await record(actor, 'create', created.id, { ...described, baseUrl, protocol: created.protocol });
      return created;
    },

    async updateChannel(actor, channelId, update) {
      requireAdministratorActor(actor);
      const channel = await findChannel(channelId);
      if (update.name !== undefined) await requireFreeName(update.name, channel.id);
      if (update.preset !== undefined && update.preset !== null && !findVendorPreset(update.preset))
        throw new GatewayError('invalid_request_error', `Unknown preset ${update.preset}.`, { param: 'preset' });
      const baseUrl = update.baseUrl === undefined ? undefined : normaliseChannelBaseUrl(update.baseUrl);
      requireSecretForNewOrigin(channel.baseUrl, baseUrl, update.secret !== undefined);
      const { secret, ...described } = update;
      const changes: ChannelChanges = withoutUndefined({ ...described, baseUrl });
      if (secret !== undefined) changes.encryptedSecret = secretBox.encrypt(secret);
      await write(() => channels.updateChannel(channel.id, changes));
      // The audit entry says that the secret changed, never what it is.
      await record(actor, 'update', channel.id, {
        ...withoutUndefined({ ...described, baseUrl }),
        ...(secret === undefined ? {} : { secretChanged: true }),
      });
      return findChannel(channel.id);
    },

    async setChannelStatus(actor, channelId, status) {
      requireAdministratorActor(actor);
      const channel = await findChannel(channelId);
      await write(() => channels.updateChannel(channel.id, { status }));
      await record(actor, status === 'enabled' ? 'enable' : 'disable', channel.id, { name: channel.name });
      return findChannel(channel.id);
    },

    async deleteChannel(actor, channelId) {
      requireAdministratorActor(actor);
      const channel = await findChannel(channelId);
      await write(() => channels.deleteChannel(channel.id));
      await record(actor, 'delete', channel.id, { name: channel.name });
      return channel;
    },

    async testChannel(actor, channelId, requestedModel) {
      requireAdministratorActor(actor);
      const channel = await findChannel(channelId);
      const model = requestedModel ?? channel.models[0];
      if (model === undefined)
        throw new GatewayError('invalid_request_error', 'The channel serves no model; name one to test.', {
          param: 'model',
        });
      if (!dependencies.probe)
        throw new GatewayError(
          'service_unavailable',
          'Channel tests run in the gateway: use POST /api/channels/:id/test.',
        );
      let secret: string;
      try {
        secret = secretBox.decrypt(channel.encryptedSecret);
      } catch {
        return {
          model,
          ok: false,
          latencyMs: 0,
          status: null,
          error: "The channel's stored secret does not decrypt with this gateway's secret key; set it again.",
        };
      }
      const outcome = await dependencies.probe(
        {
          id: channel.id,
          name: channel.name,
          protocol: channel.protocol,
          baseUrl: channel.baseUrl,
          secret,
          settings: channel.settings,
          modelMapping: channel.modelMapping,
        },
        model,
      );
      await record(actor, 'test', channel.id, { model, ok: outcome.ok, status: outcome.status });
      return { model, ...outcome };
    },
  };
}

/** An http(s) base URL without its trailing slashes; 400 on `baseUrl` otherwise. */
function normaliseChannelBaseUrl(value: string): string {
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol))
    throw new GatewayError('invalid_request_error', 'baseUrl must be an http(s) URL.', { param: 'baseUrl' });
  return new URL(value).toString().replace(/\/+$/, '');
}

function withoutUndefined<Fields extends Record<string, unknown>>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Fields>;
}
