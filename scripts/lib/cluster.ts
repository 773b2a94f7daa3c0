/**
 * Trove as several machines would run it, on this one (`npm run cluster`, the cluster test): a local
 * PostgreSQL (Debian's package, its data in `<dir>/postgres`), one shared DATA_DIR (`<dir>/data`, the
 * network mount of a real deployment), N web nodes (`scripts/start.ts`, IMPORT_WORKER=0), M import
 * workers (`scripts/worker.ts`) and nginx in front of the nodes on one port. Every member is a real
 * process with its log in `<dir>/logs`; `stop` ends them all, then nginx and PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readConfig } from '@api/config.ts';
import { countCreators } from '@api/data/creators.ts';
import { closeArchiveDatabase, openArchiveDatabase } from '@api/data/open.ts';
import { operatorPublicKey } from '@api/importer/operator-key.ts';
import { startNginx } from '@api/cluster/nginx.ts';
import { seedDemoArchive } from '../seed/index.ts';
import { ensureBuild } from './build.ts';
import { startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster.ts';
import { CLIENT_DIR } from './site.ts';

export interface ClusterOptions {
  nodes: number;
  workers: number;
  /** The cluster's folder: postgres/, data/, nginx/ and logs/ (kept between runs). */
  dir: string;
  /** The port nginx listens on (every interface HOST names; default 127.0.0.1). */
  port: number;
  host?: string;
  /** The first web node's port; the others follow it. */
  firstNodePort?: number;
  /** More environment for the nodes and workers (REBUILD_INTERVAL_SECONDS, importer settings...). */
  env?: NodeJS.ProcessEnv;
  /** PostgreSQL without fsync (tests). */
  fastPostgres?: boolean;
  log?: (line: string) => void;
}

export interface Member {
  name: string;
  /** Web nodes: their own address (nginx's upstream). */
  url?: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

export interface RunningCluster {
  /** nginx: where visitors go. */
  url: string;
  databaseUrl: string;
  dataDir: string;
  nodes: Member[];
  workers: Member[];
  /** Starts another worker (after one was killed, say). */
  addWorker(): Member;
  stop(): Promise<void>;
}

const TSX = ['--import', 'tsx'];

function startMember(name: string, script: string, env: NodeJS.ProcessEnv, logDir: string, url?: string): Member {
  const log = fs.openSync(path.join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, [...TSX, path.resolve('scripts', script)], { env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, url, child, exited };
}

async function stopMember(member: Member): Promise<void> {
  if (member.child.exitCode !== null || member.child.signalCode !== null) return;
  member.child.kill('SIGTERM');
  const stopped = await Promise.race([member.exited.then(() => true), sleep(20_000).then(() => false)]);
  if (!stopped) {
    member.child.kill('SIGKILL');
    await member.exited;
  }
}

/** The end of a member's log, for the error that says it failed. */
function logTail(member: Member, logDir: string): string {
  const lines = fs
    .readFileSync(path.join(logDir, `${member.name}.log`), 'utf8')
    .trimEnd()
    .split('\n');
  return lines.slice(-15).join('\n');
}

/** Waits until the node answers /readyz with 200, or fails when it exits first. */
async function ready(member: Member, logDir: string, timeoutMs = 180_000): Promise<void> {
  let exited = false;
  void member.exited.then(() => (exited = true));
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(250)) {
    if (exited) throw new Error(`${member.name} exited during its start; the end of its log:\n${logTail(member, logDir)}`);
    const answer = await fetch(`${member.url}/readyz`).catch(() => undefined);
    if (answer?.status === 200) return;
  }
  throw new Error(`${member.name} did not become ready in ${timeoutMs / 1000} s; the end of its log:\n${logTail(member, logDir)}`);
}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(options.dir);
  const dataDir = path.join(dir, 'data');
  const logDir = path.join(dir, 'logs');
  for (const folder of [dataDir, logDir]) fs.mkdirSync(folder, { recursive: true });
  // As root, PostgreSQL runs as another user, who must be able to reach its folder inside this one.
  fs.chmodSync(dir, 0o755);
  const host = options.host ?? '127.0.0.1';
  const firstNodePort = options.firstNodePort ?? options.port + 1;

  let postgres: ThrowawayCluster | undefined;
  const members: Member[] = [];
  let nginx: { stop(): Promise<void> } | undefined;
  const stop = async () => {
    await Promise.all(members.map(stopMember));
    await nginx?.stop();
    await postgres?.stop();
  };

  try {
    postgres = await startThrowawayCluster({ dir: path.join(dir, 'postgres'), fast: options.fastPostgres });
    log(`PostgreSQL: ${postgres.url} (data in ${path.join(dir, 'postgres')})`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      DATABASE_URL: postgres.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: options.env?.PUBLIC_URL ?? `http://localhost:${options.port}`,
    };
    const settings = readConfig(env);

    // Done once here rather than by every node at once: migrations, the demo archive, the build, the
    // demo operator key pair.
    const db = await openArchiveDatabase(settings);
    try {
      if ((await countCreators(db)) === 0) {
        log('The archive is empty: seeding the demo archive...');
        const seeded = await seedDemoArchive(db, { dataDir });
        for (const account of seeded?.credentials ?? []) log(`  ${account.role}: ${account.username} / ${account.password}`);
      }
    } finally {
      await closeArchiveDatabase(db);
    }
    await ensureBuild(log);
    operatorPublicKey(settings);

    const nodeEnv = { ...env, IMPORT_WORKER: '0', TRUST_PROXY: '1', HOST: '127.0.0.1' };
    const nodes = Array.from({ length: options.nodes }, (_, n) => {
      const port = firstNodePort + n;
      return startMember(`node-${n + 1}`, 'start.ts', { ...nodeEnv, PORT: String(port) }, logDir, `http://127.0.0.1:${port}`);
    });
    members.push(...nodes);
    await Promise.all(nodes.map((node) => ready(node, logDir)));
    log(`Web nodes: ${nodes.map((node) => node.url).join(', ')}`);

    let workerCount = 0;
    const addWorker = () => {
      workerCount += 1;
      const worker = startMember(`worker-${workerCount}`, 'worker.ts', env, logDir);
      members.push(worker);
      return worker;
    };
    const workers = Array.from({ length: options.workers }, addWorker);

    nginx = await startNginx({
      listenPort: options.port,
      listenHost: host,
      upstreams: nodes.map((node) => new URL(node.url as string).host),
      dataDir,
      clientDir: CLIENT_DIR,
      runDir: path.join(dir, 'nginx'),
      config: settings,
    });
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${options.port}`;
    log(`nginx: ${url} (logs in ${logDir} and ${path.join(dir, 'nginx')})`);
    return { url, databaseUrl: postgres.url, dataDir, nodes, workers, addWorker, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
