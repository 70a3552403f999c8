import type { Command } from 'commander';
import { grantDefaultGroups } from '../../accounts/grant-default-groups.js';
import { normaliseEmail } from '../../accounts/normalise-email.js';
import { hashPassword } from '../../accounts/password-hash.js';
import { auditActorOfCommandLine } from '../../accounts/audit-actor.js';
import { changeUserStatus } from '../../accounts/change-user-status.js';
import type { GatewayStore } from '../../storage/gateway-store.js';
import type { ModelGroupRecord, UserRecord } from '../../storage/store-records.js';
import { parseList, printResult, withCliStore } from '../open-cli-store.js';
import { operatingSystemUserName, withCliServices } from '../open-cli-services.js';

interface UserGroupOptions {
  email: string;
  groups?: string;
  json?: boolean;
}

/** `gateway admin create` and `gateway user create|list|groups|grant|revoke|disable|enable`. */
export function registerUserCommands(program: Command): void {
  const createOptions = (command: Command) =>
    command
      .requiredOption('--email <email>', 'sign-in email, unique')
      .option('--name <name>', 'display name')
      .option('--password-env <variable>', 'read a console password from this environment variable')
      .option('--json', 'print the result as JSON');

  createOptions(
    program
      .command('admin')
      .description('manage administrators')
      .command('create')
      .description('create an administrator'),
  ).action((options) => createUser(options, 'admin'));
  const user = program.command('user').description('manage users');
  createOptions(user.command('create').description('create a user')).action((options) => createUser(options, 'user'));
  user
    .command('list')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliStore(async ({ store }) => {
        const users = (await store.listUsers()).map(hidePasswordHash);
        printResult(
          options.json,
          users,
          users
            .map((entry) => `${entry.id}  ${entry.role.padEnd(5)}  ${entry.status.padEnd(8)}  ${entry.email}`)
            .join('\n') || 'no users',
        );
      }),
    );
  const groupOptions = (command: Command) =>
    command.requiredOption('--email <email>', "the user's sign-in email").option('--json', 'print the result as JSON');
  groupOptions(user.command('groups').description('list the model groups a user holds (may create keys in)')).action(
    (options: UserGroupOptions) =>
      withCliStore(async ({ store }) => {
        const found = await requireUserByEmail(store, options.email);
        const groups = await store.listUserGroups(found.id);
        printResult(
          options.json,
          groups,
          groups.map((group) => group.name).join('\n') || `${found.email} holds no groups`,
        );
      }),
  );
  groupOptions(
    user
      .command('grant')
      .description('let a user create keys in model groups')
      .requiredOption('--groups <names>', 'comma-separated group names'),
  ).action((options: UserGroupOptions) => changeGrants(options, 'grant'));
  groupOptions(
    user
      .command('revoke')
      .description("withdraw model groups from a user; the user's keys in them stop working")
      .requiredOption('--groups <names>', 'comma-separated group names'),
  ).action((options: UserGroupOptions) => changeGrants(options, 'revoke'));
  for (const status of ['active', 'disabled'] as const) {
    user
      .command(status === 'active' ? 'enable' : 'disable')
      .description(
        status === 'active'
          ? 'let a disabled user sign in and use their keys again'
          : 'stop a user: no sign-in, sessions end, keys stop at the next refresh',
      )
      .requiredOption('--email <email>', "the user's sign-in email")
      .option('--json', 'print the changed user as JSON')
      .action((options: { email: string; json?: boolean }) =>
        withCliServices(async ({ gatewayStore, accountAdmin, billing }) => {
          const found = await requireUserByEmail(gatewayStore, options.email);
          await changeUserStatus(
            { accountAdmin, gatewayStore, exclusive: (work) => billing.exclusive(work) },
            found.id,
            status,
            auditActorOfCommandLine(operatingSystemUserName()),
          );
          await billing.announceChange();
          const changed = await requireUserByEmail(gatewayStore, options.email);
          printResult(options.json, hidePasswordHash(changed), `User ${changed.email} ${changed.status}.`);
        }),
      );
  }
}

function hidePasswordHash({ passwordHash: _passwordHash, ...rest }: UserRecord): Omit<UserRecord, 'passwordHash'> {
  return rest;
}

async function createUser(
  options: { email: string; name?: string; passwordEnv?: string; json?: boolean },
  role: 'admin' | 'user',
): Promise<void> {
  const password = options.passwordEnv ? process.env[options.passwordEnv] : undefined;
  if (options.passwordEnv && !password) throw new Error(`Environment variable ${options.passwordEnv} is empty`);
  await withCliStore(async ({ store, config, recordAction }) => {
    const created = await store.createUser({
      email: normaliseEmail(options.email),
      displayName: options.name ?? options.email.split('@')[0] ?? options.email,
      role,
      passwordHash: password ? await hashPassword(password) : null,
    });
    const groups = await grantDefaultGroups(store, created.id, config);
    await recordAction({
      action: 'user.create',
      targetType: 'user',
      targetId: created.id,
      details: { email: created.email, role, groups: groups.map((group) => group.name) },
    });
    const { passwordHash: _passwordHash, ...shown } = created;
    const granted = groups.length > 0 ? ` Granted groups: ${groups.map((group) => group.name).join(', ')}.` : '';
    printResult(
      options.json,
      { ...shown, groups: groups.map((group) => group.name) },
      `Created ${role} ${created.email} (${created.id}).${granted}`,
    );
  });
}

async function changeGrants(options: UserGroupOptions, change: 'grant' | 'revoke'): Promise<void> {
  await withCliStore(async ({ store, recordAction }) => {
    const found = await requireUserByEmail(store, options.email);
    const groups = await requireGroupsByName(store, parseList(options.groups ?? ''));
    const ids = groups.map((group) => group.id);
    const changed = new Set(
      change === 'grant' ? await store.grantUserGroups(found.id, ids) : await store.revokeUserGroups(found.id, ids),
    );
    const held = await store.listUserGroups(found.id);
    if (changed.size > 0)
      await recordAction({
        action: 'user.groups.set',
        targetType: 'user',
        targetId: found.id,
        details: {
          groups: held.map((group) => group.name),
          [change === 'grant' ? 'granted' : 'revoked']: groups
            .filter((group) => changed.has(group.id))
            .map((group) => group.name),
        },
      });
    const lines = groups.map((group) => {
      if (change === 'grant')
        return changed.has(group.id)
          ? `Granted ${group.name} to ${found.email}.`
          : `${found.email} already holds ${group.name}.`;
      return changed.has(group.id)
        ? `Revoked ${group.name} from ${found.email}; their keys in it stop working.`
        : `${found.email} did not hold ${group.name}.`;
    });
    printResult(options.json, { userId: found.id, groups: held.map((group) => group.name) }, lines.join('\n'));
  });
}

async function requireUserByEmail(store: GatewayStore, email: string): Promise<UserRecord> {
  const found = await store.findUserByEmail(normaliseEmail(email));
  if (!found) throw new Error(`No user with email ${email}; create one with 'gateway user create'`);
  return found;
}

async function requireGroupsByName(store: GatewayStore, names: string[]): Promise<ModelGroupRecord[]> {
  if (names.length === 0) throw new Error('--groups needs at least one group name');
  const all = await store.listModelGroups();
  return names.map((name) => {
    const group = all.find((candidate) => candidate.name === name);
    if (!group) throw new Error(`No group named ${name}; create one with 'gateway group create'`);
    return group;
  });
}
