import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Owner only: the data folder (the owner must list and enter it). */
const folderMode = 0o700;
/** Owner only: the database, its WAL and shared-memory files, and the secret key. */
const fileMode = 0o600;

/** What a gateway keeps on disk that others on the machine must not read. */
export interface DataFiles {
  dataDirectory: string;
  /** the SQLite database file, when the database is one (not PostgreSQL, not `:memory:`) */
  sqliteFile: string | undefined;
}

/**
 * Creates the data folder owner-only (0700) and the SQLite file 0600 before SQLite opens it (SQLite gives its `-wal`
 * and `-shm` files the database file's mode), and tightens such files left looser by an older gateway.
 * Returns the paths it tightened, for the log.
 */
export function secureDataFiles(files: DataFiles): string[] {
  const tightened: string[] = [];
  const restrict = (filePath: string, mode: number): void => {
    if (!existsSync(filePath) || (statSync(filePath).mode & 0o777 & ~mode) === 0) return;
    chmodSync(filePath, mode);
    tightened.push(filePath);
  };
  mkdirSync(files.dataDirectory, { recursive: true, mode: folderMode });
  restrict(files.dataDirectory, folderMode);
  restrict(path.join(files.dataDirectory, 'secret.key'), fileMode);
  restrict(path.join(files.dataDirectory, 'setup-url'), fileMode);
  if (files.sqliteFile !== undefined) {
    const databaseFile = path.resolve(files.sqliteFile);
    if (!existsSync(databaseFile)) {
      mkdirSync(path.dirname(databaseFile), { recursive: true, mode: folderMode });
      // An empty file is an empty SQLite database; created here, it has the owner-only mode from its first byte.
      writeFileSync(databaseFile, '', { mode: fileMode, flag: 'a' });
    }
    for (const suffix of ['', '-wal', '-shm', '-journal']) restrict(`${databaseFile}${suffix}`, fileMode);
  }
  return tightened;
}
