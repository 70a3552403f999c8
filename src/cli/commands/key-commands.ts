import type { Command } from 'commander';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../accounts/api-key-secret.js';
import { auditActorOfCommandLine } from '../../accounts/audit-actor.js';
import { changeApiKeyStatus } from '../../accounts/change-api-key-status.js';
import { deleteApiKey } from '../../accounts/delete-api-key.js';
import { planKeyLimitChange } from '../../accounts/plan-key-limit-change.js';
import { printResult, withCliStore } from '../open-cli-store.js';
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
          const actor = auditActorOfCommandLine(operatingSystemUserName());
          await services.billing.exclusive(() =>
            changeApiKeyStatus(services.gatewayStore, found, status, 'admin', actor),
          );
          await services.billing.announceKeyChange();
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
        const actor = auditActorOfCommandLine(operatingSystemUserName());
        await services.billing.exclusive(() => deleteApiKey(services.gatewayStore, found, 'admin', actor));
        await services.billing.announceKeyChange();
        printResult(options.json, { id: found.id, deleted: true }, `Deleted key ${id}.`);
      }),
    );
}

async function createKey(options: KeyCreateOptions): Promise<void> {
  await withCliStore(async ({ store, config, recordAction }) => {
    const user = await store.findUserByEmail(options.user.toLowerCase());
    if (!user) throw new Error(`No user with email ${options.user}; create one with 'gateway user create'`);
    const group = await store.findModelGroupByName(options.group);
    if (!group) throw new Error(`No group named ${options.group}; create one with 'gateway group create'`);
    const days = options.expiresInDays === undefined ? undefined : Number(options.expiresInDays);
    if (days !== undefined && !(days > 0)) throw new Error('--expires-in-days must be a positive number');
    // The CLI is the operator: a key in a group its user does not hold grants the group, and says so.
    const granted = (await store.grantUserGroups(user.id, [group.id])).length > 0;
    const secret = generateApiKeySecret();
    const created = await store.createApiKey({
      userId: user.id,
      groupId: group.id,
      name: options.name ?? 'default',
      keyHash: hashApiKeySecret(secret),
      keyPrefix: displayPrefixOf(secret),
      expiresAt: days === undefined ? null : Date.now() + days * 86_400_000,
    });
    // The CLI is an administrator: the expiry it sets binds the key's owner (planKeyLimitChange).
    const adminLimits = planKeyLimitChange('admin', {}, { expiresAt: created.expiresAt });
    if (Object.keys(adminLimits).length > 0) await store.setApiKeyAdminLimits(created.id, adminLimits);
    await recordAction({
      action: 'key.create',
      targetType: 'api_key',
      targetId: created.id,
      details: {
        userId: user.id,
        group: group.name,
        name: created.name,
        expiresAt: created.expiresAt,
        grantedGroup: granted,
      },
    });
    const { keyHash: _keyHash, ...shown } = created;
    printResult(
      options.json,
      { ...shown, key: secret, grantedGroup: granted },
      (granted ? `Granted group ${group.name} to ${user.email} (they did not hold it).\n` : '') +
        `Created key ${created.id} for ${user.email} in group ${group.name}.\nKey (shown once, store it now): ${secret}\n` +
        `Try it: curl http://127.0.0.1:${config.port}/v1/models -H "Authorization: Bearer ${secret}"`,
    );
  });
}
