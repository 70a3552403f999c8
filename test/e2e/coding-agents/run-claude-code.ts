// Runs the real Claude Code binary from its npm platform package in print mode against a gateway with its defaults (its
// own default model, tool search on, its own betas), offline: a temporary HOME and config folder, every phone-home
// switch off, no proxy, no inherited Anthropic variables.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { runCliChild } from './run-cli-child.js';

/** What `claude -p --output-format json` prints at the end, the fields a user's script reads. */
const claudeResultSchema = z.object({
  type: z.literal('result'),
  is_error: z.boolean(),
  result: z.string(),
  num_turns: z.number(),
});

/** One finished run. */
export interface ClaudeCodeRun {
  exitCode: number | null;
  /** the printed result; undefined when stdout held no result object */
  result: z.infer<typeof claudeResultSchema> | undefined;
  stdout: string;
  stderr: string;
}

/** How to run it. */
export interface ClaudeCodeOptions {
  /** the gateway's origin, e.g. `http://127.0.0.1:PORT` */
  gatewayUrl: string;
  apiKey: string;
  prompt: string;
  /** the folder it works in */
  workDirectory: string;
  /** tools it may use without asking, e.g. `['Read']` */
  allowedTools?: string[];
  /** milliseconds before the process is killed */
  timeoutMs: number;
}

/** The native binary: the linux-x64 platform package ships it, so no postinstall copy is needed. */
export function claudeCodeBinaryPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@anthropic-ai/claude-code-linux-x64/package.json')), 'claude');
}

/** The Claude Code version in package.json's devDependencies, as installed. */
export function claudeCodeVersion(): string {
  const require = createRequire(import.meta.url);
  return z.object({ version: z.string() }).parse(require('@anthropic-ai/claude-code/package.json')).version;
}

/** Runs `claude -p <prompt> --output-format json` and resolves when it exits or is killed at the timeout. */
export async function runClaudeCode(options: ClaudeCodeOptions): Promise<ClaudeCodeRun> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'claude-code-home-'));
  try {
    const run = await runCliChild(
      claudeCodeBinaryPath(),
      [
        '-p',
        options.prompt,
        '--output-format',
        'json',
        '--strict-mcp-config',
        ...(options.allowedTools ? ['--allowedTools', options.allowedTools.join(',')] : []),
      ],
      {
        cwd: options.workDirectory,
        // Nothing inherited but PATH: no proxy, no real key, no user settings.
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
          ANTHROPIC_BASE_URL: options.gatewayUrl,
          ANTHROPIC_API_KEY: options.apiKey,
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_AUTOUPDATER: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
        timeoutMs: options.timeoutMs,
      },
    );
    return { ...run, result: parseResult(run.stdout) };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function parseResult(stdout: string): ClaudeCodeRun['result'] {
  try {
    const parsed = claudeResultSchema.safeParse(JSON.parse(stdout.trim()));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
