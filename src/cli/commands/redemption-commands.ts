import type { Command } from 'commander';
import { createRedemptionBatch, disableRedemptionCodes } from '../../accounts/create-redemption-batch.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import type { RedemptionCodeStatus } from '../../storage/account-admin-store.js';
import { printResult } from '../open-cli-store.js';
import { operatingSystemUserName, withCliServices } from '../open-cli-services.js';

const codeStatuses: readonly RedemptionCodeStatus[] = ['active', 'redeemed', 'disabled', 'expired'];

/** `gateway redemption create|list|disable`: batches of codes users redeem for balance (as /api/admin/redemption-codes). */
export function registerRedemptionCommands(program: Command): void {
  const redemption = program.command('redemption').description('manage redemption codes (redeemed for balance)');
  redemption
    .command('create')
    .description('create a batch of codes; the full codes are printed once')
    .requiredOption('--amount <amount>', 'currency units each code credits, e.g. 10.50')
    .requiredOption('--count <count>', 'how many codes (1 to 1000)')
    .option('--expires-in-days <days>', 'the codes cannot be redeemed after this many days')
    .option('--note <text>', 'what the batch is for')
    .option('--json', 'print the batch and its codes as JSON')
    .action((options: { amount: string; count: string; expiresInDays?: string; note?: string; json?: boolean }) => {
      const amount = parseCurrencyAmount(options.amount);
      const count = Number(options.count);
      const days = options.expiresInDays === undefined ? undefined : Number(options.expiresInDays);
      if (days !== undefined && !(days > 0)) throw new Error('--expires-in-days must be a positive number');
      const now = Date.now();
      return withCliServices(async ({ accountAdmin, recordAction }) => {
        const batch = await createRedemptionBatch(
          accountAdmin,
          {
            amount,
            count,
            expiresAt: days === undefined ? null : now + Math.round(days * 86_400_000),
            note: options.note ?? null,
            createdBy: `cli ${operatingSystemUserName()}`,
          },
          now,
          recordAction,
        );
        printResult(
          options.json,
          batch,
          [
            `Batch ${batch.batchId}: ${batch.count} codes of ${batch.amountText} (shown once, store them now):`,
            ...batch.codes.map((code) => code.code),
          ].join('\n'),
        );
      });
    });
  redemption
    .command('list')
    .description('codes newest first, by prefix (never the full codes)')
    .option('--batch <id>', 'only this batch')
    .option('--status <status>', `only ${codeStatuses.join(', ')}`)
    .option('--limit <count>', 'at most this many (1 to 1000)', '100')
    .option('--json', 'print the result as JSON')
    .action((options: { batch?: string; status?: string; limit: string; json?: boolean }) => {
      const status = codeStatuses.find((candidate) => candidate === options.status);
      if (options.status !== undefined && !status)
        throw new Error(`--status must be one of ${codeStatuses.join(', ')}`);
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new Error('--limit must be 1 to 1000');
      return withCliServices(async ({ accountAdmin }) => {
        const codes = (
          await accountAdmin.listRedemptionCodes({ batchId: options.batch, status, limit, now: Date.now() })
        ).map((code) => ({ ...code, amountText: formatMicroUnits(code.amount) }));
        printResult(
          options.json,
          codes,
          codes
            .map(
              (code) =>
                `${code.id}  ${code.codePrefix}…  ${code.status.padEnd(8)}  ${code.amountText}  ${code.batchId}`,
            )
            .join('\n') || 'no codes',
        );
      });
    });
  redemption
    .command('disable')
    .description('disable the active codes of a batch, or one code')
    .option('--batch <id>', 'every active code of this batch')
    .option('--code <id>', 'this one code (its id, not its text)')
    .option('--json', 'print the result as JSON')
    .action((options: { batch?: string; code?: string; json?: boolean }) => {
      if ((options.batch === undefined) === (options.code === undefined))
        throw new Error('Give exactly one of --batch and --code');
      const target = options.batch !== undefined ? { batchId: options.batch } : { codeId: options.code ?? '' };
      return withCliServices(async ({ accountAdmin, recordAction }) => {
        const disabled = await disableRedemptionCodes(accountAdmin, target, Date.now(), recordAction);
        printResult(options.json, { ...target, disabled }, `Disabled ${disabled} code${disabled === 1 ? '' : 's'}.`);
      });
    });
}
