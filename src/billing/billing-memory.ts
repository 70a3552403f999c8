import { BlockList, isIP } from 'node:net';
import type { ApiKeyBillingRecord, BillingSnapshotRecords, RequestLimits } from '../storage/billing-records.js';
import type { ApiKeyBillingChanges } from '../storage/load-api-key-billing-changes.js';
import { neutralPriceRatio } from './calculate-request-cost.js';
import type { CatalogModel, ModelPrices } from '../routing/catalog-model.js';
import { defaultPriceModelId } from './default-price-model-id.js';
import { mapCatalogPrices, type ModelPrice } from './model-price.js';

/** A user's money as this node sees it: the durable balance minus charges not yet written, live holds, and debt. */
export interface UserMoney {
  /** micro-units: stored balance minus this node's unflushed charges */
  balance: number;
  /** micro-units held by requests in flight */
  held: number;
  /** micro-units owed: stored debt plus this node's unflushed debt; new requests are refused while above zero */
  debt: number;
  limits: RequestLimits;
}

/** A key's spend and restrictions in memory. */
export interface KeyMoney {
  spendingCap: number | null;
  /** micro-units settled, including unflushed charges */
  spent: number;
  /** micro-units held by requests in flight */
  held: number;
  /** null when any address may use the key */
  allowedAddresses: BlockList | null;
  /** the allow-list as stored, for display */
  allowedIpList: string[];
  limits: RequestLimits;
}

/**
 * Balances, holds, prices and key restrictions in memory: the hot path reads and changes only this. Reloaded
 * from a snapshot whenever the billing revision moves; holds survive reloads.
 */
export class BillingMemory {
  revision = -1;
  private users = new Map<string, UserMoney>();
  private keys = new Map<string, KeyMoney>();
  private prices = new Map<string, ModelPrice>();
  private groupRatios = new Map<string, number>();
  private readonly catalogPrices: ReadonlyMap<string, ModelPrice>;
  /** alias -> the pinned id it names, of the catalog known at start */
  private readonly catalogAliases: ReadonlyMap<string, string>;
  private keysCheckedMissing = new Set<string>();

  /** `catalogModels` supply the default prices (their `defaultPrices`). */
  constructor(catalogModels: readonly CatalogModel[] = []) {
    this.catalogPrices = mapCatalogModelPrices(catalogModels);
    this.catalogAliases = mapCatalogAliases(catalogModels);
  }

  /**
   * Replaces stored values with a snapshot; `pendingByUser`/`pendingByKey` are charges, and `pendingDebtByUser`
   * debts, not yet in the snapshot.
   */
  load(
    snapshot: BillingSnapshotRecords,
    pendingByUser: ReadonlyMap<string, number>,
    pendingByKey: ReadonlyMap<string, number>,
    pendingDebtByUser: ReadonlyMap<string, number> = new Map(),
  ): void {
    const users = new Map<string, UserMoney>();
    for (const user of snapshot.users) {
      users.set(user.userId, {
        balance: user.balance - (pendingByUser.get(user.userId) ?? 0),
        held: this.users.get(user.userId)?.held ?? 0,
        debt: user.debt + (pendingDebtByUser.get(user.userId) ?? 0),
        limits: user.limits,
      });
    }
    const keys = new Map<string, KeyMoney>();
    for (const key of snapshot.apiKeys) keys.set(key.apiKeyId, this.keyMoneyOf(key, pendingByKey));
    this.users = users;
    this.keys = keys;
    this.keysCheckedMissing = new Set();
    this.prices = new Map(snapshot.prices.map((price) => [price.modelId, price]));
    this.groupRatios = new Map(snapshot.groupPriceRatios.map((entry) => [entry.groupId, entry.priceRatioMillionths]));
    this.revision = snapshot.revision;
  }

  /**
   * Re-reads the given keys only (created, changed or deleted) and moves to `changes.revision`; holds survive, and
   * `pendingByKey` are this node's charges not yet in the stored spend.
   */
  applyKeyChanges(changes: ApiKeyBillingChanges, pendingByKey: ReadonlyMap<string, number>): void {
    const keys = new Map(this.keys);
    for (const apiKeyId of changes.changedApiKeyIds) {
      keys.delete(apiKeyId);
      this.keysCheckedMissing.delete(apiKeyId);
    }
    for (const key of changes.apiKeys) keys.set(key.apiKeyId, this.keyMoneyOf(key, pendingByKey));
    this.keys = keys;
    this.revision = changes.revision;
  }

  user(userId: string): UserMoney {
    let user = this.users.get(userId);
    if (!user) {
      // A user created after the last reload has no money yet; the entry keeps holds consistent until it loads.
      user = {
        balance: 0,
        held: 0,
        debt: 0,
        limits: { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
      };
      this.users.set(userId, user);
    }
    return user;
  }

  /** Debt owed by the users this node knows, in micro-units, and how many owe it; a pass over them (for `/metrics`). */
  outstandingDebt(): { microUnits: number; users: number } {
    let microUnits = 0;
    let users = 0;
    for (const user of this.users.values()) {
      if (user.debt <= 0) continue;
      microUnits += user.debt;
      users += 1;
    }
    return { microUnits, users };
  }

  key(apiKeyId: string): KeyMoney | undefined {
    return this.keys.get(apiKeyId);
  }

  private keyMoneyOf(key: ApiKeyBillingRecord, pendingByKey: ReadonlyMap<string, number>): KeyMoney {
    return {
      spendingCap: key.spendingCap,
      spent: key.spent + (pendingByKey.get(key.apiKeyId) ?? 0),
      held: this.keys.get(key.apiKeyId)?.held ?? 0,
      allowedAddresses: createAddressList(key.allowedIps),
      allowedIpList: key.allowedIps,
      limits: key.limits,
    };
  }

  /** True when the key is unknown here and no reload since the last one was asked to look for it. */
  shouldLookForKey(apiKeyId: string): boolean {
    return !this.keys.has(apiKeyId) && !this.keysCheckedMissing.has(apiKeyId);
  }

  /** Remembers, until the next reload, that a reload did not find the key (keys made outside the /api have no settings). */
  markKeyMissing(apiKeyId: string): void {
    if (!this.keys.has(apiKeyId)) this.keysCheckedMissing.add(apiKeyId);
  }

  /**
   * The price a model is billed at (docs/BILLING.md, prices): the operator's price on the id asked for; for an alias,
   * else the operator's price on the pinned id it names; else the catalog's list price (of the request's catalog entry,
   * when given); else the operator's default price (the `*` entry). Undefined when none applies: such a model is
   * refused, never billed at a made-up price (requireModelPrice).
   */
  priceOf(modelId: string, catalogModel?: CatalogModel): ModelPrice | undefined {
    const operatorPrice = this.prices.get(modelId);
    if (operatorPrice) return operatorPrice;
    const pinnedId =
      (catalogModel?.id === modelId ? catalogModel.aliasOf : undefined) ?? this.catalogAliases.get(modelId);
    const pinnedPrice = pinnedId === undefined ? undefined : this.prices.get(pinnedId);
    if (pinnedPrice) return pinnedPrice;
    if (catalogModel?.defaultPrices)
      return catalogModel.id === modelId
        ? catalogEntryPriceOf(catalogModel, catalogModel.defaultPrices)
        : mapCatalogPrices(modelId, catalogModel.defaultPrices);
    return this.catalogPrices.get(modelId) ?? this.prices.get(defaultPriceModelId);
  }

  /**
   * Every model with a price: the catalog's (the given models, else those known at start) overlaid with the operator's;
   * an alias the operator did not price itself shows its pinned id's operator price, as it is billed. The operator's
   * default price, if set, is listed as `*`.
   */
  listPrices(catalogModels?: readonly CatalogModel[]): ModelPrice[] {
    const merged = new Map(catalogModels ? mapCatalogModelPrices(catalogModels) : this.catalogPrices);
    const aliases = catalogModels ? mapCatalogAliases(catalogModels) : this.catalogAliases;
    for (const [alias, pinnedId] of aliases) {
      const pinnedPrice = this.prices.get(pinnedId);
      if (pinnedPrice && !this.prices.has(alias)) merged.set(alias, { ...pinnedPrice, modelId: alias });
    }
    for (const [modelId, price] of this.prices) merged.set(modelId, price);
    return [...merged.values()].sort((left, right) => left.modelId.localeCompare(right.modelId));
  }

  priceRatioOf(groupId: string): number {
    return this.groupRatios.get(groupId) ?? neutralPriceRatio;
  }
}

// Every admission and settlement asks for its model's price: mapped once per catalog entry (entries are replaced, not
// changed, when the catalog reloads), not once per call.
const catalogEntryPrices = new WeakMap<CatalogModel, ModelPrice>();

/** A catalog entry's list prices (its `defaultPrices`) under its own id. */
function catalogEntryPriceOf(catalogModel: CatalogModel, listPrices: ModelPrices): ModelPrice {
  let price = catalogEntryPrices.get(catalogModel);
  if (price === undefined) {
    price = mapCatalogPrices(catalogModel.id, listPrices);
    catalogEntryPrices.set(catalogModel, price);
  }
  return price;
}

/** The list prices of catalog models, by id and by alias. */
function mapCatalogModelPrices(catalogModels: readonly CatalogModel[]): Map<string, ModelPrice> {
  const catalogPrices = new Map<string, ModelPrice>();
  for (const model of catalogModels) {
    if (model.defaultPrices) catalogPrices.set(model.id, mapCatalogPrices(model.id, model.defaultPrices));
  }
  for (const [alias, pinnedId] of mapCatalogAliases(catalogModels)) {
    const pinned = catalogPrices.get(pinnedId);
    if (pinned) catalogPrices.set(alias, { ...pinned, imagePrices: { ...pinned.imagePrices }, modelId: alias });
  }
  return catalogPrices;
}

/** Alias -> the pinned id it names; an id always wins over another model's alias, as in the catalog. */
function mapCatalogAliases(catalogModels: readonly CatalogModel[]): Map<string, string> {
  const ids = new Set(catalogModels.map((model) => model.id));
  const aliases = new Map<string, string>();
  for (const model of catalogModels)
    for (const alias of model.aliases ?? []) if (!ids.has(alias)) aliases.set(alias, model.id);
  return aliases;
}

function createAddressList(entries: readonly string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0) continue;
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** True when the list allows the client address; IPv4-mapped IPv6 addresses are checked as IPv4. */
export function isAddressAllowed(list: BlockList | null, clientIp: string): boolean {
  if (list === null) return true;
  const address = clientIp.startsWith('::ffff:') && isIP(clientIp.slice(7)) === 4 ? clientIp.slice(7) : clientIp;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(address) === 0) return false;
  return list.check(address, family);
}
