import { anthropicVendorAdapter } from './anthropic/anthropic-vendor-adapter.js';
import { bedrockVendorAdapter } from './bedrock/bedrock-vendor-adapter.js';
import type { VendorAdapter } from './vendor-adapter.js';
import { geminiVendorAdapter } from './gemini/gemini-vendor-adapter.js';
import { vertexVendorAdapter } from './vertex/vertex-vendor-adapter.js';

// One entry per translated protocol.
const registeredAdapters: VendorAdapter[] = [
  anthropicVendorAdapter,
  geminiVendorAdapter,
  bedrockVendorAdapter,
  vertexVendorAdapter,
];

const adapters = new Map<string, VendorAdapter>(registeredAdapters.map((adapter) => [adapter.protocol, adapter]));

/** The adapter for a translated protocol (`anthropic`, `gemini`, `bedrock`, `vertex`), if one is registered. */
export function findVendorAdapter(protocol: string): VendorAdapter | undefined {
  return adapters.get(protocol);
}
