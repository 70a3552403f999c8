import os from 'node:os';
import { destination } from 'pino';
import { auditActorOfCommandLine, type AdminAction } from '../accounts/audit-actor.js';
import { createTopupService } from '../accounts/payments/create-topup-service.js';
import { loadPaymentConfig } from '../accounts/payments/payment-config.js';
import type { TopupService } from '../accounts/payments/topup-service.js';
import { loadBillingConfig } from '../billing/billing-config.js';
import { BillingRuntime } from '../billing/billing-runtime.js';
import { loadGatewayConfig, type GatewayConfig } from '../config/gateway-config.js';
import { createLogger } from '../observability/create-logger.js';
import { openVerifiedSecretBox } from '../runtime/open-verified-secret-box.js';
import { RoutingCache } from '../routing/routing-cache.js';
import { applyModelCatalogOverrides } from '../routing/apply-model-catalog-overrides.js';
import type { CatalogModel } from '../routing/catalog-model.js';
import { modelCatalogData } from '../routing/model-catalog-data.js';
import type { AccountAdminStore } from '../storage/account-admin-store.js';
import { createDatabase } from '../storage/create-database.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createAccountAdminStore } from '../storage/kysely-account-admin-store.js';
import { createBillingStore } from '../storage/kysely-billing-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { createTopupOrderStore } from '../storage/kysely-topup-order-store.js';

/** What an administrator's CLI command works with: the same stores and services the /api routes use. */
export interface CliServices {
  config: GatewayConfig;
  gatewayStore: GatewayStore;
  /** billing state read from the database; no Redis, so running gateways pick changes up at their next refresh */
  billing: BillingRuntime;
  accountAdmin: AccountAdminStore;
  topup: TopupService;
  /** the model catalog in force (built-in, GATEWAY_MODEL_CATALOG_FILE and admins' entries), for default prices */
  catalogModels: readonly CatalogModel[];
  /** appends the action to the audit log as actor kind `cli`, naming the OS user who ran the command */
  recordAction(action: AdminAction): Promise<void>;
}

/** Opens the configured database (migrated) with the /api's services, runs the command, and always closes them. */
export async function withCliServices<Result>(work: (services: CliServices) => Promise<Result>): Promise<Result> {
  const config = loadGatewayConfig();
  const logger = createLogger('warn', destination(2));
  const database = createDatabase(config.databaseUrl);
  const opened: Array<() => Promise<void>> = [() => database.database.destroy()];
  try {
    const gatewayStore = createGatewayStore({ database });
    await gatewayStore.migrate();
    // The same secret-key check as `gateway start`: another node's key must not seal what the gateway cannot open.
    const secretBox = await openVerifiedSecretBox({
      config,
      database: database.database,
      store: gatewayStore,
      logger,
      now: Date.now(),
    });
    const billingStore = createBillingStore({ database });
    const catalogModels = applyModelCatalogOverrides(modelCatalogData, config.modelCatalogFile);
    // No Redis and no timers: one command reads the database once and writes through the same store functions.
    const billingConfig = {
      ...loadBillingConfig(),
      redisUrl: undefined,
      reloadIntervalMs: 0,
      usageLogRetentionDays: 0,
    };
    const billing = await BillingRuntime.start({
      store: billingStore,
      config: billingConfig,
      logger,
      clock: Date.now,
      revisionCheckIntervalMs: 0,
      catalogModels,
    });
    opened.unshift(() => billing.close());
    const topup = await createTopupService({
      config: loadPaymentConfig(process.env),
      store: createTopupOrderStore(database.database),
      billing,
      logger,
      clock: Date.now,
    });
    const actor = auditActorOfCommandLine(operatingSystemUserName());
    // The catalog in force (admins' entries included) supplies default prices, exactly as GET /api/prices.
    const routing = new RoutingCache({
      store: gatewayStore,
      baseModels: catalogModels,
      secretBox,
      logger,
    });
    await routing.refresh();
    return await work({
      config,
      gatewayStore,
      billing,
      accountAdmin: createAccountAdminStore(database.database),
      topup,
      catalogModels: routing.catalogModels,
      recordAction: async (action) => {
        await gatewayStore.recordAuditEntry({ ...actor, ...action });
      },
    });
  } finally {
    for (const close of opened) await close();
  }
}

/** The OS account running the command (`USER` when the account database has no name for it). */
export function operatingSystemUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}
