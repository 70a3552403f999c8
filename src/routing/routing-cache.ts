import type { Logger } from 'pino';
import type { ChannelSecretDecrypter } from './channel-secret-decrypter.js';
import { waitForCheckStartedAfter } from '../core/wait-for-check-started-after.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { ModelCatalogEntryRecord } from '../storage/store-records.js';
import {
  applyModelCatalogEntries,
  modelCatalogFieldsSchema,
  type ModelCatalogEntry,
} from './apply-model-catalog-overrides.js';
import type { CatalogModel } from './catalog-model.js';
import { createModelCatalog } from './model-catalog.js';
import { channelProtocols } from '../core/channel-protocol.js';
import { RoutingTable } from './routing-table.js';

/** Milliseconds between two reports of failing routing refreshes (the first failure is reported at once). */
const pollFailureReportGapMs = 10_000;

/**
 * Holds the current routing table and replaces it when the stored revision moves. The model catalog is rebuilt
 * with it: the base models (built-in catalog and the operator's file) with the admins' stored entries applied.
 */
export class RoutingCache {
  private table: RoutingTable | undefined;
  private models: readonly CatalogModel[] = [];
  private lastCheckAt = 0;
  private fullLoadCount = 0;
  private pendingRefresh: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly tableListeners: Array<(table: RoutingTable) => void> = [];

  constructor(
    private readonly options: {
      /** the full snapshot and its revision; with `loadApiKeyRoutingChanges`, key-only changes are applied key by key */
      store: Pick<GatewayStore, 'readRoutingRevision' | 'loadRoutingSnapshot'> &
        Partial<Pick<GatewayStore, 'loadApiKeyRoutingChanges'>>;
      baseModels: readonly CatalogModel[];
      secretBox: ChannelSecretDecrypter;
      clock?: () => number;
      /** told, once per rebuilt table, about channels left out because their secret does not decrypt */
      logger?: Pick<Logger, 'error'>;
    },
  ) {}

  /** True once a routing table was loaded (`/readyz` waits for it). */
  get loaded(): boolean {
    return this.table !== undefined;
  }

  /** The table in force; call `refresh()` once before serving. */
  get current(): RoutingTable {
    if (!this.table) throw new Error('RoutingCache used before its first refresh');
    return this.table;
  }

  /** The catalog before the admins' entries: built-in models and the operator's file. */
  get baseModels(): readonly CatalogModel[] {
    return this.options.baseModels;
  }

  /** Every catalog model in force: built-in, the operator's file and the admins' entries. */
  get catalogModels(): readonly CatalogModel[] {
    return this.models;
  }

  /** How many full snapshots this cache has loaded (the first included); key-only changes do not count. */
  get fullLoads(): number {
    return this.fullLoadCount;
  }

  /**
   * Brings the table up to the stored revision; concurrent callers share one load. When every change since the table's
   * revision was to single API keys, only those keys are re-read; anything else reloads the whole snapshot.
   */
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

  /** Calls `listener` with each new table once it is in force (not for the one already loaded). */
  onTableReplaced(listener: (table: RoutingTable) => void): void {
    this.tableListeners.push(listener);
  }

  /** Checks for changes every `intervalMs` until `stop()`. */
  startPolling(intervalMs: number, onError: (error: unknown) => void): void {
    this.stop();
    if (intervalMs <= 0) return;
    // A database that is down fails every tick: its first failure is reported, then one per 10 s, and polling carries on.
    let lastReportAt = Number.NEGATIVE_INFINITY;
    const report = (error: unknown): void => {
      const now = Date.now();
      if (now - lastReportAt < pollFailureReportGapMs) return;
      lastReportAt = now;
      onError(error);
    };
    this.pollTimer = setInterval(() => {
      this.refresh().then(() => {
        lastReportAt = Number.NEGATIVE_INFINITY;
      }, report);
    }, intervalMs);
    this.pollTimer.unref();
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async reloadIfChanged(): Promise<void> {
    this.lastCheckAt = this.now();
    const { store, baseModels, secretBox } = this.options;
    const previous = this.table;
    if (previous && (await store.readRoutingRevision()) === previous.revision) return;
    const keyChanges = previous && (await store.loadApiKeyRoutingChanges?.(previous.revision));
    if (previous && keyChanges) {
      this.replaceTable(new RoutingTable(keyChanges, previous));
      return;
    }
    const records = await store.loadRoutingSnapshot();
    this.fullLoadCount += 1;
    const models = applyModelCatalogEntries(baseModels, records.catalogEntries.flatMap(toCatalogEntry));
    const table = new RoutingTable(records, createModelCatalog(models), secretBox);
    this.models = models;
    this.replaceTable(table);
    if (table.unknownProtocolChannels.length > 0) {
      this.options.logger?.error(
        { channels: table.unknownProtocolChannels, revision: table.revision },
        `channels left out of routing: their protocol is none of ${channelProtocols.join(', ')}; set a supported protocol`,
      );
    }
    if (table.undecryptableChannels.length > 0) {
      this.options.logger?.error(
        { channels: table.undecryptableChannels, revision: table.revision },
        "channels left out of routing: their stored secret cannot be decrypted with this gateway's secret key (GATEWAY_SECRET_KEY); re-enter their secrets or restore the key",
      );
    }
  }

  private replaceTable(table: RoutingTable): void {
    this.table = table;
    for (const listener of this.tableListeners) listener(table);
  }

  private now(): number {
    return this.options.clock ? this.options.clock() : Date.now();
  }
}

/** A stored entry as a catalog entry; entries are validated when written, so one that no longer parses is left out. */
function toCatalogEntry(record: ModelCatalogEntryRecord): ModelCatalogEntry[] {
  const parsed = modelCatalogFieldsSchema.safeParse(record.fields);
  return parsed.success ? [{ ...parsed.data, id: record.modelId }] : [];
}
