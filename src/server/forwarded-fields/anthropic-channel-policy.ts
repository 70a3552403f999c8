import type { RoutableChannel } from '../../routing/routing-table.js';
import { channelFieldPolicyOf, channelFieldSettings } from './channel-field-policy.js';

/** What an Anthropic channel lets through of a Messages request beyond the price of its tokens (docs/API.md, "Messages"). */
export interface AnthropicChannelPolicy {
  /** `anthropic-beta` values the operator enabled (`anthropicBetas` setting); empty unless `premiumPriceRatio` models their price */
  enabledBetas: ReadonlySet<string>;
  /** price-changing top-level fields the operator enabled (`premiumFields`: `service_tier`, `speed`, `inference_geo`) */
  enabledPremiumFields: ReadonlySet<string>;
  /** false when the operator turned 1-hour prompt-cache writes off (`cacheTtlOneHour=off`); on by default, they are priced */
  allowsOneHourCacheTtl: boolean;
  /** what a request using an enabled beta or premium field costs relative to the model's price, in millionths */
  premiumPriceRatioMillionths: number | undefined;
}

/** Channel settings read by the Anthropic forwarding policy (see docs/CONFIGURATION.md). */
export const anthropicChannelSettings = {
  anthropicBetas: 'anthropicBetas',
  cacheTtlOneHour: 'cacheTtlOneHour',
} as const;

const disabledWords = new Set(['off', 'false', 'no', '0']);
const emptySet: ReadonlySet<string> = new Set();

// Channels are immutable objects replaced on every routing refresh, so a policy is read once per channel object.
const policies = new WeakMap<RoutableChannel, AnthropicChannelPolicy>();

/** The Anthropic forwarding policy of a channel (computed once per channel object). */
export function anthropicChannelPolicyOf(channel: RoutableChannel): AnthropicChannelPolicy {
  let policy = policies.get(channel);
  if (!policy) {
    policy = readAnthropicChannelPolicy(channel);
    policies.set(channel, policy);
  }
  return policy;
}

function readAnthropicChannelPolicy(channel: RoutableChannel): AnthropicChannelPolicy {
  const settings = channel.settings;
  const ratio = channelFieldPolicyOf(channel).premiumPriceRatioMillionths;
  const priced = ratio !== undefined;
  return {
    enabledBetas: priced ? new Set(parseList(settings[anthropicChannelSettings.anthropicBetas])) : emptySet,
    enabledPremiumFields: priced ? new Set(parseList(settings[channelFieldSettings.premiumFields])) : emptySet,
    allowsOneHourCacheTtl: !disabledWords.has(
      (settings[anthropicChannelSettings.cacheTtlOneHour] ?? '').trim().toLowerCase(),
    ),
    premiumPriceRatioMillionths: ratio,
  };
}

function parseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,\s;+]+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
