import { loadGatewayConfig } from '../config/gateway-config.js';
import type { BillingStore } from '../storage/billing-store.js';
import { createBillingStore } from '../storage/kysely-billing-store.js';

/** Opens the configured database as a billing store (migrated), runs the command, and always closes it. */
export async function withCliBillingStore<Result>(work: (store: BillingStore) => Promise<Result>): Promise<Result> {
  const config = loadGatewayConfig();
  const store = createBillingStore({ databaseUrl: config.databaseUrl });
  try {
    await store.migrate();
    return await work(store);
  } finally {
    await store.close();
  }
}
