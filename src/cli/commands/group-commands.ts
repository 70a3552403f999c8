import type { Command } from 'commander';
import { parseList, printResult, withCliStore } from '../open-cli-store.js';

/** `gateway group create|list|set-models|delete`. */
export function registerGroupCommands(program: Command): void {
  const group = program.command('group').description('manage model groups (every key belongs to one)');
  group
    .command('create <name>')
    .requiredOption('--models <ids>', "comma-separated model ids, or '*' for every served model")
    .option('--description <text>', 'what the group is for', '')
    .option('--json', 'print the result as JSON')
    .action((name: string, options: { models: string; description: string; json?: boolean }) =>
      withCliStore(async ({ store }) => {
        const created = await store.createModelGroup({
          name,
          description: options.description,
          models: parseList(options.models),
        });
        printResult(options.json, created, `Created group ${created.name} with ${created.models.join(', ')}.`);
      }),
    );
  group
    .command('list')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliStore(async ({ store }) => {
        const groups = await store.listModelGroups();
        printResult(
          options.json,
          groups,
          groups.map((entry) => `${entry.name}: ${entry.models.join(', ')}`).join('\n') || 'no groups',
        );
      }),
    );
  group
    .command('set-models <name>')
    .requiredOption('--models <ids>', "comma-separated model ids, or '*'")
    .action((name: string, options: { models: string }) =>
      withCliStore(async ({ store }) => {
        const found = await store.findModelGroupByName(name);
        if (!found) throw new Error(`No group named ${name}`);
        await store.setModelGroupModels(found.id, parseList(options.models));
        process.stdout.write(`Group ${name} now has ${options.models}.\n`);
      }),
    );
  group.command('delete <name>').action((name: string) =>
    withCliStore(async ({ store }) => {
      const found = await store.findModelGroupByName(name);
      if (!found) throw new Error(`No group named ${name}`);
      await store.deleteModelGroup(found.id);
      process.stdout.write(`Deleted group ${name}.\n`);
    }),
  );
}
