// Makes sure a command the benchmarks run (wrk, valgrind) is on PATH: installs Debian's package when it is missing,
// so a new user runs each benchmark with one command.
import { execFileSync, spawnSync } from 'node:child_process';

/** A command and the Debian package that provides it. */
export interface DebianCommand {
  command: string;
  /** arguments that make it print its version (it may exit non-zero, as `wrk -v` does) */
  versionArguments: string[];
  packageName: string;
}

/** Returns the command's version line; installs its package with apt-get first when needed and fails clearly when that is not possible. */
export function ensureDebianCommand(wanted: DebianCommand, log: (message: string) => void): string {
  const found = versionOf(wanted);
  if (found) return found;
  log(`${wanted.command} is not on PATH: installing the Debian package (apt-get install -y ${wanted.packageName})`);
  if (!aptGet(['install', '-y', wanted.packageName])) {
    log('apt-get install failed: running apt-get update, then installing again');
    aptGet(['update']);
    aptGet(['install', '-y', wanted.packageName]);
  }
  const installed = versionOf(wanted);
  if (!installed)
    throw new Error(
      `${wanted.command} is still not on PATH; install it (Debian/Ubuntu: \`apt-get install ${wanted.packageName}\`, as root) and run again`,
    );
  return installed;
}

function versionOf(wanted: DebianCommand): string | undefined {
  // Only a missing binary sets `error` (ENOENT); a non-zero exit still printed the version.
  const result = spawnSync(wanted.command, wanted.versionArguments, { encoding: 'utf8' });
  if (result.error) return undefined;
  return `${result.stdout}${result.stderr}`.split('\n')[0]?.trim();
}

function aptGet(aptArguments: string[]): boolean {
  try {
    execFileSync('apt-get', aptArguments, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch {
    return false;
  }
}
