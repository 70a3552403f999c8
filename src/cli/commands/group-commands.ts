import type { Command } from 'commander';
import { maxPriceRatioMillionths } from '../../billing/max-price-ratio.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import { parseList, printResult, withCliStore } from '../open-cli-store.js';
import { withCliServices } from '../open-cli-services.js';

/** `gateway group create|list|set-models|price-ratio|delete`. */
export function registerGroupCommands(program: Command): void {
  const group = program.command('group').description('manage model groups (every key belongs to one)');
  group
    .command('create <name>')
    .requiredOption('--models <ids>', "comma-separated model ids, or '*' for every served model")
    .option('--description <text>', 'what the group is for', '')
    .option('--json', 'print the result as JSON')
    .action((name: string, options: { models: string; description: string; json?: boolean }) =>
      withCliStore(async ({ store, recordAction }) => {
        const input = { name, description: options.description, models: parseList(options.models) };
        const created = await store.createModelGroup(input);
        await recordAction({ action: 'group.create', targetType: 'group', targetId: created.id, details: input });
        printResult(options.json, created, `Created group ${created.name} with ${created.models.join(', ')}.`);
      }),
    );
  group
    .command('list')
    .description('every group with its models and price ratio (millionths; 1000000 is list price)')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliServices(async ({ gatewayStore, billing }) => {
        const groups = (await gatewayStore.listModelGroups()).map((entry) => ({
          ...entry,
          priceRatioMillionths: billing.memory.priceRatioOf(entry.id),
        }));
        printResult(
          options.json,
          groups,
          groups
            .map(
              (entry) =>
                `${entry.name}: ${entry.models.join(', ')} (price ×${formatMicroUnits(entry.priceRatioMillionths)})`,
            )
            .join('\n') || 'no groups',
        );
      }),
    );
  group
    .command('set-models <name>')
    .requiredOption('--models <ids>', "comma-separated model ids, or '*'")
    .option('--json', 'print the changed group as JSON')
    .action((name: string, options: { models: string; json?: boolean }) =>
      withCliStore(async ({ store, recordAction }) => {
        const found = await store.findModelGroupByName(name);
        if (!found) throw new Error(`No group named ${name}`);
        const models = parseList(options.models);
        await store.setModelGroupModels(found.id, models);
        await recordAction({ action: 'group.update', targetType: 'group', targetId: found.id, details: { models } });
        printResult(options.json, { ...found, models }, `Group ${name} now has ${models.join(', ')}.`);
      }),
    );
  group
    .command('price-ratio <name>')
    .description("multiply the prices of the group's keys, e.g. --ratio 0.8 for 20% off (1 is list price)")
    .requiredOption('--ratio <ratio>', 'a decimal with at most six places, from 0 to 1000')
    .option('--json', 'print the result as JSON')
    .action((name: string, options: { ratio: string; json?: boolean }) =>
      withCliServices(async ({ gatewayStore, billing, recordAction }) => {
        const priceRatioMillionths = parseCurrencyAmount(options.ratio);
        if (priceRatioMillionths < 0 || priceRatioMillionths > maxPriceRatioMillionths)
          throw new Error('--ratio must be from 0 to 1000');
        const found = await gatewayStore.findModelGroupByName(name);
        if (!found) throw new Error(`No group named ${name}`);
        await billing.exclusive(() => billing.store.setGroupPriceRatio(found.id, priceRatioMillionths));
        await recordAction({
          action: 'group.price-ratio.set',
          targetType: 'group',
          targetId: found.id,
          details: { priceRatioMillionths },
        });
        await billing.announceChange();
        printResult(
          options.json,
          { groupId: found.id, name: found.name, priceRatioMillionths },
          `Group ${name} pays ×${options.ratio} of list prices.`,
        );
      }),
    );
  group
    .command('delete <name>')
    .option('--json', 'print the result as JSON')
    .action((name: string, options: { json?: boolean }) =>
      withCliStore(async ({ store, recordAction }) => {
        const found = await store.findModelGroupByName(name);
        if (!found) throw new Error(`No group named ${name}`);
        await store.deleteModelGroup(found.id);
        await recordAction({ action: 'group.delete', targetType: 'group', targetId: found.id, details: { name } });
        printResult(options.json, { id: found.id, name, deleted: true }, `Deleted group ${name}.`);
      }),
    );
}
