import type { Kysely, Migration } from 'kysely';

/** The usage log's pricing columns, in order: what a settled request's cost was computed from. */
const pricingColumns = [
  'price_input_per_million',
  'price_cached_input_per_million',
  'price_cache_write_per_million',
  'price_output_per_million',
  'price_ratio_millionths',
  'image_cost',
  'audio_milliseconds',
  'price_audio_per_minute',
  'video_cost',
] as const;

/**
 * Each usage log keeps what its cost was computed from (prices per million tokens before the ratio, the ratio applied,
 * and the cost of images, audio and video), so the console can explain a bill. Nullable plain integers: rows written
 * before this migration, and refused requests, have none.
 */
export const usageLogPricingMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    // One column per statement: SQLite adds a single column per ALTER TABLE.
    for (const column of pricingColumns)
      await database.schema.alterTable('usage_logs').addColumn(column, 'bigint').execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    for (const column of [...pricingColumns].reverse())
      await database.schema.alterTable('usage_logs').dropColumn(column).execute();
  },
};
