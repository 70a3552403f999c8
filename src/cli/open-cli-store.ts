import { destination } from 'pino';
import { auditActorOfCommandLine, type AdminAction } from '../accounts/audit-actor.js';
import type { SecretBox } from '../accounts/secret-box.js';
import { loadGatewayConfig, type GatewayConfig } from '../config/gateway-config.js';
import { createLogger } from '../observability/create-logger.js';
import { openVerifiedSecretBox } from '../runtime/open-verified-secret-box.js';
import { createDatabase } from '../storage/create-database.js';
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

/**
 * Opens the configured store (migrated), runs the command, and always closes the store. The secret key is checked
 * against the database's first, as `gateway start` does, so a CLI with another node's key never seals a secret the
 * gateway cannot open.
 */
export async function withCliStore<Result>(work: (context: CliContext) => Promise<Result>): Promise<Result> {
  const config = loadGatewayConfig();
  const database = createDatabase(config.databaseUrl);
  const store = createGatewayStore({ database });
  try {
    await store.migrate();
    const logger = createLogger('warn', destination(2));
    const secretBox = await openVerifiedSecretBox({
      config,
      database: database.database,
      store,
      logger,
      now: Date.now(),
    });
    const actor = auditActorOfCommandLine(operatingSystemUserName());
    return await work({
      config,
      store,
      secretBox,
      recordAction: async (action) => {
        await store.recordAuditEntry({ ...actor, ...action });
      },
    });
  } finally {
    await store.close();
    await database.database.destroy();
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
