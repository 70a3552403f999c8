import type { Command } from 'commander';
import { accountActorOfCommandLine } from '../../accounts/account-actor.js';
import { createCliApiKeyService } from '../create-cli-api-key-service.js';
import { printResult } from '../open-cli-store.js';
import { operatingSystemUserName, withCliServices } from '../open-cli-services.js';
import { registerKeyLimitsCommand } from './key-limits-command.js';
import { presentCliKey, presentCliKeys } from './present-cli-key.js';
import { requireCliKey } from './require-cli-key.js';

interface KeyCreateOptions {
  user: string;
  group: string;
  name?: string;
  expiresInDays?: string;
  json?: boolean;
}

/** `gateway key create|list|show|enable|disable|limits|delete`. */
export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .requiredOption('--user <email>', 'owner of the key')
    .requiredOption('--group <name>', 'model group the key may use')
    .option('--name <name>', 'a label for the key')
    .option('--expires-in-days <days>', 'the key stops working after this many days')
    .option('--json', 'print the result as JSON')
    .action((options: KeyCreateOptions) => createKey(options));
  key
    .command('list')
    .description('list keys with their limits (never their secrets)')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliServices(async (services) => {
        const keys = await presentCliKeys(services, await services.gatewayStore.listApiKeys());
        const lines = keys.map((entry) => `${entry.id}  ${entry.keyPrefix}…  ${entry.status.padEnd(8)}  ${entry.name}`);
        printResult(options.json, keys, lines.join('\n') || 'no keys');
      }),
    );
  key
    .command('show <id>')
    .description("one key with its spending cap, address list, request limits and the administrator's bounds")
    .option('--json', 'print the result as JSON')
    .action((id: string, options: { json?: boolean }) =>
      withCliServices(async (services) => {
        const shown = await presentCliKey(services, await requireCliKey(services, id));
        const adminLimits = await services.gatewayStore.findApiKeyAdminLimits(id);
        printResult(options.json, { ...shown, adminLimits }, JSON.stringify({ ...shown, adminLimits }, null, 2));
      }),
    );
  for (const status of ['active', 'disabled'] as const) {
    key
      .command(`${status === 'active' ? 'enable' : 'disable'} <id>`)
      .description(status === 'active' ? 'let a key work again' : 'stop a key at once (its owner cannot enable it)')
      .option('--json', 'print the changed key as JSON')
      .action((id: string, options: { json?: boolean }) =>
        withCliServices(async (services) => {
          const found = await requireCliKey(services, id);
          await createCliApiKeyService(services).setStatus(
            accountActorOfCommandLine(operatingSystemUserName()),
            found.id,
            status,
          );
          printResult(
            options.json,
            await presentCliKey(services, await requireCliKey(services, id)),
            `Key ${id} ${status}.`,
          );
        }),
      );
  }
  registerKeyLimitsCommand(key);
  key
    .command('delete <id>')
    .option('--json', 'print the result as JSON')
    .action((id: string, options: { json?: boolean }) =>
      withCliServices(async (services) => {
        const found = await requireCliKey(services, id);
        await createCliApiKeyService(services).delete(accountActorOfCommandLine(operatingSystemUserName()), found.id);
        printResult(options.json, { id: found.id, deleted: true }, `Deleted key ${id}.`);
      }),
    );
}

async function createKey(options: KeyCreateOptions): Promise<void> {
  const days = options.expiresInDays === undefined ? undefined : Number(options.expiresInDays);
  if (days !== undefined && !(days > 0)) throw new Error('--expires-in-days must be a positive number');
  await withCliServices(async (services) => {
    const store = services.gatewayStore;
    const user = await store.findUserByEmail(options.user.toLowerCase());
    if (!user) throw new Error(`No user with email ${options.user}; create one with 'gateway user create'`);
    const group = await store.findModelGroupByName(options.group);
    if (!group) throw new Error(`No group named ${options.group}; create one with 'gateway group create'`);
    // The CLI is the operator: a key in a group its user does not hold grants the group, and says so; the expiry it
    // sets binds the key's owner (planKeyLimitChange).
    const created = await createCliApiKeyService(services).create(
      accountActorOfCommandLine(operatingSystemUserName()),
      {
        userId: user.id,
        group: group.id,
        name: options.name ?? 'default',
        expiresAt: days === undefined ? null : Date.now() + days * 86_400_000,
        spendingCap: null,
        allowedIps: [],
        limits: { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
        grantGroupIfMissing: true,
      },
    );
    const { keyHash: _keyHash, ...shown } = created.view.key;
    const granted = created.grantedGroup;
    printResult(
      options.json,
      { ...shown, key: created.secret, grantedGroup: granted },
      (granted ? `Granted group ${group.name} to ${user.email} (they did not hold it).\n` : '') +
        `Created key ${shown.id} for ${user.email} in group ${group.name}.\nKey (shown once, store it now): ${created.secret}\n` +
        `Try it: curl http://127.0.0.1:${services.config.port}/v1/models -H "Authorization: Bearer ${created.secret}"`,
    );
  });
}
