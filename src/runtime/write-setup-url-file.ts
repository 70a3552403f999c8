import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in the data folder that holds the first-run setup URL while setup is open (mode 0600). */
export function setupUrlFilePath(dataDirectory: string): string {
  return path.join(dataDirectory, 'setup-url');
}

/**
 * Writes the one-time setup URL (it carries the token) to `<dataDirectory>/setup-url`, owner-only, so an operator
 * without the terminal (a container's logs) can read it without it ever reaching the log; with no URL (setup
 * closed) removes a stale one. Returns the file's path, or undefined when there is no URL or it could not be written.
 */
export function writeSetupUrlFile(dataDirectory: string, setupUrl: string | undefined): string | undefined {
  const file = setupUrlFilePath(dataDirectory);
  try {
    if (setupUrl === undefined) {
      rmSync(file, { force: true });
      return undefined;
    }
    writeFileSync(file, `${setupUrl}\n`, { mode: 0o600 });
    // A file left by an earlier start keeps its mode through writeFileSync; the token must stay owner-only.
    chmodSync(file, 0o600);
    return file;
  } catch {
    return undefined;
  }
}
