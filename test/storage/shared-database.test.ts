// The gateway store and the billing store share one database in a running gateway. On SQLite, two connections in
// one process could interleave transactions into a "database is locked" stall; one shared connection cannot.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../src/config/gateway-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';

describe('one database shared by the gateway and billing stores', () => {
  let gateway: RunningGateway | undefined;
  let dataDirectory: string | undefined;

  afterEach(async () => {
    await gateway?.close();
    if (dataDirectory) await rm(dataDirectory, { recursive: true, force: true });
  });

  async function start(databaseUrl: (directory: string) => string): Promise<RunningGateway> {
    dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-shared-database-'));
    const config = {
      ...loadGatewayConfig({}),
      port: 0,
      host: '127.0.0.1',
      dataDirectory,
      databaseUrl: databaseUrl(dataDirectory),
      secretKey: 'shared-database-test-secret-key-of-32-bytes',
      logLevel: 'silent',
    };
    return startGateway(config, createLogger('silent'), { billing: { enabled: true } });
  }

  it('interleaves writes of both stores without a lock error on a SQLite file', async () => {
    gateway = await start((directory) => `sqlite:${path.join(directory, 'gateway.db')}`);
    const running = gateway;
    const users = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        running.store.createUser({
          email: `user${index}@example.com`,
          displayName: 'u',
          role: 'user',
          passwordHash: null,
        }),
      ),
    );
    await Promise.all(
      users.flatMap((user, index) => [
        running.billing.changeBalance({ userId: user.id, kind: 'top-up', amount: 1_000_000, description: 'test' }),
        running.store.createModelGroup({ name: `group-${index}`, description: '', models: ['*'] }),
      ]),
    );
    expect(await running.store.listModelGroups()).toHaveLength(20);
  });

  it('runs with billing on an in-memory SQLite database', async () => {
    gateway = await start(() => 'sqlite::memory:');
    const user = await gateway.store.createUser({
      email: 'memory@example.com',
      displayName: 'm',
      role: 'user',
      passwordHash: null,
    });
    const change = await gateway.billing.changeBalance({
      userId: user.id,
      kind: 'top-up',
      amount: 5_000_000,
      description: 'test',
    });
    expect(change.balance).toBe(5_000_000);
  });
});
