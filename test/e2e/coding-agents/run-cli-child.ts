// Runs a coding agent's CLI as a child process with a fixed environment and a deadline, collecting its output.
import { spawn } from 'node:child_process';

/** What a finished CLI run printed, and how it ended (null: killed at the deadline). */
export interface CliChildRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `command` in `cwd` with exactly `env` (nothing inherited), killing it after `timeoutMs` milliseconds. */
export async function runCliChild(
  command: string,
  commandArguments: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<CliChildRun> {
  const child = spawn(command, commandArguments, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  return { exitCode, stdout, stderr };
}
