/**
 * A throwaway PostgreSQL cluster in a folder of its own, from Debian's `postgresql` package: for the
 * test runs on PostgreSQL, `npm run pg:throwaway` and the local cluster. Not a production database:
 * it trusts every local connection and, with `fast`, gives up durability for speed.
 *
 * PostgreSQL refuses to run as root, so as root the cluster runs as the package's `postgres` user
 * (or `nobody` without it) and its folder is handed to that user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ThrowawayCluster {
  /** postgres://trove@127.0.0.1:PORT/DATABASE */
  url: string;
  port: number;
  /** The cluster's folder (data, socket and log). */
  dir: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Folder to keep the cluster in; a new temporary one (removed at stop) when absent. */
  dir?: string;
  /** TCP port on 127.0.0.1; a free one when absent. */
  port?: number;
  /** The database to create (default trove). */
  database?: string;
  /** fsync, full-page writes and synchronous commit off: for tests. */
  fast?: boolean;
  /** The server's max_connections (PostgreSQL's default is 100). */
  maxConnections?: number;
}

const DEBIAN_ROOT = '/usr/lib/postgresql';
export const POSTGRES_MISSING =
  "PostgreSQL's server programs were not found: install Debian's package (apt-get install -y postgresql) or set PG_BIN to the folder holding initdb and pg_ctl.";

/** The folder with initdb and pg_ctl: PG_BIN, else the newest version Debian's package installed. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = env.PG_BIN
    ? [env.PG_BIN]
    : fs.existsSync(DEBIAN_ROOT)
      ? fs
          .readdirSync(DEBIAN_ROOT)
          .filter((name) => /^\d+$/.test(name))
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => path.join(DEBIAN_ROOT, version, 'bin'))
      : [];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error(POSTGRES_MISSING);
  return found;
}

/** As root: the unprivileged account the cluster runs as. */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('PostgreSQL cannot run as root and neither the postgres nor the nobody account exists.');
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port'))));
    });
  });
}

export async function startThrowawayCluster(options: ClusterOptions = {}): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  const owned = !options.dir;
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'trove-pg-'));
  const data = path.join(dir, 'data');
  const user = runAs();
  fs.mkdirSync(dir, { recursive: true });
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const run = (program: string, args: string[]) =>
    execFileSync(path.join(bin, program), args, { cwd: dir, stdio: 'pipe', ...(user ?? {}) });

  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    // C.UTF-8: characters outside ASCII are letters to the text search and pg_trgm (with C they are not).
    run('initdb', ['-D', data, '-U', 'trove', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  }
  const port = options.port ?? (await freePort());
  const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'"];
  if (options.fast) settings.push('-c fsync=off', '-c full_page_writes=off', '-c synchronous_commit=off');
  if (options.maxConnections) settings.push(`-c max_connections=${options.maxConnections}`);
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', settings.join(' '), '-w', '-t', '60', 'start']);

  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    spawnSync(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], { cwd: dir, stdio: 'ignore', ...(user ?? {}) });
    if (owned) fs.rmSync(dir, { recursive: true, force: true });
  };
  // A crashed or interrupted run must not leave a server behind.
  process.once('exit', stopNow);

  const database = options.database ?? 'trove';
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'trove', database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://trove@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    dir,
    stop: async () => {
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}
