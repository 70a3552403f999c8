import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createVideoTaskStore } from '../../src/storage/kysely-video-task-store.js';

let dataDirectory: string;
let databaseUrl: string;

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-task-verify-'));
  databaseUrl = `sqlite:${path.join(dataDirectory, 'gateway.db')}`;
});

afterAll(async () => {
  await rm(dataDirectory, { recursive: true, force: true });
});

async function runCli(...args: string[]): Promise<{ code: number; stdout: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env: { ...process.env, GATEWAY_DATA_DIR: dataDirectory, GATEWAY_DATABASE_URL: databaseUrl },
  }).then(
    (result) => ({ code: 0, stdout: result.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

describe('gateway billing verify and video task holds', () => {
  it('passes with an open hold on a running task and fails naming a finished task that keeps its hold', async () => {
    const created = createDatabase(databaseUrl);
    const gatewayStore = createGatewayStore({ database: created });
    await gatewayStore.migrate();
    const user = await gatewayStore.createUser({
      email: 'maker@example.test',
      displayName: 'Maker',
      role: 'user',
      passwordHash: null,
    });
    const group = await gatewayStore.createModelGroup({ name: 'default', description: '', models: ['*'] });
    const key = await gatewayStore.createApiKey({
      userId: user.id,
      groupId: group.id,
      name: 'k',
      keyHash: 'b'.repeat(64),
      keyPrefix: 'sk-gw-bbbb',
      expiresAt: null,
    });
    await createBillingStore({ database: created }).changeBalance({
      userId: user.id,
      kind: 'top-up',
      amount: 1_000_000,
      description: 'test',
    });
    const held = await createVideoTaskStore(created.database).createWithHold({
      id: 'task_cli',
      userId: user.id,
      apiKeyId: key.id,
      groupId: group.id,
      surface: 'openai',
      publicModel: 'sora-test',
      upstreamModel: 'sora-2',
      prompt: 'p',
      requestedSeconds: 4,
      seconds: 4,
      width: 720,
      height: 1280,
      createdAt: 1,
      expiresAt: 2,
      heldAmount: 400_000,
      pricePerSecond: 100_000,
      priceRatioMillionths: 1_000_000,
      nextPollAt: 1,
      requestId: 'r',
    });
    expect(held.outcome).toBe('held');

    const verified = await runCli('billing', 'verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/every video task hold adds up/);

    // Tampered: marked completed without the settlement that releases its hold.
    await created.database
      .updateTable('video_tasks')
      .set({ state: 'completed' })
      .where('id', '=', 'task_cli')
      .execute();
    await created.database.destroy();
    const broken = await runCli('billing', 'verify', '--json');
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      mismatches: [],
      taskHoldMismatches: [
        { taskId: 'task_cli', state: 'completed', problem: expect.stringMatching(/terminal task keeps a hold/) },
      ],
    });
    // Two CLI runs, each a child process compiled at start: on a loaded machine they take longer than a test does.
  }, 120_000);
});
