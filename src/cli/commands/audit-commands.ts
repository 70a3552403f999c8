import type { Command } from 'commander';
import { printResult, withCliStore } from '../open-cli-store.js';

/** `gateway audit list [--action] [--target] [--limit]`: the audit log newest first, as GET /api/admin/audit-log. */
export function registerAuditCommands(program: Command): void {
  program
    .command('audit')
    .description("administrators' actions")
    .command('list')
    .description('the audit log, newest first')
    .option('--action <action>', 'only this action, e.g. key.disable')
    .option('--target <id>', 'only entries about this record')
    .option('--limit <count>', 'at most this many (1 to 500)', '50')
    .option('--json', 'print the result as JSON')
    .action((options: { action?: string; target?: string; limit: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new Error('--limit must be 1 to 500');
      return withCliStore(async ({ store }) => {
        const entries = await store.listAuditEntries({ action: options.action, targetId: options.target, limit });
        printResult(
          options.json,
          entries,
          entries
            .map(
              (entry) =>
                `${new Date(entry.createdAt).toISOString()}  ${entry.actorLabel}  ${entry.action}  ${entry.targetId ?? ''}`,
            )
            .join('\n') || 'no entries',
        );
      });
    });
}
