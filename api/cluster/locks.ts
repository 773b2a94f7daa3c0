/**
 * Work that must happen once across every process sharing the archive (docs/decisions.md, "Several
 * machines"): PostgreSQL advisory locks, which the server releases by itself when the holding
 * connection ends, so a process that dies (kill -9, a lost machine) hands its work on without anyone
 * cleaning up after it.
 *
 * - `withClusterLock` / `tryClusterLock`: one run at a time (a page store rebuild), on a connection of
 *   the pool held for that run.
 * - `startLeadership`: a long-lived role (the auto-import scheduler) on a connection of its own. Every
 *   process that wants the role tries every `retryMs`; the holder keeps it until its connection ends.
 *
 * SQLite is one machine's database: there the process is always the holder (one server per archive
 * file; a second process that rebuilds at the same time renders the same bytes).
 */
import pg from 'pg';
import type { Store } from '../data/store.ts';

/** The advisory lock keys (one 64-bit number each, the same in every process). */
const LOCK_KEYS = {
  'page-rebuild': 7_465_001,
  'auto-import': 7_465_002,
} as const;

export type ClusterLockName = keyof typeof LOCK_KEYS;

/**
 * Server-side keepalives for the holding connections: when a machine vanishes without closing its
 * sockets, PostgreSQL ends its session (and frees its locks) after about 10 + 3 * 5 = 25 s, well inside
 * the minute a takeover may take.
 */
const KEEPALIVE_SQL = 'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3';

/** How often a process that does not hold a leadership asks for it again. */
export const LEADERSHIP_RETRY_MS = 15_000;

async function holding<T>(db: Store, name: ClusterLockName, wait: boolean, fn: () => Promise<T>): Promise<{ ran: boolean; value?: T }> {
  if (!db.pool) return { ran: true, value: await fn() };
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(KEEPALIVE_SQL);
    if (wait) await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEYS[name]]);
    else {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEYS[name]]);
      if (!rows[0].locked) return { ran: false };
    }
    try {
      return { ran: true, value: await fn() };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEYS[name]]).catch((error: Error) => (broken = error));
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection whose unlock failed may still hold the lock: it is closed rather than reused.
    client.release(broken);
  }
}

/** Runs fn holding the named lock, waiting for it while another process holds it. */
export async function withClusterLock<T>(db: Store, name: ClusterLockName, fn: () => Promise<T>): Promise<T> {
  return (await holding(db, name, true, fn)).value as T;
}

/** Runs fn holding the named lock, or returns `{ ran: false }` at once when another process holds it. */
export function tryClusterLock<T>(db: Store, name: ClusterLockName, fn: () => Promise<T>): Promise<{ ran: boolean; value?: T }> {
  return holding(db, name, false, fn);
}

export interface Leadership {
  /** Whether this process holds the role now. */
  readonly leading: boolean;
  /** Gives the role up (stopping its work) and stops asking for it. */
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  /** DATABASE_URL; without one (SQLite) this process leads at once. */
  databaseUrl: string | undefined;
  name: ClusterLockName;
  /** Starts the role's work; returns what stops it. */
  lead: () => (() => void) | undefined;
  log?: (line: string) => void;
  retryMs?: number;
}

/** Takes the named role when it is free, now or on a later try, and keeps it while this process lives. */
export function startLeadership(options: LeadershipOptions): Leadership {
  let stopWork: (() => void) | undefined;
  let leading = false;
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const lose = (reason: string) => {
    if (leading) options.log?.(`No longer leading ${options.name}: ${reason}.`);
    leading = false;
    stopWork?.();
    stopWork = undefined;
    const lost = client;
    client = undefined;
    lost?.end().catch(() => undefined);
  };

  const attempt = async () => {
    if (stopped || leading) return;
    const candidate = new pg.Client({ connectionString: options.databaseUrl, keepAlive: true });
    candidate.on('error', (error) => lose(error.message));
    try {
      await candidate.connect();
      await candidate.query(KEEPALIVE_SQL);
      const { rows } = await candidate.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEYS[options.name]]);
      if (!rows[0].locked || stopped) {
        await candidate.end();
        return;
      }
      client = candidate;
      candidate.on('end', () => lose('its database connection ended'));
      leading = true;
      options.log?.(`Leading ${options.name} (pid ${process.pid}).`);
      stopWork = options.lead();
    } catch (error) {
      options.log?.(`Could not ask for ${options.name}: ${(error as Error).message}`);
      await candidate.end().catch(() => undefined);
    }
  };

  if (!options.databaseUrl) {
    leading = true;
    stopWork = options.lead();
  } else {
    void attempt();
    timer = setInterval(() => void attempt(), options.retryMs ?? LEADERSHIP_RETRY_MS);
    timer.unref();
  }

  return {
    get leading() {
      return leading;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopWork?.();
      stopWork = undefined;
      leading = false;
      const held = client;
      client = undefined;
      await held?.end().catch(() => undefined);
    },
  };
}
