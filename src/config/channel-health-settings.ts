/** How channel circuit breakers trip and recover; docs/CONFIGURATION.md names the variable behind each field. */
export interface ChannelHealthSettings {
  /** false: every channel is always available and outcomes are ignored (GATEWAY_CHANNEL_BREAKER) */
  enabled: boolean;
  /** consecutive failures that open a closed breaker; 0 disables this trigger */
  consecutiveFailures: number;
  /** failure percentage of the window (at least) that opens a closed breaker; 0 disables this trigger */
  errorRatePercent: number;
  /** length of the sliding window the error rate is measured over, in milliseconds */
  errorRateWindowMs: number;
  /** outcomes the window must hold before its error rate may open the breaker */
  errorRateMinimumRequests: number;
  /** first cool-down of an open breaker, in milliseconds; each re-open without a close in between doubles it */
  coolDownMs: number;
  /** longest cool-down, in milliseconds */
  maxCoolDownMs: number;
  /** requests a half-open breaker lets through at once to probe the channel */
  halfOpenProbes: number;
  /** after this many milliseconds a probe without an outcome no longer holds its place (an outcome that was never recorded) */
  probeTimeoutMs: number;
  /** the longest a vendor's `Retry-After` may keep a breaker open, in milliseconds (guards against absurd values) */
  maxRetryAfterMs: number;
  /** a closed breaker with no outcome for this many milliseconds is forgotten */
  idleEntryMs: number;
  /** most (channel, model) breakers kept; beyond it the least recently used is forgotten */
  maxEntries: number;
}

/** The documented defaults. */
export const defaultChannelHealthSettings: Readonly<ChannelHealthSettings> = {
  enabled: true,
  consecutiveFailures: 5,
  errorRatePercent: 50,
  errorRateWindowMs: 60_000,
  errorRateMinimumRequests: 20,
  coolDownMs: 10_000,
  maxCoolDownMs: 300_000,
  halfOpenProbes: 1,
  probeTimeoutMs: 60_000,
  maxRetryAfterMs: 3_600_000,
  idleEntryMs: 600_000,
  maxEntries: 10_000,
};
