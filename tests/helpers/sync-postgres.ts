/**
 * The tests' own SQL (rows the API has no route to write, checks of rows it wrote) is written once, in
 * better-sqlite3's synchronous `prepare(sql).get/all/run` form. On a PostgreSQL run (tests/api/data/
 * helpers.ts) the test database gets the same calls, answered by the real database: each query goes to
 * a pg connection in a worker thread while this thread waits on a shared flag. `?` placeholders become
 * `$1`, `$2`...; the SQL itself must be valid on both engines (a test of something only SQLite has
 * asks `t.engine`).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

interface Reply {
  rows?: Record<string, unknown>[];
  rowCount?: number;
  error?: { message: string; code?: string };
}

export interface SyncStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface SyncPostgres {
  prepare(sql: string): SyncStatement;
  exec(sql: string): void;
  end(): Promise<number>;
}

const QUERY_TIMEOUT_MS = 30_000;

export function syncPostgres(url: string): SyncPostgres {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./sync-postgres-worker.mjs', import.meta.url), {
    workerData: { url, port: port2, signal },
    transferList: [port2],
  });
  worker.unref();

  function query(text: string, params?: unknown[]): Required<Pick<Reply, 'rows' | 'rowCount'>> {
    Atomics.store(signal, 0, 0);
    worker.postMessage({ text, params: params?.map(bindable) });
    if (Atomics.wait(signal, 0, 0, QUERY_TIMEOUT_MS) === 'timed-out') throw new Error(`No answer from PostgreSQL in 30 s to: ${text}`);
    const reply = receiveMessageOnPort(port1)?.message as Reply | undefined;
    if (!reply) throw new Error(`PostgreSQL's answer went missing for: ${text}`);
    if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    return { rows: reply.rows ?? [], rowCount: reply.rowCount ?? 0 };
  }

  return {
    prepare(sql) {
      const text = numberedPlaceholders(sql);
      return {
        get: (...params) => query(text, params).rows[0],
        all: (...params) => query(text, params).rows,
        run: (...params) => ({ changes: query(text, params).rowCount }),
        iterate: (...params) => query(text, params).rows[Symbol.iterator](),
      };
    },
    exec(sql) {
      query(sql);
    },
    end: () => worker.terminate(),
  };
}

/** SQLite binds booleans as 0 and 1; the archive's schema keeps them as integers on both engines. */
function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** `?` outside quotes, identifiers and comments becomes `$1`, `$2`, ... */
export function numberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | undefined;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      n += 1;
      out += `$${n}`;
      continue;
    }
    out += char;
  }
  return out;
}
