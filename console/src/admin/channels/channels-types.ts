// The /api answers the Channels page reads (docs/API.md "Console API").

/** The wire protocols a channel may speak. */
export const channelProtocols = ['openai', 'azure', 'anthropic', 'gemini', 'bedrock', 'vertex'] as const;

/** A channel's wire protocol. */
export type ChannelProtocol = (typeof channelProtocols)[number];

/** One channel of GET /api/channels: never the secret, only whether one is set and readable, and its last 4. */
export interface Channel {
  id: string;
  name: string;
  protocol: ChannelProtocol;
  /** the vendor preset it was made from; null for a custom channel */
  preset: string | null;
  baseUrl: string;
  models: string[];
  /** public model id → model id sent upstream */
  modelMapping: Record<string, string>;
  settings: Record<string, string>;
  priority: number;
  weight: number;
  status: 'enabled' | 'disabled';
  secretSet: boolean;
  secretReadable: boolean;
  secretLast4: string | null;
  /** Unix milliseconds */
  createdAt: number;
  updatedAt: number;
  /** the gateway process's circuit breakers for this channel, one per model with recent outcomes (list and detail answers only) */
  health?: ChannelModelHealth[];
}

/** One model's circuit breaker on a channel (docs/API.md, `GET /api/channels`). */
export interface ChannelModelHealth {
  model: string;
  state: 'closed' | 'open' | 'half-open';
  consecutiveFailures: number;
  /** Unix milliseconds when an open breaker lets a request through again; null when it does now */
  retryAt: number | null;
  lastFailure: string | null;
}

/** One vendor preset of GET /api/channel-presets. */
export interface ChannelPreset {
  name: string;
  protocol: ChannelProtocol;
  baseUrl: string;
  ownedBy: string;
}

/** The answer of POST /api/channels/:id/test. */
export interface ChannelTestResult {
  model: string;
  ok: boolean;
  latencyMs: number;
  /** the vendor's HTTP status; null when it could not be reached */
  status: number | null;
  /** the vendor's error with secrets, hosts and URLs removed */
  error?: string;
}
