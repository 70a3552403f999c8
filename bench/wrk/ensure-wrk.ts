// Makes sure the `wrk` load generator is on PATH (Debian's package, installed when missing).
import { ensureDebianCommand } from '../ensure-debian-command.js';

/** Returns wrk's version line; installs it with apt-get first when needed and fails clearly when that is not possible. */
export function ensureWrk(log: (message: string) => void): string {
  // `wrk -v` prints its version and usage and exits with 1.
  return ensureDebianCommand({ command: 'wrk', versionArguments: ['-v'], packageName: 'wrk' }, log);
}
