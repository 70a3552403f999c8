import { GatewayError } from '../core/gateway-error.js';
import { redactUpstreamText } from '../providers/openai/redact-upstream-text.js';

/**
 * The one place dispatch redacts a vendor's text (built on src/providers/openai/redact-upstream-text.ts): every error
 * message from a vendor, on every path (non-stream failures, mid-stream error events of pass-through and translated
 * streams), goes through here once the channel is known.
 */

/** The parts of a channel whose secrets a vendor might quote back. */
export interface ChannelWithSecrets {
  /** the decrypted upstream secret (an API key, or AWS `<access key id>:<secret access key>[:<session token>]`) */
  secret: string;
  /** base URL without a trailing slash */
  baseUrl: string;
}

/** Each channel's secrets, worked out once: every stream needs them at hand, and parsing the base URL is not free. */
const secretsByChannel = new WeakMap<ChannelWithSecrets, readonly string[]>();

/** A part of a composite secret shorter than this is not redacted on its own (it would blank ordinary words). */
const minimumSecretPartLength = 8;

/**
 * What a vendor might quote back that a client must never see: the channel's secret whole and each of its parts (AWS
 * keys, a comma- or newline-separated key list), its base URL and its host. Longest first, so a part never leaves
 * the rest of a longer secret behind.
 */
export function secretsOf(channel: ChannelWithSecrets): readonly string[] {
  let secrets = secretsByChannel.get(channel);
  if (!secrets) {
    const parts = channel.secret.split(/[\s,:;]+/).filter((part) => part.length >= minimumSecretPartLength);
    const host = URL.canParse(channel.baseUrl) ? new URL(channel.baseUrl).host : '';
    const unique = new Set([channel.secret, ...parts, channel.baseUrl, host].filter((secret) => secret.length > 0));
    secrets = [...unique].sort((left, right) => right.length - left.length);
    secretsByChannel.set(channel, secrets);
  }
  return secrets;
}

/**
 * Removes the channel's own secrets (key(s), base URL, host) and anything key-shaped (`sk-...`, `AIza...`, AWS key
 * ids, bearer tokens, URLs) from a vendor's text, and shortens it to 500 characters.
 */
export function redactChannelSecrets(text: string, channel: ChannelWithSecrets): string {
  return redactUpstreamText(text, secretsOf(channel));
}

/** The same gateway error with its message redacted of the channel's secrets (code, param and headers kept). */
export function redactGatewayError(error: GatewayError, channel: ChannelWithSecrets): GatewayError {
  const message = redactChannelSecrets(error.message, channel);
  return message === error.message
    ? error
    : new GatewayError(error.code, message, { param: error.param, headers: error.headers });
}
