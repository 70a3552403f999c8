import { loadGatewayConfig } from '../config/gateway-config.js';
import { createDatabase } from '../storage/create-database.js';
import { createVideoTaskStore } from '../storage/kysely-video-task-store.js';
import type { VideoTaskStore } from '../storage/video-task-store.js';

/** Opens the configured database as a video task store (already migrated by the caller), runs the command, and closes it. */
export async function withCliVideoTaskStore<Result>(work: (store: VideoTaskStore) => Promise<Result>): Promise<Result> {
  const { database } = createDatabase(loadGatewayConfig().databaseUrl);
  try {
    return await work(createVideoTaskStore(database));
  } finally {
    await database.destroy();
  }
}
