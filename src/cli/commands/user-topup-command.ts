import type { Command } from 'commander';
import { normaliseEmail } from '../../accounts/normalise-email.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import type { LedgerKind } from '../../storage/billing-records.js';
import { printResult, withCliStore } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';

const creditKinds = ['top-up', 'bonus', 'adjustment', 'refund', 'redemption'] as const;

/** `gateway user topup --email --amount [--kind]`: credits a balance durably (ledger and balance in one transaction). */
export function registerUserTopupCommand(program: Command): void {
  const user =
    program.commands.find((command) => command.name() === 'user') ??
    program.command('user').description('manage users');
  user
    .command('topup')
    .description('credit (or, with a negative adjustment, debit) a user balance')
    .requiredOption('--email <email>', 'the user to credit')
    .requiredOption('--amount <amount>', 'currency units with up to six decimals, e.g. 10.50')
    .option('--kind <kind>', `ledger kind: ${creditKinds.join(', ')}`, 'top-up')
    .option('--note <text>', 'description stored in the ledger', 'top-up from the command line')
    .option('--json', 'print the result as JSON')
    .action(async (options: { email: string; amount: string; kind: string; note: string; json?: boolean }) => {
      const kind = creditKinds.find((candidate) => candidate === options.kind);
      if (!kind) throw new Error(`--kind must be one of ${creditKinds.join(', ')}`);
      const amount = parseCurrencyAmount(options.amount);
      const found = await withCliStore(({ store }) => store.findUserByEmail(normaliseEmail(options.email)));
      if (!found) throw new Error(`No user with email ${options.email}`);
      const result = await withCliBillingStore((store) =>
        store.changeBalance({
          userId: found.id,
          kind: kind satisfies LedgerKind,
          amount,
          description: options.note,
          reference: 'cli',
        }),
      );
      await withCliStore(({ recordAction }) =>
        recordAction({
          action: 'user.credit',
          targetType: 'user',
          targetId: found.id,
          details: { kind, amount, description: options.note, ledgerEntryId: result.entry.id },
        }),
      );
      printResult(
        options.json,
        result,
        `Credited ${formatMicroUnits(amount)} to ${found.email}; balance is now ${formatMicroUnits(result.balance)}.`,
      );
    });
}
