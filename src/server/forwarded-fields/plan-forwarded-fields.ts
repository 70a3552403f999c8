import { GatewayError } from '../../core/gateway-error.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import type { EndpointFieldRules } from '../../protocols/shared/endpoint-field-rules.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { unrecognizedArgumentError } from '../../protocols/shared/unrecognized-argument-error.js';
import { vendorExtraFieldsSchema } from '../../protocols/shared/vendor-extra-field-schemas.js';
import { channelFieldPolicyOf, enablesPremiumField, type ChannelFieldPolicy } from './channel-field-policy.js';

/** How one validated request is forwarded: which channels may serve it, at what premium, with which body. */
export interface ForwardedFieldPlan {
  /** the body the plan was made from; `bodyFor` returns this very object for a channel that gets it unchanged */
  body: Readonly<Record<string, unknown>>;
  /** the channels that accept every field of the request; undefined when all of the model's channels do (the usual case) */
  acceptsChannel: ((channel: RoutableChannel) => boolean) | undefined;
  /** for a request using a price-changing field: channel id -> that channel's premium price ratio in millionths */
  premiumPriceRatios: ReadonlyMap<string, number> | undefined;
  /** the fields to send a channel: the request itself, or a copy without the opt-in fields (`store`, `metadata`) it did not opt in to */
  bodyFor(channel: RoutableChannel): Readonly<Record<string, unknown>>;
}

/** A field some channels refuse: a vendor extra, or an official field set to a price-changing value. */
interface SelectiveField {
  name: string;
  /** true for an official field with a premium value; false for a field outside the description */
  official: boolean;
}

/**
 * Applies the forwarded-field policy (docs/API.md) to a validated request: a field outside the official description
 * must be a documented extra of the channel's preset (else 400 `Unrecognized request argument supplied`); a field that
 * changes the price or the model must be enabled, with a modelled price, on the channel (else 400 naming it); the
 * request then goes only to channels that accept all its fields. The body is shared, copied at most once (to drop
 * the opt-in fields), and never deep-copied.
 */
export function planForwardedFields(options: {
  body: Readonly<Record<string, unknown>>;
  rules: EndpointFieldRules;
  modelId: string;
  channels: readonly RoutableChannel[];
}): ForwardedFieldPlan {
  const { body, rules, channels } = options;
  const selective = findSelectiveFields(body, rules);
  let eligible = channels;
  let premium = false;
  for (const field of selective) {
    const accepting = eligible.filter((channel) => acceptsField(channelFieldPolicyOf(channel), field));
    if (accepting.length === 0) throw refusal(field, options);
    eligible = accepting;
    premium ||=
      field.official || eligible.some((channel) => channelFieldPolicyOf(channel).premiumExtraFields.has(field.name));
  }
  const eligibleIds = selective.length > 0 ? new Set(eligible.map((channel) => channel.id)) : undefined;
  return {
    body,
    acceptsChannel: eligibleIds ? (channel) => eligibleIds.has(channel.id) : undefined,
    premiumPriceRatios: premium ? premiumRatiosOf(eligible) : undefined,
    bodyFor: createBodySelector(body, rules.optInFields),
  };
}

function findSelectiveFields(body: Readonly<Record<string, unknown>>, rules: EndpointFieldRules): SelectiveField[] {
  const selective: SelectiveField[] = [];
  let hasExtras = false;
  for (const name of Object.keys(body)) {
    if (rules.officialFields.has(name)) {
      if (rules.premiumFields[name]?.(body[name])) selective.push({ name, official: true });
      continue;
    }
    if (!rules.acceptsVendorExtras) throw unrecognizedArgumentError(name);
    selective.push({ name, official: false });
    hasExtras = true;
  }
  if (hasExtras) parseRequestBody(vendorExtraFieldsSchema, body);
  return selective;
}

function acceptsField(policy: ChannelFieldPolicy, field: SelectiveField): boolean {
  if (field.official) return enablesPremiumField(policy, field.name);
  if (policy.extraFields.has(field.name)) return true;
  return policy.premiumExtraFields.has(field.name) && enablesPremiumField(policy, field.name);
}

function refusal(
  field: SelectiveField,
  options: { body: Readonly<Record<string, unknown>>; modelId: string; channels: readonly RoutableChannel[] },
): GatewayError {
  const policies = options.channels.map(channelFieldPolicyOf);
  const premium = field.official || policies.some((policy) => policy.premiumExtraFields.has(field.name));
  if (premium) {
    const value = JSON.stringify(options.body[field.name]) ?? 'null';
    const shown = value.length > 40 ? '' : ` = ${value}`;
    return new GatewayError(
      'invalid_request_error',
      `'${field.name}'${shown} changes the price or the model, and this gateway does not offer it for model '${options.modelId}'.`,
      { param: field.name },
    );
  }
  if (policies.some((policy) => policy.extraFields.has(field.name))) {
    return new GatewayError(
      'invalid_request_error',
      `'${field.name}' cannot be combined with the other fields of this request for model '${options.modelId}'.`,
      {
        param: field.name,
      },
    );
  }
  return unrecognizedArgumentError(field.name);
}

function premiumRatiosOf(channels: readonly RoutableChannel[]): Map<string, number> {
  const ratios = new Map<string, number>();
  for (const channel of channels) {
    const ratio = channelFieldPolicyOf(channel).premiumPriceRatioMillionths;
    if (ratio !== undefined) ratios.set(channel.id, ratio);
  }
  return ratios;
}

function createBodySelector(
  body: Readonly<Record<string, unknown>>,
  optInFields: readonly string[],
): ForwardedFieldPlan['bodyFor'] {
  if (!optInFields.some((field) => body[field] !== undefined)) return () => body;
  let withoutOptIn: Record<string, unknown> | undefined;
  return (channel) => {
    if (channelFieldPolicyOf(channel).forwardsStoreAndMetadata) return body;
    if (!withoutOptIn) {
      withoutOptIn = { ...body };
      for (const field of optInFields) delete withoutOptIn[field];
    }
    return withoutOptIn;
  };
}
