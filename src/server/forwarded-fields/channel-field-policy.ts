import { parseCurrencyAmount } from '../../billing/money.js';
import { openAiWireProtocols } from '../../providers/openai/openai-wire-target.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { findVendorPreset } from '../../routing/vendor-presets.js';

/** What one channel lets through beyond the official fields, read from its protocol, preset and settings. */
export interface ChannelFieldPolicy {
  /** true for OpenAI-wire protocols (openai, azure), whose bodies are forwarded; translated ones take official fields only */
  passesThrough: boolean;
  /** vendor fields beyond the description this channel accepts and that do not change the price (`top_k`, ...) */
  extraFields: ReadonlySet<string>;
  /** vendor fields beyond the description this channel knows and that change the price or the model (OpenRouter `models`, Azure `data_sources`) */
  premiumExtraFields: ReadonlySet<string>;
  /** price-changing fields the operator enabled (`premiumFields` setting); empty unless `premiumPriceRatio` models their price */
  enabledPremiumFields: ReadonlySet<string>;
  /** what a request using an enabled premium field costs relative to the model's price, in millionths (2.0 = 2,000,000) */
  premiumPriceRatioMillionths: number | undefined;
  /** true when the operator opted in to forwarding `store` and `metadata` (`forwardStoreAndMetadata=on`) */
  forwardsStoreAndMetadata: boolean;
}

/** Channel settings read by the forwarded-field policy (see docs/CONFIGURATION.md). */
export const channelFieldSettings = {
  premiumFields: 'premiumFields',
  premiumPriceRatio: 'premiumPriceRatio',
  forwardStoreAndMetadata: 'forwardStoreAndMetadata',
} as const;

/** Vendor fields a protocol knows beyond OpenAI's description that change the price: Azure's "on your data" retrieval. */
const protocolPremiumExtraFields: Readonly<Record<string, readonly string[]>> = { azure: ['data_sources'] };

const enabledWords = new Set(['on', 'true', 'yes', '1']);
const emptySet: ReadonlySet<string> = new Set();

// Channels are immutable objects replaced on every routing refresh, so a policy is read once per channel and revision.
const policies = new WeakMap<RoutableChannel, ChannelFieldPolicy>();

/** The channel's forwarded-field policy (computed once per channel object). */
export function channelFieldPolicyOf(channel: RoutableChannel): ChannelFieldPolicy {
  let policy = policies.get(channel);
  if (!policy) {
    policy = readChannelFieldPolicy(channel);
    policies.set(channel, policy);
  }
  return policy;
}

/** True when the channel forwards the price-changing field `field` (enabled by the operator, with its price modelled). */
export function enablesPremiumField(policy: ChannelFieldPolicy, field: string): boolean {
  return policy.passesThrough && policy.enabledPremiumFields.has(field);
}

function readChannelFieldPolicy(channel: RoutableChannel): ChannelFieldPolicy {
  const settings = channel.settings;
  const passesThrough = openAiWireProtocols.has(channel.protocol);
  const preset = channel.preset ? findVendorPreset(channel.preset) : undefined;
  const ratio = parsePremiumPriceRatio(settings[channelFieldSettings.premiumPriceRatio]);
  const enabled =
    ratio === undefined ? emptySet : new Set(parseFieldList(settings[channelFieldSettings.premiumFields]));
  return {
    passesThrough,
    extraFields: passesThrough ? new Set(preset?.extraFields ?? []) : emptySet,
    premiumExtraFields: passesThrough
      ? new Set([...(preset?.premiumFields ?? []), ...(protocolPremiumExtraFields[channel.protocol] ?? [])])
      : emptySet,
    enabledPremiumFields: passesThrough ? enabled : emptySet,
    premiumPriceRatioMillionths: ratio,
    forwardsStoreAndMetadata: enabledWords.has(
      (settings[channelFieldSettings.forwardStoreAndMetadata] ?? '').trim().toLowerCase(),
    ),
  };
}

function parseFieldList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,\s;+]+/)
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}

/** A positive decimal with at most six decimals (`2`, `1.5`) as millionths; anything else leaves premium fields off. */
function parsePremiumPriceRatio(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    const millionths = parseCurrencyAmount(value);
    return millionths > 0 ? millionths : undefined;
  } catch {
    return undefined;
  }
}
