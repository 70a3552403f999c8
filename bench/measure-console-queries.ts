// Times the console's usage queries (summaries, charts, refusals, first pages of logs) on a temporary SQLite database
// filled with one number of usage rows and then with another (default 1 million and 10 million), over the same 90 days
// of retention, and prints the larger/smaller ratio of each query. Run: node --import tsx bench/measure-console-queries.ts
// [--sizes 1000000,10000000] [--runs 15]. The fill writes straight through better-sqlite3 in large transactions.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import type { BillingStore } from '../src/storage/billing-store.js';
import { createDatabase } from '../src/storage/create-database.js';
import { createBillingStore } from '../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../src/storage/kysely-gateway-store.js';

const day = 86_400_000;
const hour = 3_600_000;
const retentionDays = 90;
const userCount = 200;
const keysPerUser = 2;
const models = [
  'gpt-4o',
  'gpt-4o-mini',
  'claude-sonnet-4',
  'claude-haiku-4',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'o3',
  'o4-mini',
];
/** a fixed "now" so both databases hold the same window */
const now = Date.UTC(2026, 11, 1, 12);

/** One console query: its name and how the store is asked (what the /api route behind the console view calls). */
interface ConsoleQuery {
  name: string;
  run: (store: BillingStore, fixture: Fixture) => Promise<unknown>;
}

/** The users and keys of a filled database. */
interface Fixture {
  userIds: string[];
  apiKeyIds: string[];
}

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

const queries: ConsoleQuery[] = [
  {
    name: 'daily summary, 30 days, one user (dashboard)',
    run: (store, { userIds }) =>
      store.listUsageSummaries({ userId: userIds[7], fromDay: utcDay(now - 29 * day), toDay: utcDay(now) }),
  },
  {
    name: 'daily summary, 30 days, everyone (admin)',
    run: (store) => store.listUsageSummaries({ fromDay: utcDay(now - 29 * day), toDay: utcDay(now) }),
  },
  {
    name: 'hourly chart, 24 hours, one user',
    run: (store, { userIds }) => store.listHourlyUsage({ userId: userIds[7], from: now - 24 * hour, to: now }),
  },
  {
    name: 'hourly chart, 24 hours, everyone',
    run: (store) => store.listHourlyUsage({ from: now - 24 * hour, to: now }),
  },
  {
    name: 'refusals, 24 hours, everyone',
    run: (store) => store.listRefusedRequestCounts({ from: now - 24 * hour, to: now }),
  },
  {
    name: 'keys page: last use of one user’s keys',
    run: (store, { userIds }) => store.listApiKeyLastUsedTimes({ userId: userIds[7] }),
  },
  { name: 'logs, first page, everyone', run: (store) => store.listUsageLogs({ limit: 50 }) },
  {
    name: 'logs, first page, one user',
    run: (store, { userIds }) => store.listUsageLogs({ userId: userIds[7], limit: 50 }),
  },
  {
    name: 'logs, first page, one key',
    run: (store, { apiKeyIds }) => store.listUsageLogs({ apiKeyId: apiKeyIds[11], limit: 50 }),
  },
  { name: 'logs, first page, one model', run: (store) => store.listUsageLogs({ model: models[3], limit: 50 }) },
  {
    name: 'logs, first page, one user and 5xx',
    run: (store, { userIds }) => store.listUsageLogs({ userId: userIds[7], statusClass: 5, limit: 50 }),
  },
  {
    name: 'logs, first page, last 24 hours, one user',
    run: (store, { userIds }) => store.listUsageLogs({ userId: userIds[7], from: now - day, to: now, limit: 50 }),
  },
];

/** A small deterministic generator (mulberry32), so both sizes get the same mix. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Makes the users and keys through the product's store (and its migrations), then closes it. */
async function createFixture(file: string): Promise<Fixture> {
  const opened = createDatabase(`sqlite:${file}`);
  const gatewayStore = createGatewayStore({ database: opened });
  await gatewayStore.migrate();
  await createBillingStore({ database: opened }).migrate();
  const group = await gatewayStore.createModelGroup({ name: 'bench', description: '', models: ['*'] });
  const fixture: Fixture = { userIds: [], apiKeyIds: [] };
  for (let index = 0; index < userCount; index++) {
    const user = await gatewayStore.createUser({
      email: `bench-${index}@example.test`,
      displayName: `Bench ${index}`,
      role: 'user',
      passwordHash: null,
    });
    fixture.userIds.push(user.id);
    for (let key = 0; key < keysPerUser; key++) {
      const created = await gatewayStore.createApiKey({
        userId: user.id,
        groupId: group.id,
        name: `key ${key}`,
        keyHash: `${index}-${key}`.padEnd(64, '0'),
        keyPrefix: 'sk-gw-bench',
        expiresAt: null,
      });
      fixture.apiKeyIds.push(created.id);
    }
  }
  await opened.database.destroy();
  return fixture;
}

/** Sums of one rollup row. */
interface RollupSums {
  requests: number;
  errors: number;
  prompt: number;
  completion: number;
  cost: number;
}

/**
 * Writes `rows` usage logs spread evenly over the retention window (each key with its own model; 1 % 429s, 1 % 5xx),
 * the hourly and daily rollups they add up to, a refused-request count per 100 rows, and each key's last use.
 */
function fillUsage(file: string, fixture: Fixture, rows: number): void {
  const connection = new SqliteDatabase(file);
  // No journal while filling a throwaway file (the gateway's WAL returns below): large transactions go straight in.
  connection.pragma('journal_mode = OFF');
  connection.pragma('synchronous = OFF');
  connection.pragma('locking_mode = EXCLUSIVE');
  connection.pragma('cache_size = -262144');
  const random = createRandom(41);
  const insertLog = connection.prepare(
    `insert into usage_logs (id, created_at, user_id, api_key_id, model, channel_id, endpoint, prompt_tokens,
     completion_tokens, cached_tokens, cache_write_tokens, cost, status, error_code, latency_ms, first_token_ms,
     streamed, client_ip, request_id, cache_write_one_hour_tokens) values
     (?, ?, ?, ?, ?, 'chn_bench', 'chat.completions', ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, '10.0.0.1', ?, 0)`,
  );
  const insertRefusal = connection.prepare(
    `insert into refused_request_counts (minute, user_id, api_key_id, model, status, error_code, count)
     values (?, ?, ?, ?, 429, 'rate_limit_exceeded', 1)
     on conflict do update set count = count + 1`,
  );
  const hourly = new Map<string, RollupSums>();
  const daily = new Map<string, RollupSums>();
  const lastUsed = new Map<number, number>();
  const add = (
    sums: Map<string, RollupSums>,
    key: string,
    status: number,
    prompt: number,
    completion: number,
    cost: number,
  ) => {
    let sum = sums.get(key);
    if (!sum) {
      sum = { requests: 0, errors: 0, prompt: 0, completion: 0, cost: 0 };
      sums.set(key, sum);
    }
    sum.requests += 1;
    if (status >= 400) sum.errors += 1;
    sum.prompt += prompt;
    sum.completion += completion;
    sum.cost += cost;
  };
  const start = now - retentionDays * day;
  const step = (retentionDays * day) / rows;
  const chunk = 200_000;
  const insertChunk = connection.transaction((first: number, last: number) => {
    for (let index = first; index < last; index++) {
      const createdAt = Math.floor(start + index * step);
      const keyIndex = Math.floor(random() * fixture.apiKeyIds.length);
      const userId = fixture.userIds[Math.floor(keyIndex / keysPerUser)]!;
      const apiKeyId = fixture.apiKeyIds[keyIndex]!;
      const model = models[keyIndex % models.length]!;
      const draw = random();
      const status = draw < 0.01 ? 500 : draw < 0.02 ? 429 : 200;
      const prompt = 200 + Math.floor(random() * 2_000);
      const completion = status === 200 ? 50 + Math.floor(random() * 500) : 0;
      const cost = prompt * 2 + completion * 8;
      insertLog.run(
        `log_${index.toString(36).padStart(9, '0')}`,
        createdAt,
        userId,
        apiKeyId,
        model,
        prompt,
        completion,
        cost,
        status,
        status === 200 ? null : status === 429 ? 'rate_limit_exceeded' : 'upstream_error',
        300 + Math.floor(random() * 3_000),
        status === 200 ? 100 + Math.floor(random() * 500) : null,
        draw < 0.5 ? 1 : 0,
        `req_${index.toString(36).padStart(9, '0')}`,
      );
      const hourStart = createdAt - (createdAt % hour);
      add(hourly, `${hourStart}\u0000${keyIndex}`, status, prompt, completion, cost);
      add(daily, `${utcDay(createdAt)}\u0000${keyIndex}`, status, prompt, completion, cost);
      lastUsed.set(keyIndex, createdAt);
      if (index % 100 === 0) {
        const minute = createdAt - (createdAt % 60_000);
        insertRefusal.run(minute, userId, apiKeyId, model);
        add(hourly, `${hourStart}\u0000${keyIndex}`, 429, 0, 0, 0);
        add(daily, `${utcDay(createdAt)}\u0000${keyIndex}`, 429, 0, 0, 0);
      }
    }
  });
  for (let first = 0; first < rows; first += chunk) insertChunk(first, Math.min(rows, first + chunk));
  const writeRollups = connection.transaction(() => {
    const insertHourly = connection.prepare(
      `insert into usage_hourly_rollups (hour, user_id, api_key_id, model, request_count, error_count, prompt_tokens,
       completion_tokens, cached_tokens, cost) values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    );
    const insertDaily = connection.prepare(
      `insert into usage_daily_rollups (day, user_id, api_key_id, model, request_count, error_count, prompt_tokens,
       completion_tokens, cached_tokens, cost) values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    );
    const rowOf = (key: string, sum: RollupSums) => {
      const [bucket, keyText] = key.split('\u0000') as [string, string];
      const keyIndex = Number(keyText);
      return [
        bucket,
        fixture.userIds[Math.floor(keyIndex / keysPerUser)],
        fixture.apiKeyIds[keyIndex],
        models[keyIndex % models.length],
        sum.requests,
        sum.errors,
        sum.prompt,
        sum.completion,
        sum.cost,
      ] as const;
    };
    for (const [key, sum] of hourly) {
      const row = rowOf(key, sum);
      insertHourly.run(Number(row[0]), ...row.slice(1));
    }
    for (const [key, sum] of daily) insertDaily.run(...rowOf(key, sum));
    const setLastUsed = connection.prepare('update api_keys set last_used_at = ? where id = ?');
    for (const [keyIndex, time] of lastUsed) setLastUsed.run(time, fixture.apiKeyIds[keyIndex]);
  });
  writeRollups();
  connection.exec('analyze');
  connection.pragma('locking_mode = NORMAL');
  connection.pragma('journal_mode = WAL');
  connection.close();
}

/** One query's median time and how many rows (records) it answered. */
interface QueryTiming {
  /** milliseconds */
  median: number;
  rows: number;
}

/** How many records an answer holds: an array's length, a map's size. */
function countRows(answer: unknown): number {
  if (Array.isArray(answer)) return answer.length;
  if (answer instanceof Map) return answer.size;
  return 1;
}

/** The median of each query's `runs` timings (after two warm-up runs), in milliseconds, through the product's store. */
async function timeQueries(file: string, fixture: Fixture, runs: number): Promise<Map<string, QueryTiming>> {
  const opened = createDatabase(`sqlite:${file}`);
  const store = createBillingStore({ database: opened });
  const medians = new Map<string, QueryTiming>();
  try {
    for (const query of queries) {
      const timings: number[] = [];
      let rows = 0;
      for (let run = 0; run < runs + 2; run++) {
        const startedAt = performance.now();
        rows = countRows(await query.run(store, fixture));
        if (run >= 2) timings.push(performance.now() - startedAt);
      }
      timings.sort((left, right) => left - right);
      medians.set(query.name, { median: timings[Math.floor(timings.length / 2)]!, rows });
    }
  } finally {
    await opened.database.destroy();
  }
  return medians;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sizes: { type: 'string', default: '1000000,10000000' }, runs: { type: 'string', default: '15' } },
  });
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.length !== 2 || sizes.some((size) => !Number.isInteger(size) || size < 1000))
    throw new Error('--sizes takes two row counts, e.g. 1000000,10000000');
  const runs = Number(values.runs);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'console-queries-'));
  const results: Array<{ rows: number; fillSeconds: number; medians: Map<string, QueryTiming> }> = [];
  try {
    for (const rows of sizes) {
      const file = path.join(folder, `usage-${rows}.db`);
      const fixture = await createFixture(file);
      const startedAt = performance.now();
      fillUsage(file, fixture, rows);
      const fillSeconds = (performance.now() - startedAt) / 1000;
      process.stderr.write(
        `filled ${rows.toLocaleString('en')} usage rows in ${fillSeconds.toFixed(1)} s (load average ${os.loadavg()[0]!.toFixed(1)})\n`,
      );
      results.push({ rows, fillSeconds, medians: await timeQueries(file, fixture, runs) });
      await rm(file, { force: true });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  const label = (rows: number) => `${(rows / 1_000_000).toLocaleString('en')}M`;
  const lines = [
    `| query | ${label(small.rows)} rows: ms (median of ${runs}) | answered | ${label(large.rows)} rows: ms | answered | ratio |`,
    '|---|---|---|---|---|---|',
  ];
  let worst = 0;
  for (const query of queries) {
    const before = small.medians.get(query.name)!;
    const after = large.medians.get(query.name)!;
    const ratio = after.median / before.median;
    worst = Math.max(worst, ratio);
    lines.push(
      `| ${query.name} | ${before.median.toFixed(2)} | ${before.rows} | ${after.median.toFixed(2)} | ${after.rows} | ${ratio.toFixed(2)}× |`,
    );
  }
  process.stdout.write(
    `${lines.join('\n')}\n\nworst ratio ${worst.toFixed(2)}× (target within 1.5×); load average at the end ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
}

await main();
