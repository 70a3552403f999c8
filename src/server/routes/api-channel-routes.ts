import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSecretBox, resolveSecretPassphrase } from '../../accounts/secret-box.js';
import { createChannelService } from '../../routing/channel-service.js';
import { findVendorPreset, vendorPresets } from '../../routing/vendor-presets.js';
import type { ChannelRecord } from '../../storage/store-records.js';
import { accountActorOfCaller } from '../api/account-actor-of-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentChannel } from '../api/present-channel.js';
import { presentChannelHealth } from '../api/present-channel-health.js';
import { probeChannel } from '../api/probe-channel.js';
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
 * one-request test against the vendor. The rules live in the channel service (routing/channel-service.ts): every change
 * bumps the routing revision (the store does), reaches this node at once and is audit-logged without the secret.
 * The list and a channel's detail carry `health`: this node's circuit breaker per model (state, failures, retry time).
 */
export function registerApiChannelRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;
  const secretBox = createSecretBox(resolveSecretPassphrase(services.config));
  const channelService = createChannelService({
    channels: gatewayStore,
    audit: gatewayStore,
    secretBox,
    exclusive: (work) => billing.exclusive(work),
    refreshRouting: () => services.routing.refresh(),
    probe: (target, model) =>
      probeChannel(target, model, {
        dispatcher: services.dispatcher,
        clock: services.clock,
        timeoutMs: Math.min(services.config.upstreamHeadersTimeoutMs, longestProbeWaitMs),
        channelHealth: services.channelHealth,
      }),
  });
  const present = (channel: ChannelRecord) => ({
    ...presentChannel(channel, secretBox),
    health: presentChannelHealth(services.channelHealth, channel.id),
  });

  app.get('/channels', async (request) => ({
    data: (await channelService.listChannels(accountActorOfCaller(request.apiCaller))).map(present),
  }));

  app.get<{ Params: { channelId: string } }>('/channels/:channelId', async (request) =>
    present(await channelService.showChannel(accountActorOfCaller(request.apiCaller), request.params.channelId)),
  );

  app.post('/channels', async (request, reply) => {
    const actor = accountActorOfCaller(request.apiCaller);
    const input = parseApiInput(createChannelSchema, request.body);
    const created = await channelService.createChannel(actor, input);
    void reply.code(201);
    return presentChannel(created, secretBox);
  });

  app.patch<{ Params: { channelId: string } }>('/channels/:channelId', async (request) => {
    const actor = accountActorOfCaller(request.apiCaller);
    const input = parseApiInput(updateChannelSchema, request.body);
    return presentChannel(await channelService.updateChannel(actor, request.params.channelId, input), secretBox);
  });

  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    app.post<{ Params: { channelId: string } }>(`/channels/:channelId/${action}`, async (request) => {
      const actor = accountActorOfCaller(request.apiCaller);
      return presentChannel(await channelService.setChannelStatus(actor, request.params.channelId, status), secretBox);
    });
  }

  app.delete<{ Params: { channelId: string } }>('/channels/:channelId', async (request) => {
    const deleted = await channelService.deleteChannel(
      accountActorOfCaller(request.apiCaller),
      request.params.channelId,
    );
    return { id: deleted.id, deleted: true };
  });

  app.post<{ Params: { channelId: string } }>('/channels/:channelId/test', async (request) => {
    const actor = accountActorOfCaller(request.apiCaller);
    const { model } = parseApiInput(probeSchema, request.body);
    return channelService.testChannel(actor, request.params.channelId, model);
  });
}
