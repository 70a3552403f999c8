// Runs the real Codex CLI from its npm package (`codex exec --json`) against a gateway, offline: a temporary
// CODEX_HOME whose config.toml points a custom provider at the gateway, plugins and analytics off, no proxy.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { runCliChild } from './run-cli-child.js';

/** The `codex exec --json` events a user's script reads (one JSON object a line). */
const codexEventSchema = z.looseObject({
  type: z.string(),
  item: z.looseObject({ type: z.string(), text: z.string().optional(), command: z.string().optional() }).optional(),
});

/** One `codex exec --json` event. */
export type CodexEvent = z.infer<typeof codexEventSchema>;

/** One finished run. */
export interface CodexRun {
  exitCode: number | null;
  /** the JSON lines of stdout that parsed as events */
  events: CodexEvent[];
  stdout: string;
  stderr: string;
}

/** How to run it. */
export interface CodexRunOptions {
  /** the gateway's origin, e.g. `http://127.0.0.1:PORT` */
  gatewayUrl: string;
  apiKey: string;
  prompt: string;
  /** the model id Codex asks for */
  model: string;
  /** the folder it works in */
  workDirectory: string;
  /** `--sandbox`; Codex's default for exec is `read-only` (edits are rejected) */
  sandbox?: 'workspace-write';
  /** milliseconds before the process is killed */
  timeoutMs: number;
}

/** The config.toml the gateway needs; everything else stays Codex's default. */
export function codexConfigFor(gatewayUrl: string, model: string): string {
  return [
    `model = ${JSON.stringify(model)}`,
    'model_provider = "gateway"',
    // The default ("cached") sends OpenAI's hosted web_search tool, which the gateway refuses.
    'web_search = "disabled"',
    '',
    '[features]',
    // Offline: no ChatGPT plugin directory.
    'plugins = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.gateway]',
    'name = "Model gateway"',
    `base_url = ${JSON.stringify(`${gatewayUrl}/v1`)}`,
    'env_key = "GATEWAY_API_KEY"',
    'wire_api = "responses"',
    '',
  ].join('\n');
}

/** The Codex version in package.json's devDependencies, as installed. */
export function codexVersion(): string {
  const require = createRequire(import.meta.url);
  return z.object({ version: z.string() }).parse(require('@openai/codex/package.json')).version;
}

/** Runs `codex exec --json --skip-git-repo-check <prompt>` and resolves when it exits or is killed at the timeout. */
export async function runCodex(options: CodexRunOptions): Promise<CodexRun> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'codex-home-'));
  try {
    const codexHome = path.join(home, '.codex');
    await mkdir(codexHome);
    await writeFile(path.join(codexHome, 'config.toml'), codexConfigFor(options.gatewayUrl, options.model));
    const require = createRequire(import.meta.url);
    // The package's launcher finds the linux-x64 binary in its platform package and puts its ripgrep on PATH.
    const launcher = path.join(path.dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');
    const run = await runCliChild(
      process.execPath,
      [
        launcher,
        'exec',
        '--json',
        '--skip-git-repo-check',
        ...(options.sandbox ? ['--sandbox', options.sandbox] : []),
        options.prompt,
      ],
      {
        cwd: options.workDirectory,
        // Nothing inherited but PATH: no proxy, no real key, no user config.
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          CODEX_HOME: codexHome,
          GATEWAY_API_KEY: options.apiKey,
        },
        timeoutMs: options.timeoutMs,
      },
    );
    return { ...run, events: parseEvents(run.stdout) };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function parseEvents(stdout: string): CodexEvent[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      const parsed = codexEventSchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
