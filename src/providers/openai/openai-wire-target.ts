import type { VendorChannel } from '../vendor-adapter.js';
import { azureOpenAiQuirks } from '../azure/azure-openai-target.js';
import { openAiQuirks, type OpenAiWireQuirks } from './openai-wire-quirks.js';

/** Where an OpenAI-wire request goes and how it authenticates. */
export interface OpenAiWireTarget {
  /** the full URL for a path such as `/chat/completions` */
  urlFor(path: string): string;
  /** authentication headers */
  headers: Record<string, string>;
}

// One entry per OpenAI-wire protocol; a vendor's quirks are hooks, never an `if` inside the OpenAI code.
const quirksByProtocol = new Map<string, OpenAiWireQuirks>(
  [openAiQuirks, azureOpenAiQuirks].map((quirks) => [quirks.protocol, quirks]),
);

/** Protocols that speak OpenAI's wire format (bodies and streams pass through unchanged). */
export const openAiWireProtocols: ReadonlySet<string> = new Set(quirksByProtocol.keys());

/** The quirks of an OpenAI-wire protocol, if it is one. */
export function findOpenAiWireQuirks(protocol: string): OpenAiWireQuirks | undefined {
  return quirksByProtocol.get(protocol);
}

/** The target for an OpenAI-wire channel and the model name it expects. */
export function createOpenAiWireTarget(
  protocol: string,
  channel: VendorChannel,
  upstreamModelId: string,
): OpenAiWireTarget {
  const quirks = quirksByProtocol.get(protocol) ?? openAiQuirks;
  return { urlFor: (path) => quirks.urlFor(channel, upstreamModelId, path), headers: quirks.authHeaders(channel) };
}
