import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSecretBox, resolveSecretPassphrase } from '../../accounts/secret-box.js';
import { GatewayError } from '../../core/gateway-error.js';
import { requireSecretForNewOrigin } from '../../routing/require-secret-for-new-origin.js';
import { findVendorPreset, vendorPresets } from '../../routing/vendor-presets.js';
import type { ChannelChanges, ChannelRecord } from '../../storage/store-records.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentChannel } from '../api/present-channel.js';
import { presentChannelHealth } from '../api/present-channel-health.js';
import { probeChannel } from '../api/probe-channel.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import type { ApiRouteContext } from './api-routes.js';
import { channelProtocols } from '../../core/channel-protocol.js';

// A probe waits at most this long for the vendor (or the configured upstream timeout, if shorter).
const longestProbeWaitMs = 30_000;

const baseUrlSchema = z
  .string()
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), {
    message: 'must be an http(s) URL',
  })
  .transform((value) => new URL(value).toString().replace(/\/+$/, ''));
const presetSchema = z.string().refine((value) => findVendorPreset(value) !== undefined, {
  message: `must be one of ${vendorPresets.map((preset) => preset.name).join(', ')}`,
});
const channelFields = {
  name: z.string().trim().min(1).max(100),
  protocol: z.enum(channelProtocols),
  baseUrl: baseUrlSchema,
  /** the vendor's API key (for Bedrock `<access key id>:<secret access key>`); write-only */
  secret: z.string().min(1).max(4096),
  /** public model ids the channel serves */
  models: z.array(z.string().min(1).max(200)).min(1).max(1000),
  /** public model id -> model id sent upstream */
  modelMapping: z.record(z.string().min(1), z.string().min(1)),
  /** protocol settings (`apiVersion`, `region`, `premiumFields`, ...), as `gateway channel create --setting` */
  settings: z.record(z.string().min(1), z.string()),
  /** higher is tried first */
  priority: z.number().int(),
  /** share of traffic among channels of equal priority; 0 only as a fallback */
  weight: z.number().int().min(0),
};
const createChannelSchema = z.object({
  ...channelFields,
  protocol: channelFields.protocol.optional(),
  preset: presetSchema.optional(),
  baseUrl: baseUrlSchema.optional(),
  modelMapping: channelFields.modelMapping.default({}),
  settings: channelFields.settings.default({}),
  priority: channelFields.priority.default(0),
  weight: channelFields.weight.default(1),
  status: z.enum(['enabled', 'disabled']).default('enabled'),
});
const updateChannelSchema = z.object({
  name: channelFields.name.optional(),
  protocol: channelFields.protocol.optional(),
  /** null makes the channel a custom one */
  preset: presetSchema.nullable().optional(),
  baseUrl: baseUrlSchema.optional(),
  secret: channelFields.secret.optional(),
  models: channelFields.models.optional(),
  modelMapping: channelFields.modelMapping.optional(),
  settings: channelFields.settings.optional(),
  priority: channelFields.priority.optional(),
  weight: channelFields.weight.optional(),
});
const probeSchema = z.object({ model: z.string().min(1).optional() });

/**
 * Channels over HTTP for administrators: list (never the secret), create with the CLI's rules (a preset gives the
 * protocol and base URL), edit (a base URL on another origin needs the secret again), enable, disable, delete, and a
 * one-request test against the vendor. Every change bumps the routing revision (the store does), reaches this node at
 * once and is audit-logged without the secret.
 * The list and a channel's detail carry `health`: this node's circuit breaker per model (state, failures, retry time).
 */
export function registerApiChannelRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;
  const secretBox = createSecretBox(resolveSecretPassphrase(services.config));

  async function findChannel(channelId: string): Promise<ChannelRecord> {
    const channel = (await gatewayStore.listChannels()).find((candidate) => candidate.id === channelId);
    if (!channel) throw new GatewayError('not_found', 'No such channel.');
    return channel;
  }

  async function requireFreeName(name: string, exceptChannelId?: string): Promise<void> {
    const existing = await gatewayStore.findChannelByName(name);
    if (existing && existing.id !== exceptChannelId)
      throw new GatewayError('invalid_request_error', `A channel named ${name} exists already.`, { param: 'name' });
  }

  app.get('/channels', async (request) => {
    requireAdmin(request.apiCaller);
    return {
      data: (await gatewayStore.listChannels()).map((channel) => ({
        ...presentChannel(channel, secretBox),
        health: presentChannelHealth(services.channelHealth, channel.id),
      })),
    };
  });

  app.get<{ Params: { channelId: string } }>('/channels/:channelId', async (request) => {
    requireAdmin(request.apiCaller);
    const channel = await findChannel(request.params.channelId);
    return { ...presentChannel(channel, secretBox), health: presentChannelHealth(services.channelHealth, channel.id) };
  });

  app.post('/channels', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const input = parseApiInput(createChannelSchema, request.body);
    const preset = input.preset === undefined ? undefined : findVendorPreset(input.preset);
    const baseUrl = input.baseUrl ?? preset?.baseUrl;
    if (!baseUrl) throw new GatewayError('invalid_request_error', 'Give baseUrl or a preset.', { param: 'baseUrl' });
    await requireFreeName(input.name);
    const { secret, ...described } = input;
    const created = await billing.exclusive(() =>
      gatewayStore.createChannel({
        name: input.name,
        protocol: input.protocol ?? preset?.protocol ?? 'openai',
        preset: preset?.name ?? null,
        baseUrl,
        encryptedSecret: secretBox.encrypt(secret),
        models: input.models,
        modelMapping: input.modelMapping,
        settings: input.settings,
        priority: input.priority,
        weight: input.weight,
        status: input.status,
      }),
    );
    await services.routing.refresh();
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'channel.create',
      targetType: 'channel',
      targetId: created.id,
      details: { ...described, baseUrl, protocol: created.protocol },
    });
    void reply.code(201);
    return presentChannel(created, secretBox);
  });

  app.patch<{ Params: { channelId: string } }>('/channels/:channelId', async (request) => {
    requireAdmin(request.apiCaller);
    const channel = await findChannel(request.params.channelId);
    const input = parseApiInput(updateChannelSchema, request.body);
    if (input.name !== undefined) await requireFreeName(input.name, channel.id);
    requireSecretForNewOrigin(channel.baseUrl, input.baseUrl, input.secret !== undefined);
    const { secret, ...described } = input;
    const changes: ChannelChanges = { ...described };
    if (secret !== undefined) changes.encryptedSecret = secretBox.encrypt(secret);
    await billing.exclusive(() => gatewayStore.updateChannel(channel.id, changes));
    await services.routing.refresh();
    // The audit entry says that the secret changed, never what it is.
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'channel.update',
      targetType: 'channel',
      targetId: channel.id,
      details: { ...described, ...(secret === undefined ? {} : { secretChanged: true }) },
    });
    return presentChannel(await findChannel(channel.id), secretBox);
  });

  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    app.post<{ Params: { channelId: string } }>(`/channels/:channelId/${action}`, async (request) => {
      requireAdmin(request.apiCaller);
      const channel = await findChannel(request.params.channelId);
      await billing.exclusive(() => gatewayStore.updateChannel(channel.id, { status }));
      await services.routing.refresh();
      await recordAdminAction(gatewayStore, request.apiCaller, {
        action: `channel.${action}`,
        targetType: 'channel',
        targetId: channel.id,
        details: { name: channel.name },
      });
      return presentChannel(await findChannel(channel.id), secretBox);
    });
  }

  app.delete<{ Params: { channelId: string } }>('/channels/:channelId', async (request) => {
    requireAdmin(request.apiCaller);
    const channel = await findChannel(request.params.channelId);
    await billing.exclusive(() => gatewayStore.deleteChannel(channel.id));
    await services.routing.refresh();
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'channel.delete',
      targetType: 'channel',
      targetId: channel.id,
      details: { name: channel.name },
    });
    return { id: channel.id, deleted: true };
  });

  app.post<{ Params: { channelId: string } }>('/channels/:channelId/test', async (request) => {
    requireAdmin(request.apiCaller);
    const channel = await findChannel(request.params.channelId);
    const { model = channel.models[0] } = parseApiInput(probeSchema, request.body);
    if (model === undefined)
      throw new GatewayError('invalid_request_error', 'The channel serves no model; name one to test.', {
        param: 'model',
      });
    let secret: string;
    try {
      secret = secretBox.decrypt(channel.encryptedSecret);
    } catch {
      return {
        ok: false,
        latencyMs: 0,
        status: null,
        error: "The channel's stored secret does not decrypt with this gateway's secret key; set it again.",
      };
    }
    const result = await probeChannel(
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
      {
        dispatcher: services.dispatcher,
        clock: services.clock,
        timeoutMs: Math.min(services.config.upstreamHeadersTimeoutMs, longestProbeWaitMs),
        channelHealth: services.channelHealth,
      },
    );
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'channel.test',
      targetType: 'channel',
      targetId: channel.id,
      details: { model, ok: result.ok, status: result.status },
    });
    return { model, ...result };
  });
}
