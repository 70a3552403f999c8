// What a started gateway keeps in memory from the start: every loaded module stays alive for the process's life, and
// under load V8's old generation grows to twice what is alive (ADR 0010), so a package loaded for a feature nobody
// configured costs twice its heap at the peak (docs/BENCHMARKS.md). Features that are off must not load theirs.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../..');

describe('modules a started gateway loads', () => {
  it('leaves out the packages of features it was not configured for', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/helpers/report-started-gateway-modules.ts'],
      {
        cwd: projectRoot,
        env: { PATH: process.env.PATH },
        timeout: 60_000,
      },
    );
    const report = JSON.parse(stdout) as { healthStatus: number; files: string[]; localeCalls: string[] };
    expect(report.healthStatus).toBe(200);
    const packagesLoaded = (name: string) => report.files.filter((file) => file.includes(`/node_modules/${name}/`));
    // The report sees what the gateway loads: its web framework, database driver and HTTP client are all there.
    expect(packagesLoaded('fastify').length).toBeGreaterThan(0);
    expect(packagesLoaded('better-sqlite3').length).toBeGreaterThan(0);
    expect(packagesLoaded('undici').length).toBeGreaterThan(0);
    // Fastify's schema compilers (the gateway validates with zod), sign-in, password hashing, Bedrock, PostgreSQL and the
    // tokenizer stay out.
    for (const name of [
      'ajv',
      '@fastify/ajv-compiler',
      'openid-client',
      'oauth4webapi',
      '@node-rs/argon2',
      '@smithy/core',
      '@smithy/eventstream-codec',
      'pg',
      'gpt-tokenizer',
      // OpenTelemetry's tracing SDK and OTLP exporters load only when an OTLP endpoint is set.
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/exporter-metrics-otlp-proto',
      '@opentelemetry/otlp-transformer',
      'protobufjs',
    ]) {
      expect(packagesLoaded(name), name).toEqual([]);
    }
    // No collation, date format or Unicode normalisation at start (the built console's file names included): ICU's
    // tables would stay resident (3 MB for a collation, 7 for a date format, 1.3 for a normalisation).
    expect(report.localeCalls).toEqual([]);
  }, 90_000);
});
