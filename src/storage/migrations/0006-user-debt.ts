import type { Kysely, Migration } from 'kysely';

/**
 * Debt: what a user owes when a request cost more than the balance could cover (docs/BILLING.md). `users.debt`
 * (micro-units ≥ 0) always equals the sum of the user's `ledger_entries.debt_change` (signed micro-units), as
 * `users.balance` equals the sum of `amount`.
 */
export const userDebtMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .alterTable('users')
      .addColumn('debt', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await database.schema
      .alterTable('ledger_entries')
      .addColumn('debt_change', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('ledger_entries').dropColumn('debt_change').execute();
    await database.schema.alterTable('users').dropColumn('debt').execute();
  },
};
