import type { Command } from 'commander';
import { completeModelPrice } from '../../billing/complete-model-price.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import { parseNameValuePairs } from './channel-commands.js';
import { printResult } from '../open-cli-store.js';
import { withCliServices } from '../open-cli-services.js';

interface PriceSetOptions {
  input: string;
  output: string;
  cachedInput?: string;
  cacheWrite?: string;
  cacheWriteOneHour?: string;
  images?: string;
  audioPerMinute?: string;
  videoPerSecond?: string;
  json?: boolean;
}

/**
 * `gateway price list|set|delete`: the prices requests are charged at (GET and PUT /api/prices, DELETE
 * /api/prices/:model); amounts are currency units, token prices per million tokens.
 */
export function registerPriceCommands(program: Command): void {
  const price = program.command('price').description("manage models' prices (currency units; tokens per million)");
  price
    .command('list')
    .description('every priced model: operator prices, else the catalog defaults')
    .option('--json', 'print the result as JSON (micro-units)')
    .action((options: { json?: boolean }) =>
      withCliServices(async ({ billing, catalogModels }) => {
        const prices = billing.memory.listPrices(catalogModels);
        const lines = prices.map(
          (entry) =>
            `${entry.modelId}  input ${formatMicroUnits(entry.inputPerMillion)}  output ${formatMicroUnits(entry.outputPerMillion)}`,
        );
        printResult(options.json, prices, lines.join('\n') || 'no prices');
      }),
    );
  price
    .command('set <model>')
    .description("set a model's price, effective at once")
    .requiredOption('--input <amount>', 'per million input tokens')
    .requiredOption('--output <amount>', 'per million output tokens')
    .option('--cached-input <amount>', 'per million cached input tokens (default: the input price)')
    .option('--cache-write <amount>', 'per million tokens written to the cache (default: the input price)')
    .option('--cache-write-one-hour <amount>', 'per million tokens written to the 1-hour cache (default: 2× input)')
    .option('--images <pairs>', 'per image by size, e.g. 1024x1024=0.04,1792x1024=0.08')
    .option('--audio-per-minute <amount>', 'per minute of audio')
    .option('--video-per-second <amount>', 'per second of video')
    .option('--json', 'print the stored price as JSON (micro-units)')
    .action((model: string, options: PriceSetOptions) => setPrice(model, options));
  price
    .command('delete <model>')
    .description("drop the operator's price: the catalog default applies, or the model is refused without one")
    .option('--json', 'print the result as JSON')
    .action((model: string, options: { json?: boolean }) =>
      withCliServices(async ({ billing, catalogModels, recordAction }) => {
        await billing.exclusive(() => billing.store.deleteModelPrice(model));
        await recordAction({ action: 'price.delete', targetType: 'model', targetId: model, details: {} });
        await billing.announceChange();
        const fallback =
          billing.memory.priceOf(
            model,
            catalogModels.find((entry) => entry.id === model),
          ) ?? null;
        printResult(
          options.json,
          { modelId: model, price: fallback },
          fallback
            ? `Deleted the price of ${model}; the catalog default applies.`
            : `Deleted the price of ${model}; it has no price now.`,
        );
      }),
    );
}

async function setPrice(model: string, options: PriceSetOptions): Promise<void> {
  const amount = (value: string | undefined, optionName: string): number | undefined => {
    if (value === undefined) return undefined;
    const parsed = parseCurrencyAmount(value);
    if (parsed < 0) throw new Error(`${optionName} must not be negative`);
    return parsed;
  };
  const images = parseNameValuePairs(options.images, '--images');
  const price = completeModelPrice(model, {
    inputPerMillion: amount(options.input, '--input') ?? 0,
    outputPerMillion: amount(options.output, '--output') ?? 0,
    cachedInputPerMillion: amount(options.cachedInput, '--cached-input'),
    cacheWritePerMillion: amount(options.cacheWrite, '--cache-write'),
    cacheWriteOneHourPerMillion: amount(options.cacheWriteOneHour, '--cache-write-one-hour'),
    imagePrices: Object.fromEntries(
      Object.entries(images).map(([size, value]) => [size, amount(value, '--images') ?? 0]),
    ),
    audioPerMinute: amount(options.audioPerMinute, '--audio-per-minute'),
    videoPerSecond: amount(options.videoPerSecond, '--video-per-second'),
  });
  await withCliServices(async ({ billing, recordAction }) => {
    await billing.exclusive(() => billing.store.setModelPrice(price));
    await recordAction({ action: 'price.set', targetType: 'model', targetId: model, details: { price } });
    await billing.announceChange();
    printResult(
      options.json,
      price,
      `Price of ${model}: input ${formatMicroUnits(price.inputPerMillion)}, output ${formatMicroUnits(price.outputPerMillion)} per million tokens.`,
    );
  });
}
