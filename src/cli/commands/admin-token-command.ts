import { InvalidArgumentError, type Command } from 'commander';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../accounts/console-token.js';
import { printResult, withCliStore } from '../open-cli-store.js';
import { withCliSignInStore } from '../open-cli-sign-in-store.js';

/** Days an admin token lives unless `--expires-in-days` says otherwise. */
const defaultAdminTokenDays = 90;

/**
 * `gateway admin token [--name] [--expires-in-days]`: creates a token for the /api with admin rights (printed once);
 * `gateway admin token list` and `gateway admin token revoke <id>` manage them.
 */
export function registerAdminTokenCommand(program: Command): void {
  const admin =
    program.commands.find((command) => command.name() === 'admin') ??
    program.command('admin').description('manage administrators');
  const token = admin
    .command('token')
    .description('create an admin token for the /api (shown once); `list` and `revoke <id>` manage them')
    .option('--name <name>', 'a label for the token', 'admin')
    .option('--expires-in-days <days>', 'days until the token is refused', parsePositiveDays, defaultAdminTokenDays)
    .option('--json', 'print the result as JSON')
    .action((options: { name: string; expiresInDays: number; json?: boolean }) =>
      withCliSignInStore(async (store) => {
        const secret = generateConsoleToken(adminTokenPrefix);
        const record = await store.createAdminToken({
          tokenHash: hashConsoleToken(secret),
          name: options.name,
          expiresAt: Date.now() + options.expiresInDays * 86_400_000,
        });
        await withCliStore(({ recordAction }) =>
          recordAction({
            action: 'admin-token.create',
            targetType: 'admin-token',
            targetId: record.id,
            details: { name: record.name, expiresAt: record.expiresAt },
          }),
        );
        printResult(
          options.json,
          { ...record, token: secret },
          `Admin token ${record.id} (shown once, store it now; expires ${new Date(record.expiresAt).toISOString()}): ${secret}`,
        );
      }),
    );
  token
    .command('list')
    .description('list admin tokens (never their secrets)')
    .option('--json', 'print the result as JSON')
    // `--json` may land on the parent `token` command, which declares it too.
    .action((_options: unknown, command: Command) =>
      withCliSignInStore(async (store) => {
        const { json } = command.optsWithGlobals<{ json?: boolean }>();
        const tokens = await store.listAdminTokens();
        const now = Date.now();
        const lines = tokens.map(
          (record) =>
            `${record.id}  ${record.name}  expires ${new Date(record.expiresAt).toISOString()}${record.expiresAt <= now ? ' (expired)' : ''}`,
        );
        printResult(json, tokens, lines.length === 0 ? 'No admin tokens.' : lines.join('\n'));
      }),
    );
  token
    .command('revoke <id>')
    .description('revoke an admin token at once')
    .option('--json', 'print the result as JSON')
    .action((tokenId: string, _options: unknown, command: Command) =>
      withCliSignInStore(async (store) => {
        const { json } = command.optsWithGlobals<{ json?: boolean }>();
        if (!(await store.deleteAdminToken(tokenId))) throw new Error(`No admin token ${tokenId}`);
        await withCliStore(({ recordAction }) =>
          recordAction({ action: 'admin-token.revoke', targetType: 'admin-token', targetId: tokenId, details: {} }),
        );
        printResult(json, { id: tokenId, revoked: true }, `Admin token ${tokenId} revoked.`);
      }),
    );
}

function parsePositiveDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3_650)
    throw new InvalidArgumentError('expected a whole number of days from 1 to 3650');
  return days;
}
