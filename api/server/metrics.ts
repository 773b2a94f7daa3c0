/**
 * The server's Prometheus metrics (prom-client): one Registry per front server with the default process
 * metrics, HTTP answers by method, route label (api/http/route-label.ts) and status, the page store's
 * hits and on-demand renders, page-store rebuilds, files served, and the import queue and outcomes read
 * from the database at scrape time (api/data/import-stats.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../data/store.ts';
import { importOutcomeCounts, importQueueCounts } from '../data/import-stats.ts';
import { ARCHIVE_ROUTES } from '../pages/keys.ts';
import { routeLabelOf } from '../http/route-label.ts';
import { decodeComponent } from '@shared/parse.ts';

/** Methods counted by name; anything else is 'OTHER' (bounded label values). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface RebuildObserver {
  /** One rebuild run of the page store finished, after `seconds`. */
  observeRebuild(seconds: number): void;
}

export interface ServerMetrics extends RebuildObserver {
  registry: Registry;
  /**
   * Counts an answer once it is finished (or the connection closed), under its route label; a media
   * answer with a body (200, 206) also counts as a file served, with the bytes that reached the socket.
   */
  track(req: IncomingMessage, res: ServerResponse): void;
  pageStoreHit(): void;
  pageRendered(): void;
}

/** 'page:<kind>' for an archive page (api/pages/keys.ts), else 'page'. */
export function pageLabel(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean).map(decodeComponent);
  if (segments.some((segment) => segment === undefined)) return 'page';
  const route = ARCHIVE_ROUTES.find((candidate) => candidate.match(segments as string[]));
  return route ? `page:${route.name}` : 'page';
}

export function createServerMetrics(db: Store): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'trove_http_requests_total',
    help: 'HTTP answers by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'trove_http_request_duration_seconds',
    help: 'Time to answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const storeHits = new Counter({
    name: 'trove_page_store_hits_total',
    help: 'Pages answered from the page store.',
    registers: [registry],
  });
  const renders = new Counter({
    name: 'trove_page_renders_total',
    help: 'Archive pages rendered on demand (missing from the page store).',
    registers: [registry],
  });
  const rebuildRuns = new Counter({ name: 'trove_rebuild_runs_total', help: 'Page store rebuilds run.', registers: [registry] });
  const rebuildDuration = new Histogram({
    name: 'trove_rebuild_duration_seconds',
    help: 'Duration of page store rebuilds.',
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [registry],
  });
  const filesServed = new Counter({
    name: 'trove_files_served_total',
    help: 'Media answers (files, thumbnails, icons, banners).',
    registers: [registry],
  });
  const fileBytes = new Counter({ name: 'trove_file_bytes_served_total', help: 'Bytes of media bodies sent.', registers: [registry] });
  new Gauge({
    name: 'trove_import_queue',
    help: 'Imports not yet ended, by state (queued, running, waiting for a retry).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      for (const [state, count] of Object.entries(await importQueueCounts(db))) this.set({ state }, count);
    },
  });
  new Counter({
    name: 'trove_imports_total',
    help: 'Ended imports by service and outcome (finished, failed, cancelled).',
    labelNames: ['service', 'outcome'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { service, outcome, count } of await importOutcomeCounts(db)) this.inc({ service, outcome }, count);
    },
  });

  return {
    registry,
    track(req, res) {
      const started = performance.now();
      const socket = req.socket;
      const bytesBefore = socket.bytesWritten;
      let counted = false;
      const done = () => {
        if (counted) return;
        counted = true;
        const method = METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER';
        const route = routeLabelOf(res) ?? 'other';
        requests.inc({ method, route, status: String(res.statusCode) });
        duration.observe({ method, route }, (performance.now() - started) / 1000);
        if (route === 'media' && (res.statusCode === 200 || res.statusCode === 206)) {
          filesServed.inc();
          // Bytes that reached the socket for this answer, less its head.
          const head = (res as ServerResponse & { _header?: string | null })._header;
          const body = socket.bytesWritten - bytesBefore - (head ? Buffer.byteLength(head) : 0);
          if (body > 0) fileBytes.inc(body);
        }
      };
      res.once('finish', done);
      res.once('close', done);
    },
    pageStoreHit: () => storeHits.inc(),
    pageRendered: () => renders.inc(),
    observeRebuild(seconds) {
      rebuildRuns.inc();
      rebuildDuration.observe(seconds);
    },
  };
}
