import type { VendorChannel } from '../vendor-adapter.js';

const bedrockHostPattern = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

/** The AWS region to sign for: the channel's `region` setting, else the one in the base URL's host, else us-east-1. */
export function resolveBedrockRegion(channel: VendorChannel): string {
  const configured = channel.settings.region?.trim();
  if (configured) return configured;
  try {
    const match = bedrockHostPattern.exec(new URL(channel.baseUrl).hostname);
    if (match?.[1]) return match[1];
  } catch {
    // An unparsable base URL fails later, when the request is built.
  }
  return 'us-east-1';
}
