import type { Command } from 'commander';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../accounts/console-token.js';
import { printResult } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';

/** `gateway admin token [--name]`: creates a token for the /api with admin rights; it is printed once. */
export function registerAdminTokenCommand(program: Command): void {
  const admin = program.commands.find((command) => command.name() === 'admin') ?? program.command('admin').description('manage administrators');
  admin
    .command('token')
    .description('create an admin token for the /api (shown once)')
    .option('--name <name>', 'a label for the token', 'admin')
    .option('--json', 'print the result as JSON')
    .action((options: { name: string; json?: boolean }) =>
      withCliBillingStore(async (store) => {
        const token = generateConsoleToken(adminTokenPrefix);
        await store.createAdminToken({ tokenHash: hashConsoleToken(token), name: options.name });
        printResult(options.json, { name: options.name, token }, `Admin token (shown once, store it now): ${token}`);
      }),
    );
}
