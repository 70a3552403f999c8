// A PostgreSQL server of the test's own (own data folder, own port, own socket folder), so a fault test can restart,
// stop and start it without touching the PostgreSQL other tests share. initdb refuses to run as root: as root, every
// server command runs as the `postgres` OS user.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { isContinuousIntegration } from './postgres-test-database.js';
import { findFreePort } from './find-free-port.js';

const run = promisify(execFile);
const postgresRoot = '/usr/lib/postgresql';

/** A running private PostgreSQL and the faults a test can put it through. */
export interface PrivatePostgres {
  /** connection URL of its `postgres` database (trust authentication on loopback) */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: ends every connection (57P01), refuses new ones while it restarts (57P03) */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`: the server is gone until `start` */
  stop(): Promise<void>;
  /** starts it again on the same port and data */
  start(): Promise<void>;
  /** SIGSTOP to this server's processes only (postmaster and backends): connections stay open, nothing answers */
  freeze(): Promise<void>;
  /** SIGCONT after `freeze` */
  thaw(): Promise<void>;
  /** stops it for good and removes its folders */
  remove(): Promise<void>;
}

/** The newest installed server's binaries folder, or undefined when PostgreSQL's server is not installed. */
export function findPostgresBinaries(): string | undefined {
  if (!existsSync(postgresRoot)) return undefined;
  const versions = readdirSync(postgresRoot)
    .filter((version) => existsSync(path.join(postgresRoot, version, 'bin', 'initdb')))
    .sort((left, right) => Number(right) - Number(left));
  return versions[0] === undefined ? undefined : path.join(postgresRoot, versions[0], 'bin');
}

/** Whether a private server can be started here; in CI its absence is an error, not a reason to skip. */
export function canStartPrivatePostgres(): boolean {
  if (findPostgresBinaries() !== undefined) return true;
  if (isContinuousIntegration())
    throw new Error(
      `PostgreSQL server binaries are missing under ${postgresRoot}; CI must install them (.ci/start-postgres.sh)`,
    );
  return false;
}

/** initdb into a temporary folder and start the server on a free loopback port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const binaries = findPostgresBinaries();
  if (binaries === undefined) throw new Error(`PostgreSQL server binaries are missing under ${postgresRoot}`);
  const root = await mkdtemp(path.join(os.tmpdir(), 'gateway-private-postgres-'));
  const dataDirectory = path.join(root, 'data');
  const socketDirectory = root;
  const logFile = path.join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(group.trim()));
  }
  const command = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(binaries, name), ...args])
      : run(path.join(binaries, name), args);
  await command('initdb', ['-D', dataDirectory, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await findFreePort();
  const serverOptions = `-p ${port} -k ${socketDirectory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => {
    await command('pg_ctl', ['-D', dataDirectory, '-l', logFile, '-o', serverOptions, '-w', '-t', '30', 'start']);
  };
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitUntilAccepting(url);
  let removed = false;
  return {
    url,
    port,
    async restart() {
      await command('pg_ctl', [
        '-D',
        dataDirectory,
        '-l',
        logFile,
        '-o',
        serverOptions,
        '-w',
        '-t',
        '30',
        '-m',
        'fast',
        'restart',
      ]);
    },
    async stop() {
      await command('pg_ctl', ['-D', dataDirectory, '-w', '-t', '30', '-m', 'fast', 'stop']);
    },
    start,
    freeze: () => signalServer(dataDirectory, 'SIGSTOP'),
    thaw: () => signalServer(dataDirectory, 'SIGCONT'),
    async remove() {
      if (removed) return;
      removed = true;
      await command('pg_ctl', ['-D', dataDirectory, '-w', '-t', '30', '-m', 'immediate', 'stop']).catch(
        () => undefined,
      );
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Signals the postmaster named in this data folder's postmaster.pid and its children, never any other server. */
async function signalServer(dataDirectory: string, signal: NodeJS.Signals): Promise<void> {
  const postmaster = Number((await readFile(path.join(dataDirectory, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  if (!Number.isInteger(postmaster) || postmaster <= 1) throw new Error('postmaster.pid names no process');
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
  const children = stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => Number.isInteger(pid) && pid > 1);
  // Children first on stop (so none is left running to notice), the postmaster first on continue.
  const order = signal === 'SIGSTOP' ? [...children, postmaster] : [postmaster, ...children];
  for (const pid of order) {
    try {
      process.kill(pid, signal);
    } catch {
      // A backend that ended meanwhile.
    }
  }
}

async function waitUntilAccepting(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
