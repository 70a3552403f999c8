import type { Command } from 'commander';
import { hashPassword } from '../../accounts/password-hash.js';
import { printResult, withCliStore } from '../open-cli-store.js';

/** `gateway admin create` and `gateway user create|list`. */
export function registerUserCommands(program: Command): void {
  const createOptions = (command: Command) =>
    command
      .requiredOption('--email <email>', 'sign-in email, unique')
      .option('--name <name>', 'display name')
      .option('--password-env <variable>', 'read a console password from this environment variable')
      .option('--json', 'print the result as JSON');

  createOptions(program.command('admin').description('manage administrators').command('create').description('create an administrator')).action(
    (options) => createUser(options, 'admin'),
  );
  const user = program.command('user').description('manage users');
  createOptions(user.command('create').description('create a user')).action((options) => createUser(options, 'user'));
  user
    .command('list')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliStore(async ({ store }) => {
        const users = (await store.listUsers()).map(({ passwordHash: _passwordHash, ...rest }) => rest);
        printResult(options.json, users, users.map((entry) => `${entry.id}  ${entry.role.padEnd(5)}  ${entry.status.padEnd(8)}  ${entry.email}`).join('\n') || 'no users');
      }),
    );
}

async function createUser(options: { email: string; name?: string; passwordEnv?: string; json?: boolean }, role: 'admin' | 'user'): Promise<void> {
  const password = options.passwordEnv ? process.env[options.passwordEnv] : undefined;
  if (options.passwordEnv && !password) throw new Error(`Environment variable ${options.passwordEnv} is empty`);
  await withCliStore(async ({ store }) => {
    const created = await store.createUser({
      email: options.email.toLowerCase(),
      displayName: options.name ?? options.email.split('@')[0] ?? options.email,
      role,
      passwordHash: password ? await hashPassword(password) : null,
    });
    const { passwordHash: _passwordHash, ...shown } = created;
    printResult(options.json, shown, `Created ${role} ${created.email} (${created.id}).`);
  });
}
