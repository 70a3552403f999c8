import type { Command } from 'commander';
import { recheckTopupOrder } from '../../accounts/payments/recheck-topup-order.js';
import { presentTopupOrder } from '../../server/api/present-topup-order.js';
import { printResult } from '../open-cli-store.js';
import { withCliServices } from '../open-cli-services.js';

/** `gateway order recheck <id>`: asks the payment provider about a top-up order and applies its answer. */
export function registerOrderCommands(program: Command): void {
  const order = program.command('order').description('top-up orders');
  order
    .command('recheck <id>')
    .description('ask the payment provider about an order (a paid order is credited once) and print the result')
    .option('--json', 'print the result as JSON')
    .action((orderId: string, options: { json?: boolean }) =>
      withCliServices(async ({ topup, recordAction }) => {
        const result = await recheckTopupOrder(topup, orderId, recordAction);
        printResult(
          options.json,
          { ...result, order: presentTopupOrder(result.order) },
          `Order ${orderId}: the provider says ${result.providerSays}; ${result.outcome}. Status: ${result.order.status}.`,
        );
      }),
    );
}
