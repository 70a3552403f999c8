import type { VendorChannel } from '../vendor-adapter.js';

/** The API version a channel uses when its settings name none. */
export const defaultAnthropicApiVersion = '2023-06-01';

/** The version that arrived with SDK 1.0: bearer auth, no sampling parameters. */
export const bearerAnthropicApiVersion = '2026-10-21';

/** What one Anthropic API version accepts, and how it authenticates. */
export interface AnthropicApiVersion {
  /** the `anthropic-version` header value */
  name: string;
  /** true when `temperature` and `top_p` may be sent */
  acceptsSampling: boolean;
  /** the authentication and version headers */
  headersFor(secret: string): Record<string, string>;
}

/**
 * Reads the channel setting `apiVersion`; versions from 2026-10-21 on behave like it, older ones like 2023-06-01.
 * Every version takes `output_config` (JSON-schema output, effort): Anthropic accepts it under 2023-06-01 too.
 */
export function readAnthropicApiVersion(channel: VendorChannel): AnthropicApiVersion {
  const name = channel.settings.apiVersion?.trim() || defaultAnthropicApiVersion;
  // ISO dates compare correctly as strings.
  if (name >= bearerAnthropicApiVersion) {
    return {
      name,
      acceptsSampling: false,
      headersFor: (secret) => ({ authorization: `Bearer ${secret}`, 'anthropic-version': name }),
    };
  }
  return {
    name,
    acceptsSampling: true,
    headersFor: (secret) => ({ 'x-api-key': secret, 'anthropic-version': name }),
  };
}
