import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig, loadVideoTaskConfig } from './gateway-config.js';

describe('video task configuration', () => {
  it('has the documented defaults, the video folder under the data directory', () => {
    expect(loadGatewayConfig({ GATEWAY_DATA_DIR: '/srv/gateway' }).videoTasks).toEqual({
      storageDirectory: path.resolve('/srv/gateway/videos'),
      timeoutMinutes: 60,
      retentionHours: 24,
      pollIntervalMs: 1_000,
      leaseMs: 300_000,
      maxBytes: 2 * 1024 * 1024 * 1024,
    });
  });

  it('reads each from the environment and refuses values that cannot work', () => {
    const environment = {
      GATEWAY_VIDEO_STORAGE_DIR: '/mnt/videos',
      GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES: '30',
      GATEWAY_VIDEO_RETENTION_HOURS: '48',
      GATEWAY_VIDEO_POLL_INTERVAL_MS: '500',
      GATEWAY_VIDEO_LEASE_MS: '60000',
      GATEWAY_VIDEO_MAX_BYTES: '104857600',
    };
    expect(loadVideoTaskConfig(environment, '/data')).toEqual({
      storageDirectory: path.resolve('/mnt/videos'),
      timeoutMinutes: 30,
      retentionHours: 48,
      pollIntervalMs: 500,
      leaseMs: 60_000,
      maxBytes: 104_857_600,
    });
    expect(() => loadVideoTaskConfig({ GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES: '0' }, '/data')).toThrow(/at least 1/);
    expect(() => loadVideoTaskConfig({ GATEWAY_VIDEO_LEASE_MS: '10' }, '/data')).toThrow(/at least 1000/);
    expect(() => loadVideoTaskConfig({ GATEWAY_VIDEO_MAX_BYTES: '0' }, '/data')).toThrow(
      /MAX_BYTES must be at least 1/,
    );
  });
});
