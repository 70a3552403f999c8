import type { BreakerState, BreakerTransition, TransitionReason } from './breaker-transition.js';
import type { ChannelHealthSettings } from '../../config/channel-health-settings.js';
import { judgeChannelOutcome, retryAfterOf, type ChannelOutcome } from './channel-outcome.js';
import { OutcomeWindow } from './outcome-window.js';
import { parseRetryAfter } from './parse-retry-after.js';

/** What the channels API and `/metrics` show of one breaker. */
export interface BreakerSnapshot {
  channelId: string;
  channelName: string;
  model: string;
  /** the state at the snapshot's time (an open breaker whose cool-down ran out shows as half-open) */
  state: BreakerState;
  /** failures since the last success (closed only) */
  consecutiveFailures: number;
  /** outcomes counted in the error-rate window */
  windowRequests: number;
  /** failures among them */
  windowFailures: number;
  /** Unix milliseconds when the breaker lets a request through again; null when it does now */
  retryAt: number | null;
  /** opens since the breaker was last closed (the cool-down doubles with each) */
  opensSinceClosed: number;
  /** probes let through and not yet answered (half-open only) */
  probesInFlight: number;
  /** kind of the last failure, null if none was seen */
  lastFailure: ChannelOutcome['kind'] | null;
  /** Unix milliseconds of the last failure, null if none */
  lastFailureAt: number | null;
}

/** Receives every state change. */
export type TransitionListener = (transition: BreakerTransition) => void;

/** The circuit breaker of one (channel, model); the clock is the `now` each call passes (Unix milliseconds). */
export class ChannelBreaker {
  /** Unix milliseconds of the last recorded outcome (or creation) */
  lastActivityAt: number;
  private storedState: BreakerState = 'closed';
  private consecutiveFailures = 0;
  private readonly window: OutcomeWindow;
  private opensSinceClosed = 0;
  /** while open: Unix milliseconds when the cool-down ends */
  private openUntil = 0;
  private probesInFlight = 0;
  /** Unix milliseconds the last probe was let through */
  private lastProbeAt = 0;
  private lastFailure: ChannelOutcome['kind'] | null = null;
  private lastFailureAt: number | null = null;

  constructor(
    readonly channelId: string,
    public channelName: string,
    readonly model: string,
    private readonly settings: ChannelHealthSettings,
    private readonly onTransition: TransitionListener,
    now: number,
  ) {
    this.window = new OutcomeWindow(settings.errorRateWindowMs);
    this.lastActivityAt = now;
  }

  /** The state at `now`, without changing anything. */
  stateAt(now: number): BreakerState {
    return this.storedState === 'open' && now >= this.openUntil ? 'half-open' : this.storedState;
  }

  /** Whether a request may go to this channel at `now` (a half-open breaker: only while a probe place is free). */
  isAvailable(now: number): boolean {
    const state = this.stateAt(now);
    if (state === 'closed') return true;
    if (state === 'open') return false;
    return this.activeProbes(now) < this.settings.halfOpenProbes;
  }

  /** Unix milliseconds from which a request may go again (`now` when it may already). */
  retryAt(now: number): number {
    const state = this.stateAt(now);
    if (state === 'open') return this.openUntil;
    if (state === 'half-open' && !this.isAvailable(now)) return this.lastProbeAt + this.settings.probeTimeoutMs;
    return now;
  }

  /** Takes a place for a request about to be sent: true when it may go (a half-open breaker counts it as a probe). */
  admit(now: number): boolean {
    this.settleCoolDown(now);
    if (this.storedState === 'closed') return true;
    if (this.storedState === 'open' || !this.isAvailable(now)) return false;
    this.probesInFlight = this.activeProbes(now) + 1;
    this.lastProbeAt = now;
    return true;
  }

  /** Applies one attempt's outcome. */
  record(outcome: ChannelOutcome, now: number): void {
    this.settleCoolDown(now);
    this.lastActivityAt = now;
    const verdict = judgeChannelOutcome(outcome);
    if (verdict === 'neutral') {
      if (this.storedState === 'half-open') this.releaseProbe(now);
      return;
    }
    if (verdict === 'success') {
      if (this.storedState === 'closed') {
        this.consecutiveFailures = 0;
        this.window.record(false, now);
      } else {
        this.close(now);
      }
      return;
    }
    this.recordFailure(outcome, now);
  }

  /** The breaker as the channels API shows it. */
  snapshot(now: number): BreakerSnapshot {
    const counts = this.window.countsAt(now);
    const state = this.stateAt(now);
    const retryAt = this.retryAt(now);
    return {
      channelId: this.channelId,
      channelName: this.channelName,
      model: this.model,
      state,
      consecutiveFailures: this.consecutiveFailures,
      windowRequests: counts.successes + counts.failures,
      windowFailures: counts.failures,
      retryAt: retryAt > now ? retryAt : null,
      opensSinceClosed: this.opensSinceClosed,
      probesInFlight: state === 'half-open' ? this.activeProbes(now) : 0,
      lastFailure: this.lastFailure,
      lastFailureAt: this.lastFailureAt,
    };
  }

  private recordFailure(outcome: ChannelOutcome, now: number): void {
    this.lastFailure = outcome.kind;
    this.lastFailureAt = now;
    const retryAfterAt = this.capRetryAfter(parseRetryAfter(retryAfterOf(outcome), now), now);
    switch (this.storedState) {
      case 'closed':
        this.consecutiveFailures += 1;
        this.window.record(true, now);
        if (retryAfterAt !== undefined) this.open(now, 'retry-after', retryAfterAt);
        else if (this.tripsOnConsecutiveFailures()) this.open(now, 'consecutive-failures', undefined);
        else if (this.tripsOnErrorRate(now)) this.open(now, 'error-rate', undefined);
        return;
      case 'half-open':
        this.open(now, retryAfterAt === undefined ? 'probe-failed' : 'retry-after', retryAfterAt);
        return;
      case 'open':
        // An attempt made while open (every channel was open) that failed: the cool-down stands, unless the vendor asks for longer.
        if (retryAfterAt !== undefined && retryAfterAt > this.openUntil) this.openUntil = retryAfterAt;
        return;
      default: {
        const unhandled: never = this.storedState;
        throw new Error(`Unhandled breaker state: ${String(unhandled)}`);
      }
    }
  }

  private tripsOnConsecutiveFailures(): boolean {
    return this.settings.consecutiveFailures > 0 && this.consecutiveFailures >= this.settings.consecutiveFailures;
  }

  private tripsOnErrorRate(now: number): boolean {
    if (this.settings.errorRatePercent <= 0) return false;
    const { successes, failures } = this.window.countsAt(now);
    const total = successes + failures;
    return total >= this.settings.errorRateMinimumRequests && failures * 100 >= this.settings.errorRatePercent * total;
  }

  private open(now: number, reason: TransitionReason, retryAfterAt: number | undefined): void {
    const from = this.storedState;
    this.opensSinceClosed += 1;
    const coolDown = Math.min(this.settings.coolDownMs * 2 ** (this.opensSinceClosed - 1), this.settings.maxCoolDownMs);
    this.openUntil = Math.max(now + coolDown, retryAfterAt ?? 0);
    this.storedState = 'open';
    this.consecutiveFailures = 0;
    this.probesInFlight = 0;
    this.window.clear();
    this.onTransition(this.transition(from, 'open', reason, now));
  }

  private close(now: number): void {
    const from = this.storedState;
    this.storedState = 'closed';
    this.opensSinceClosed = 0;
    this.consecutiveFailures = 0;
    this.probesInFlight = 0;
    this.window.clear();
    this.window.record(false, now);
    this.onTransition(this.transition(from, 'closed', 'success', now));
  }

  /** Makes an open breaker whose cool-down ran out half-open (the transition happens when a call first sees it). */
  private settleCoolDown(now: number): void {
    if (this.storedState !== 'open' || now < this.openUntil) return;
    this.storedState = 'half-open';
    this.probesInFlight = 0;
    this.onTransition(this.transition('open', 'half-open', 'cool-down-over', now));
  }

  private activeProbes(now: number): number {
    return now - this.lastProbeAt >= this.settings.probeTimeoutMs ? 0 : this.probesInFlight;
  }

  private releaseProbe(now: number): void {
    this.probesInFlight = Math.max(0, this.activeProbes(now) - 1);
  }

  private capRetryAfter(retryAfterAt: number | undefined, now: number): number | undefined {
    return retryAfterAt === undefined ? undefined : Math.min(retryAfterAt, now + this.settings.maxRetryAfterMs);
  }

  private transition(from: BreakerState, to: BreakerState, reason: TransitionReason, at: number): BreakerTransition {
    return { channelId: this.channelId, channelName: this.channelName, model: this.model, from, to, reason, at };
  }
}
