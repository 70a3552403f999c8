import type { SecretBox } from '../accounts/secret-box.js';
import { waitForCheckStartedAfter } from '../core/wait-for-check-started-after.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { ModelCatalog } from './model-catalog.js';
import { RoutingTable } from './routing-table.js';

/** Holds the current routing table and replaces it when the stored revision moves. */
export class RoutingCache {
  private table: RoutingTable | undefined;
  private lastCheckAt = 0;
  private pendingRefresh: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: { store: GatewayStore; catalog: ModelCatalog; secretBox: SecretBox; clock?: () => number },
  ) {}

  /** The table in force; call `refresh()` once before serving. */
  get current(): RoutingTable {
    if (!this.table) throw new Error('RoutingCache used before its first refresh');
    return this.table;
  }

  /** Reloads the table if the stored revision differs from the one in memory; concurrent callers share one load. */
  refresh(): Promise<void> {
    this.pendingRefresh ??= this.reloadIfChanged().finally(() => {
      this.pendingRefresh = undefined;
    });
    return this.pendingRefresh;
  }

  /**
   * Resolves once a revision check that started after `since` (Unix milliseconds) has finished: used for an
   * unknown key, so a key created a moment before its first request works (see waitForCheckStartedAfter).
   */
  refreshStartedAfter(since: number, minimumGapMs: number): Promise<void> {
    return waitForCheckStartedAfter(
      {
        lastCheckStartedAt: () => this.lastCheckAt,
        pendingCheck: () => this.pendingRefresh,
        startCheck: () => this.refresh(),
        clock: () => this.now(),
      },
      since,
      minimumGapMs,
    );
  }

  /** Checks for changes every `intervalMs` until `stop()`. */
  startPolling(intervalMs: number, onError: (error: unknown) => void): void {
    this.stop();
    if (intervalMs <= 0) return;
    this.pollTimer = setInterval(() => this.refresh().catch(onError), intervalMs);
    this.pollTimer.unref();
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async reloadIfChanged(): Promise<void> {
    this.lastCheckAt = this.now();
    const { store, catalog, secretBox } = this.options;
    if (this.table && (await store.readRoutingRevision()) === this.table.revision) return;
    const records = await store.loadRoutingSnapshot();
    this.table = new RoutingTable(records, catalog, secretBox);
  }

  private now(): number {
    return this.options.clock ? this.options.clock() : Date.now();
  }
}
