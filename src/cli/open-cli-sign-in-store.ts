import { loadGatewayConfig } from '../config/gateway-config.js';
import { createSignInStore } from '../storage/kysely-sign-in-store.js';
import type { SignInStore } from '../storage/sign-in-store.js';

/** Opens the configured database as a sign-in store (migrated), runs the command, and always closes it. */
export async function withCliSignInStore<Result>(work: (store: SignInStore) => Promise<Result>): Promise<Result> {
  const config = loadGatewayConfig();
  const store = createSignInStore({ databaseUrl: config.databaseUrl });
  try {
    await store.migrate();
    return await work(store);
  } finally {
    await store.close();
  }
}
