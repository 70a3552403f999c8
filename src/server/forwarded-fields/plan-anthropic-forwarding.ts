import type { PromptCacheTtl } from '../../billing/request-accounting.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { anthropicChannelPolicyOf, type AnthropicChannelPolicy } from './anthropic-channel-policy.js';
import { findMessagesCacheTtls } from '../../protocols/anthropic-messages/find-messages-cache-ttls.js';
import { freeAnthropicBetas } from '../../protocols/anthropic-messages/free-anthropic-betas.js';

/** How a validated Messages request may go to Anthropic channels: which ones, at what premium, with which betas. */
export interface AnthropicForwardingPlan {
  /** the channels that accept every beta, premium field and TTL of the request; undefined when all do */
  acceptsChannel: ((channel: RoutableChannel) => boolean) | undefined;
  /** channel id -> premium price ratio (millionths) when the request uses an enabled beta or premium field */
  premiumPriceRatios: ReadonlyMap<string, number> | undefined;
  /** the `anthropic-beta` value to send (the client's betas, trimmed and deduplicated); undefined when none */
  anthropicBeta: string | undefined;
  /** the longest prompt-cache TTL of the request (a `cache_control` without `ttl` is 5 minutes); undefined without any */
  promptCacheTtl: PromptCacheTtl | undefined;
}

/** Top-level Messages fields Anthropic bills above the token price, with the values that cost nothing more. */
const premiumMessagesFields: Readonly<Record<string, (value: unknown) => boolean>> = {
  // `auto` (Anthropic's default when absent) may be served by Priority Tier capacity; `standard_only` never is.
  service_tier: (value) => value !== 'standard_only',
  // Fast mode is billed at a multiple of the standard rate.
  speed: (value) => value !== 'standard',
  // Inference pinned to a region (`us`) is billed at a premium; `global` is the standard price.
  inference_geo: (value) => value !== 'global',
};

/** One thing of the request some channels may refuse. */
type SelectiveFeature =
  | { kind: 'beta'; name: string }
  | { kind: 'field'; name: string; value: unknown }
  | { kind: 'one-hour-ttl'; param: string };

/**
 * Applies the allow-list-with-price rule to a Messages request (docs/API.md, "Messages"): a beta outside the free
 * list, a premium `service_tier`/`speed`/`inference_geo` and a 1-hour cache TTL go only to Anthropic channels that
 * allow them (betas and fields enabled with a `premiumPriceRatio`; 1-hour TTLs unless `cacheTtlOneHour=off`); when no
 * channel of the model does, 400 naming it before any vendor call. Translated channels get none of these (the header
 * and the fields are not sent, `cache_control` is dropped), so they accept them. A TTL other than `5m`/`1h` is refused.
 */
export function planAnthropicForwarding(options: {
  body: Readonly<Record<string, unknown>>;
  anthropicBeta: string | undefined;
  modelId: string;
  channels: readonly RoutableChannel[];
}): AnthropicForwardingPlan {
  const betas = parseBetas(options.anthropicBeta);
  const features: SelectiveFeature[] = [];
  for (const name of betas) if (!freeAnthropicBetas.has(name)) features.push({ kind: 'beta', name });
  for (const [name, isPremium] of Object.entries(premiumMessagesFields)) {
    const value = options.body[name];
    if (value !== undefined && value !== null && isPremium(value)) features.push({ kind: 'field', name, value });
  }
  const promptCacheTtl = readPromptCacheTtl(options.body, features);
  let eligible = options.channels;
  for (const feature of features) {
    const accepting = eligible.filter((channel) => acceptsFeature(channel, feature));
    if (accepting.length === 0) throw refusal(feature, options.modelId);
    eligible = accepting;
  }
  const premium = features.some((feature) => feature.kind !== 'one-hour-ttl');
  const eligibleIds = features.length > 0 ? new Set(eligible.map((channel) => channel.id)) : undefined;
  return {
    acceptsChannel: eligibleIds ? (channel) => eligibleIds.has(channel.id) : undefined,
    premiumPriceRatios: premium ? premiumRatiosOf(eligible) : undefined,
    anthropicBeta: betas.length > 0 ? betas.join(',') : undefined,
    promptCacheTtl,
  };
}

/**
 * The `anthropic-beta` value for a `count_tokens` request (free at the vendor, nothing billed): the free betas and
 * those every Anthropic channel of the model enables; any other is dropped rather than refused.
 */
export function countTokensAnthropicBeta(
  anthropicBeta: string | undefined,
  channels: readonly RoutableChannel[],
): string | undefined {
  const anthropicChannels = channels.filter((channel) => channel.protocol === 'anthropic');
  const kept = parseBetas(anthropicBeta).filter(
    (name) =>
      freeAnthropicBetas.has(name) ||
      (anthropicChannels.length > 0 &&
        anthropicChannels.every((channel) => anthropicChannelPolicyOf(channel).enabledBetas.has(name))),
  );
  return kept.length > 0 ? kept.join(',') : undefined;
}

/** The betas of an `anthropic-beta` header value (a comma list), trimmed, without empties and repeats. */
function parseBetas(header: string | undefined): string[] {
  if (header === undefined) return [];
  return [
    ...new Set(
      header
        .split(',')
        .map((beta) => beta.trim())
        .filter((beta) => beta !== ''),
    ),
  ];
}

function readPromptCacheTtl(
  body: Readonly<Record<string, unknown>>,
  features: SelectiveFeature[],
): PromptCacheTtl | undefined {
  let longest: PromptCacheTtl | undefined;
  for (const { param, ttl } of findMessagesCacheTtls(body)) {
    if (ttl === '1h') {
      if (longest !== 'one-hour') features.push({ kind: 'one-hour-ttl', param });
      longest = 'one-hour';
    } else if (ttl === '5m' || ttl === undefined) {
      longest ??= 'five-minutes';
    } else {
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${param}': ${JSON.stringify(ttl) ?? 'null'}; expected '5m' or '1h'.`,
        { param },
      );
    }
  }
  return longest;
}

function acceptsFeature(channel: RoutableChannel, feature: SelectiveFeature): boolean {
  // Translated channels are sent neither the header, nor these fields, nor cache_control.
  if (channel.protocol !== 'anthropic') return true;
  const policy: AnthropicChannelPolicy = anthropicChannelPolicyOf(channel);
  switch (feature.kind) {
    case 'beta':
      return policy.enabledBetas.has(feature.name);
    case 'field':
      return policy.enabledPremiumFields.has(feature.name);
    case 'one-hour-ttl':
      return policy.allowsOneHourCacheTtl;
    default: {
      const unreachable: never = feature;
      return unreachable;
    }
  }
}

function refusal(feature: SelectiveFeature, modelId: string): GatewayError {
  switch (feature.kind) {
    case 'beta':
      return new GatewayError(
        'invalid_request_error',
        `anthropic-beta '${feature.name}' changes the price or what the vendor bills, and this gateway does not offer it for model '${modelId}'.`,
        { param: 'anthropic-beta' },
      );
    case 'field': {
      const value = JSON.stringify(feature.value) ?? 'null';
      const shown = value.length > 40 ? '' : ` = ${value}`;
      return new GatewayError(
        'invalid_request_error',
        `'${feature.name}'${shown} changes the price, and this gateway does not offer it for model '${modelId}'.`,
        { param: feature.name },
      );
    }
    case 'one-hour-ttl':
      return new GatewayError(
        'invalid_request_error',
        `'${feature.param}' = "1h" (1-hour prompt caching) is not offered by this gateway for model '${modelId}'.`,
        { param: feature.param },
      );
    default: {
      const unreachable: never = feature;
      return unreachable;
    }
  }
}

function premiumRatiosOf(channels: readonly RoutableChannel[]): Map<string, number> {
  const ratios = new Map<string, number>();
  for (const channel of channels) {
    const ratio = anthropicChannelPolicyOf(channel).premiumPriceRatioMillionths;
    if (channel.protocol === 'anthropic' && ratio !== undefined) ratios.set(channel.id, ratio);
  }
  return ratios;
}
