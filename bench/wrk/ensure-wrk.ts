// Makes sure the `wrk` load generator is on PATH: installs Debian's package when it is missing, so a new user
// runs the comparison with one command.
import { execFileSync, spawnSync } from 'node:child_process';

/** Returns wrk's version line; installs it with apt-get first when needed and fails clearly when that is not possible. */
export function ensureWrk(log: (message: string) => void): string {
  const found = wrkVersion();
  if (found) return found;
  log('wrk is not on PATH: installing the Debian package (apt-get install -y wrk)');
  if (!aptGet(['install', '-y', 'wrk'])) {
    log('apt-get install failed: running apt-get update, then installing again');
    aptGet(['update']);
    aptGet(['install', '-y', 'wrk']);
  }
  const installed = wrkVersion();
  if (!installed)
    throw new Error(
      'wrk is still not on PATH; install it (Debian/Ubuntu: `apt-get install wrk`, as root) and run again',
    );
  return installed;
}

function wrkVersion(): string | undefined {
  // `wrk -v` prints its version and usage and exits with 1; only a missing binary throws ENOENT.
  const result = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
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
