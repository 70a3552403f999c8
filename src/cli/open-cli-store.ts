import { auditActorOfCommandLine, type AdminAction } from '../accounts/audit-actor.js';
import { createSecretBox, resolveSecretPassphrase, type SecretBox } from '../accounts/secret-box.js';
import { loadGatewayConfig, type GatewayConfig } from '../config/gateway-config.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { operatingSystemUserName } from './open-cli-services.js';

/** What a CLI command works with. */
export interface CliContext {
  config: GatewayConfig;
  store: GatewayStore;
  secretBox: SecretBox;
  /** appends the action to the audit log as actor kind `cli`, naming the OS user who ran the command */
  recordAction(action: AdminAction): Promise<void>;
}

/** Opens the configured store (migrated), runs the command, and always closes the store. */
export async function withCliStore<Result>(work: (context: CliContext) => Promise<Result>): Promise<Result> {
  const config = loadGatewayConfig();
  const store = createGatewayStore({ databaseUrl: config.databaseUrl });
  try {
    await store.migrate();
    const actor = auditActorOfCommandLine(operatingSystemUserName());
    return await work({
      config,
      store,
      secretBox: createSecretBox(resolveSecretPassphrase(config)),
      recordAction: async (action) => {
        await store.recordAuditEntry({ ...actor, ...action });
      },
    });
  } finally {
    await store.close();
  }
}

/** Prints a result as JSON when asked, else as the given human text. */
export function printResult(asJson: boolean | undefined, value: unknown, humanText: string): void {
  process.stdout.write(asJson ? `${JSON.stringify(value, null, 2)}\n` : `${humanText}\n`);
}

/** Splits `a,b , c` into `['a','b','c']`. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
