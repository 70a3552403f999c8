import { azureSoraVideoAdapter, soraVideoAdapter } from './sora/sora-video-adapter.js';
import type { VideoVendorAdapter } from './video-vendor-adapter.js';
import { veoVideoAdapter } from './veo/veo-video-adapter.js';

/** Every video vendor the gateway speaks, one per channel protocol. */
export const videoVendorAdapters: readonly VideoVendorAdapter[] = [
  soraVideoAdapter,
  azureSoraVideoAdapter,
  veoVideoAdapter,
];

const adaptersByProtocol = new Map<string, VideoVendorAdapter>(
  videoVendorAdapters.map((adapter) => [adapter.protocol, adapter]),
);

/** The video adapter for a channel protocol (`openai`, `azure`, `gemini`), or undefined when the protocol makes no video. */
export function findVideoVendorAdapter(protocol: string): VideoVendorAdapter | undefined {
  return adaptersByProtocol.get(protocol);
}
