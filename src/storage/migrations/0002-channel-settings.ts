import type { Kysely, Migration } from 'kysely';

/** Protocol-specific channel settings (Azure api-version, Bedrock region, ...) as a JSON object. */
export const channelSettingsMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .alterTable('channels')
      .addColumn('settings', 'text', (column) => column.notNull().defaultTo('{}'))
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('channels').dropColumn('settings').execute();
  },
};
