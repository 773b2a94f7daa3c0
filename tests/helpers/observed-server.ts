/**
 * A real front server over a test site (front-server.ts) with the observability pieces wired in as
 * `npm start` wires them: a pino logger (writing where the test says), the server's metrics, and
 * settings the test may change (METRICS_TOKEN, TRUST_PROXY, MIN_FREE_DISK_MB...).
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createApp } from '@api/app.ts';
import type { Config } from '@api/config.ts';
import type { RouteGroup } from '@api/http/route.ts';
import { getFileByHash } from '@api/data/files.ts';
import { createFrontServer } from '@api/server/front.ts';
import { appLogger, createLogger, type Logger } from '@api/server/logger.ts';
import { createServerMetrics, type ServerMetrics } from '@api/server/metrics.ts';
import { DIST_DIR } from '../../scripts/lib/build.ts';
import type { TestSite } from './front-server.ts';

export interface ObservedServer {
  base: string;
  server: http.Server;
  logger: Logger;
  metrics: ServerMetrics;
  close(): Promise<void>;
}

/** The machine's first non-loopback IPv4 address, if it has one. */
export function outsideAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
}

export async function startObserved(
  site: TestSite,
  options: {
    settings?: Partial<Config>;
    destination?: Writable;
    host?: string;
    logFormat?: 'json' | 'pretty';
    /** Extra API route groups (createApp's `routes`). */
    routes?: readonly RouteGroup[];
  } = {},
): Promise<ObservedServer> {
  const config: Config = { ...site.config, ...options.settings };
  // Lines go where the test says, else nowhere (a sink), so test output stays readable.
  const destination = options.destination ?? new Writable({ write: (_chunk, _encoding, done) => done() });
  const logger = createLogger({ logLevel: 'debug', logFormat: options.logFormat ?? 'json' }, { destination });
  const metrics = createServerMetrics(site.db);
  const lines: string[] = [];
  const server = createFrontServer({
    api: createApp({ db: site.db, config, logger: appLogger(logger), routes: options.routes }),
    clientDir: path.join(DIST_DIR, 'client'),
    media: { ...site.paths, mimeOf: async (hash) => (await getFileByHash(site.db, hash))?.mime },
    store: site.store,
    ssr: site.handler,
    renderer: site.renderer,
    site: { db: site.db, config },
    log: (line) => lines.push(line),
    logger,
    metrics,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${host}:${port}`,
    server,
    logger,
    metrics,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads every line a Writable receives (the logger's destination in tests). */
export function collectLines(): { stream: Writable; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}
