/** Whether one store answered its last check. */
export type StoreState = 'up' | 'down';

/** What `/readyz` reports: ready when every store this node needs answered its last check. */
export interface ReadinessReport {
  ready: boolean;
  /** each store this node needs, by name (`database`, `redis`) */
  stores: Record<string, StoreState>;
}

/** A check of one store: resolves when the store answered (e.g. `select 1`, Redis PING), rejects otherwise. */
export type StoreCheck = () => Promise<void>;

/** How the probe is built. */
export interface StoreReadinessProbeOptions {
  /** the stores this node needs and how to check each */
  checks: Record<string, StoreCheck>;
  /** Unix milliseconds */
  clock?: () => number;
  /** a report younger than this is answered again without checking, in milliseconds */
  maximumAgeMs?: number;
  /** a check that has not answered after this long counts as down, in milliseconds */
  checkTimeoutMs?: number;
}

/**
 * Readiness of the stores a node needs, checked at most once per `maximumAgeMs` however often `/readyz` is asked
 * (concurrent askers share one check), each check bounded by `checkTimeoutMs` so a frozen store answers "down" in time.
 */
export class StoreReadinessProbe {
  private last: { at: number; report: ReadinessReport } | undefined;
  private running: Promise<ReadinessReport> | undefined;
  private readonly clock: () => number;
  private readonly maximumAgeMs: number;
  private readonly checkTimeoutMs: number;

  constructor(private readonly options: StoreReadinessProbeOptions) {
    this.clock = options.clock ?? Date.now;
    this.maximumAgeMs = options.maximumAgeMs ?? 1_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 1_000;
  }

  /** The last report made and when its checks started (Unix milliseconds), without checking; undefined before the first. */
  lastReport(): { readonly at: number; readonly report: ReadinessReport } | undefined {
    return this.last;
  }

  /** The latest report, checking the stores again when it is older than `maximumAgeMs`. */
  report(): Promise<ReadinessReport> {
    const last = this.last;
    if (last && this.clock() - last.at < this.maximumAgeMs) return Promise.resolve(last.report);
    if (this.running) return this.running;
    const running = this.check().finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async check(): Promise<ReadinessReport> {
    const startedAt = this.clock();
    const entries = await Promise.all(
      Object.entries(this.options.checks).map(async ([name, check]): Promise<[string, StoreState]> => [
        name,
        (await this.answersInTime(check)) ? 'up' : 'down',
      ]),
    );
    const stores = Object.fromEntries(entries);
    const report: ReadinessReport = { ready: entries.every(([, state]) => state === 'up'), stores };
    this.last = { at: startedAt, report };
    return report;
  }

  private answersInTime(check: StoreCheck): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.checkTimeoutMs);
      timer.unref();
      check().then(
        () => {
          clearTimeout(timer);
          resolve(true);
        },
        () => {
          clearTimeout(timer);
          resolve(false);
        },
      );
    });
  }
}
