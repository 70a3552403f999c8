// SQLite's writer binds each settled row as values in column order; PostgreSQL inserts row objects. Both must write
// the same columns with the same values, for every field a row can carry.
import { describe, expect, it } from 'vitest';
import type { SettledCharge, UsageLogRecord } from '../../src/storage/billing-records.js';
import { sumUsageLogs } from '../../src/storage/sum-usage-logs.js';
import {
  settlementLedgerEncoding,
  usageLogEncoding,
  type BatchRowEncoding,
} from '../../src/storage/write-settlement-batch.js';

function expectSameRow<Item, Row extends { id: string }>(encoding: BatchRowEncoding<Item, Row>, item: Item): void {
  const row = encoding.toRow(item);
  expect(encoding.toValues(item)).toEqual(encoding.columns.map((column) => row[column] ?? null));
  // Every column of the row object is bound, none twice.
  expect([...encoding.columns].sort()).toEqual(Object.keys(row).sort());
  expect(encoding.idOf(item)).toBe(row.id);
}

const usageLog: UsageLogRecord = {
  id: 'use_1',
  createdAt: 1_764_633_600_123,
  userId: 'usr_1',
  apiKeyId: 'key_1',
  model: 'claude-sonnet-4-5',
  channelId: 'chn_1',
  endpoint: 'messages',
  promptTokens: 1_200,
  completionTokens: 340,
  cachedTokens: 100,
  cacheWriteTokens: 50,
  cacheWriteOneHourTokens: 20,
  cost: 12_345,
  status: 200,
  errorCode: 'upstream_error',
  latencyMs: 812,
  firstTokenMs: 95,
  streamed: true,
  clientIp: '203.0.113.9',
  requestId: 'req_1',
  pricing: {
    inputPerMillion: 3_000_000,
    cachedInputPerMillion: 300_000,
    cacheWritePerMillion: 3_750_000,
    cacheWriteOneHourPerMillion: 6_000_000,
    outputPerMillion: 15_000_000,
    priceRatioMillionths: 1_250_000,
    imageCost: 40_000,
    audioMilliseconds: 61_000,
    audioPerMinute: 6_000,
    videoCost: 7,
  },
};

describe('settled rows as SQLite binds them and as PostgreSQL inserts them', () => {
  it('a usage log with every field set, and one refused before it was priced', () => {
    expectSameRow(usageLogEncoding, usageLog);
    expectSameRow(usageLogEncoding, {
      ...usageLog,
      pricing: null,
      channelId: null,
      errorCode: null,
      firstTokenMs: null,
      requestId: null,
      streamed: false,
      cacheWriteOneHourTokens: undefined,
    });
  });

  it('a settlement charge, covered by the balance or partly left as debt', () => {
    const charge: SettledCharge = {
      id: 'led_1',
      userId: 'usr_1',
      apiKeyId: 'key_1',
      amount: 900,
      debt: 0,
      requestId: 'use_1',
      createdAt: 1_764_633_600_999,
    };
    expectSameRow(settlementLedgerEncoding, charge);
    expectSameRow(settlementLedgerEncoding, { ...charge, amount: 100, debt: 800 });
    expect(settlementLedgerEncoding.toRow({ ...charge, debt: 800 }).description).toMatch(/debt/);
  });
});

describe('sumUsageLogs', () => {
  it('keeps users, keys, models and buckets apart when their rows interleave, and adds up runs of alike rows', () => {
    const row = (overrides: Partial<UsageLogRecord>): UsageLogRecord => ({ ...usageLog, ...overrides });
    const sums = sumUsageLogs(
      [
        row({ userId: 'usr_a', cost: 1 }),
        row({ userId: 'usr_a', cost: 2, status: 500 }),
        row({ userId: 'usr_b', cost: 4 }),
        row({ userId: 'usr_a', cost: 8 }),
        row({ userId: 'usr_a', apiKeyId: 'key_2', cost: 16 }),
        row({ userId: 'usr_a', model: 'other', cost: 32 }),
        row({ userId: 'usr_a', createdAt: usageLog.createdAt + 3_600_000, cost: 64 }),
      ],
      (createdAt) => Math.floor(createdAt / 3_600_000),
    );
    expect(
      sums.map((sum) => [sum.user_id, sum.api_key_id, sum.model, sum.request_count, sum.error_count, sum.cost]),
    ).toEqual(
      expect.arrayContaining([
        ['usr_a', 'key_1', 'claude-sonnet-4-5', 3, 1, 11],
        ['usr_b', 'key_1', 'claude-sonnet-4-5', 1, 0, 4],
        ['usr_a', 'key_2', 'claude-sonnet-4-5', 1, 0, 16],
        ['usr_a', 'key_1', 'other', 1, 0, 32],
        ['usr_a', 'key_1', 'claude-sonnet-4-5', 1, 0, 64],
      ]),
    );
    expect(sums).toHaveLength(5);
  });
});
