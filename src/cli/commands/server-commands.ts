import type { Command } from 'commander';
import { loadGatewayConfig } from '../../config/gateway-config.js';
import { createLogger } from '../../observability/create-logger.js';
import { startGateway } from '../../runtime/start-gateway.js';
import { handleShutdownSignals } from '../handle-shutdown-signals.js';
import { withCliStore } from '../open-cli-store.js';

/** `gateway start` and `gateway migrate`. */
export function registerServerCommands(program: Command): void {
  program
    .command('start')
    .description('run the gateway (migrates the database first)')
    .option('--port <port>', 'overrides GATEWAY_PORT')
    .option('--host <host>', 'overrides GATEWAY_HOST')
    .action(async (options: { port?: string; host?: string }) => {
      const config = loadGatewayConfig({
        ...process.env,
        ...(options.port ? { GATEWAY_PORT: options.port } : {}),
        ...(options.host ? { GATEWAY_HOST: options.host } : {}),
      });
      const logger = createLogger(config.logLevel, undefined, { format: config.logFormat ?? 'auto' });
      const gateway = await startGateway(config, logger);
      handleShutdownSignals({ close: () => gateway.close(), logger });
      const users = await gateway.store.listUsers();
      logger.info(
        { url: gateway.url, database: config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'postgres' },
        'gateway listening',
      );
      // The setup token goes to a terminal only, never to stdout, where the JSON log (and a log collector) reads.
      if (gateway.setupUrl && process.stderr.isTTY) {
        process.stderr.write(
          `\nNo administrator yet. Create the first one at this one-time setup URL (or with \`gateway admin create\`):\n  ${gateway.setupUrl}\n`,
        );
      } else if (gateway.setupUrl) {
        process.stderr.write(
          `\nNo administrator yet. The one-time setup URL is in ${gateway.setupUrlFile ?? 'no file (the data folder is not writable)'}; or run \`gateway admin create\`.\n`,
        );
      }
      if (users.length === 0) {
        process.stdout.write(
          `\nNo users yet. In another terminal:\n` +
            `  npx gateway group create default --models '*'\n` +
            `  npx gateway admin create --email admin@example.com\n` +
            `  OPENAI_API_KEY=sk-... npx gateway channel create --name openai --preset openai --secret-env OPENAI_API_KEY --models gpt-4o-mini\n` +
            `  npx gateway user topup --email admin@example.com --amount 10\n` +
            `  npx gateway key create --user admin@example.com --group default\n\n`,
        );
      }
    });
  program
    .command('migrate')
    .description('create or upgrade the database schema')
    .action(() =>
      withCliStore(async ({ config }) => {
        process.stdout.write(
          `Database at ${config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'postgres'} is up to date.\n`,
        );
      }),
    );
}
