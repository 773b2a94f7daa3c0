/**
 * File-serving benchmark: requests per second for a whole 1 MiB stored file and for a 64 KiB range of
 * it, answered by `npm start` and by a bare node:http server of the same file in the same run; then
 * thumbnails generated per second, from a fresh cache, through /thumbnail/data with several requests
 * in flight and by makeThumbnail alone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sharedDatabase } from '../api/data/db.ts';
import { registerFile } from '../api/data/files.ts';
import { storeFile, storeLocation, type StoredFile } from '../api/media/store.ts';
import { makeThumbnail, THUMBNAIL_DEFAULTS } from '../api/media/thumbnails.ts';
import { dataPaths } from '../api/config.ts';
import { createRng } from '../scripts/seed/random.ts';
import { archiveDir } from './lib.ts';
import { load, startBare, startTrove, stop, type LoadResult } from './serve.ts';

const PORT = 4563;
const BARE_PORT = 4564;
const FILE_BYTES = 1024 * 1024;
const RANGE = `bytes=${512 * 1024}-${512 * 1024 + 64 * 1024 - 1}`;
const IMAGES = 200;
const IMAGE_WIDTH = 1600;
const IMAGE_HEIGHT = 1200;
/** Thumbnail requests in flight: a listing page's worth of cards from a few browsers. */
const IN_FLIGHT = 8;

/** A photo-sized JPEG: shapes over sensor-like noise, so it weighs what a real 2 MP picture weighs. */
async function realisticJpeg(index: number): Promise<Buffer> {
  // Seeded, so every run thumbnails the same images.
  const random = createRng(index + 1).next;
  const colour = () => `hsl(${Math.floor(random() * 360)} ${40 + Math.floor(random() * 40)}% ${30 + Math.floor(random() * 40)}%)`;
  const shapes = Array.from({ length: 40 }, () =>
    random() < 0.5
      ? `<circle cx="${random() * IMAGE_WIDTH}" cy="${random() * IMAGE_HEIGHT}" r="${20 + random() * 300}" fill="${colour()}" fill-opacity="0.7"/>`
      : `<rect x="${random() * IMAGE_WIDTH}" y="${random() * IMAGE_HEIGHT}" width="${50 + random() * 500}" height="${50 + random() * 400}" fill="${colour()}" fill-opacity="0.7"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}">${shapes}</svg>`;
  return sharp({
    create: {
      width: IMAGE_WIDTH,
      height: IMAGE_HEIGHT,
      channels: 3,
      background: colour(),
      noise: { type: 'gaussian', mean: 128, sigma: 14 },
    },
  })
    .composite([{ input: Buffer.from(svg), blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Requests per second from node:http clients (llhttp, bodies discarded), `connections` keep-alive
 * connections for `seconds` after a 2 s warm-up. autocannon parses bodies in JavaScript: with 1 MiB
 * answers it measured itself (48 requests/s against the bare server, where this client gets ~1,000
 * and wrk ~1,800), so the file figures come from this client; the page and cached-thumbnail figures,
 * with small bodies, still come from autocannon.
 */
async function loadNative(
  url: string,
  options: { headers?: Record<string, string>; connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const { headers = {}, connections = 20, seconds = 10 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (response) => {
          response.on('data', () => undefined);
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        })
        .on('error', reject)
        .setTimeout(30_000);
    });
  async function run(durationMs: number) {
    const latencies: number[] = [];
    let errors = 0;
    let lastError: string | undefined;
    let non2xx = 0;
    const deadline = performance.now() + durationMs;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          try {
            const status = await once();
            if (status < 200 || status > 299) non2xx += 1;
            latencies.push(performance.now() - started);
          } catch (error) {
            // A refused or reset connection is a failed request of the run, counted by its kind.
            errors += 1;
            lastError = error instanceof Error ? error.message : String(error);
          }
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      requestsPerSecond: latencies.length / (durationMs / 1000),
      latencyP99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
      errors,
      lastError,
      non2xx,
    };
  }
  try {
    await run(2000);
    return await run(seconds * 1000);
  } finally {
    agent.destroy();
  }
}

/** Requests every URL with `inFlight` at a time; resolves with the seconds taken and the statuses seen. */
async function fetchAll(
  urls: string[],
  inFlight: number,
): Promise<{ seconds: number; statuses: Record<number, number>; placeholders: number }> {
  const statuses: Record<number, number> = {};
  let placeholders = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < urls.length) {
        const response = await fetch(urls[next++]);
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        // The placeholder is the only stand-in cached briefly.
        if (response.headers.get('cache-control')?.includes('max-age=600')) placeholders += 1;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, statuses, placeholders };
}

/** makeThumbnail alone, `parallel` at a time, into a scratch folder. */
async function thumbnailsAlone(sources: string[], parallel: number): Promise<{ parallel: number; seconds: number; perSecond: number }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-thumbs-'));
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < sources.length) {
          const index = next++;
          await makeThumbnail(sources[index], path.join(out, `${index}.webp`), THUMBNAIL_DEFAULTS);
        }
      }),
    );
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  return { parallel, seconds, perSecond: sources.length / seconds };
}

export async function filesBenchmark() {
  const dataDir = archiveDir('files');
  const paths = dataPaths(dataDir);
  let server = await startTrove(dataDir, PORT);
  let big: StoredFile;
  const images: StoredFile[] = [];
  try {
    // Stored the way an import stores them: bytes in the store, a record in the database.
    const db = sharedDatabase(paths.database);
    try {
      big = await storeFile(paths.files, seededBytes(FILE_BYTES), 'bin');
      await registerFile(db, { hash: big.sha256, size: big.size, ext: 'bin', mime: 'application/octet-stream' });
      for (let i = 0; i < IMAGES; i += 1) {
        const stored = await storeFile(paths.files, await realisticJpeg(i), 'jpg');
        await registerFile(db, { hash: stored.sha256, size: stored.size, ext: 'jpg', mime: 'image/jpeg' });
        images.push(stored);
      }
    } finally {
      db.close();
    }
    const averageImageBytes = Math.round(images.reduce((sum, image) => sum + image.size, 0) / images.length);

    const fileUrl = `http://127.0.0.1:${PORT}/data${big.path}`;
    const trove = { whole: await loadNative(fileUrl), range: await loadNative(fileUrl, { headers: { range: RANGE } }) };
    const bareServer = await startBare(storeLocation(paths.files, big.path), BARE_PORT, 'application/octet-stream');
    let bare: typeof trove;
    try {
      const bareUrl = `http://127.0.0.1:${BARE_PORT}/`;
      bare = { whole: await loadNative(bareUrl), range: await loadNative(bareUrl, { headers: { range: RANGE } }) };
    } finally {
      await stop(bareServer);
    }

    // A fresh thumbnail cache, and a fresh server so nothing is remembered in memory either.
    await stop(server);
    fs.rmSync(paths.thumbnails, { recursive: true, force: true });
    server = await startTrove(dataDir, PORT);
    const thumbnailUrls = images.map((image) => `http://127.0.0.1:${PORT}/thumbnail/data${image.path}`);
    const fresh = await fetchAll(thumbnailUrls, IN_FLIGHT);
    const cached = await load(thumbnailUrls[0], { connections: 20 });
    await stop(server);

    const sources = images.map((image) => storeLocation(paths.files, image.path));
    const alone = [await thumbnailsAlone(sources, 1), await thumbnailsAlone(sources, 2)];
    return {
      file: {
        bytes: FILE_BYTES,
        range: RANGE,
        trove,
        bare,
        ratio: {
          whole: trove.whole.requestsPerSecond / bare.whole.requestsPerSecond,
          range: trove.range.requestsPerSecond / bare.range.requestsPerSecond,
        },
      },
      thumbnails: {
        images: IMAGES,
        size: `${IMAGE_WIDTH}x${IMAGE_HEIGHT} JPEG`,
        averageImageBytes,
        http: {
          inFlight: IN_FLIGHT,
          seconds: fresh.seconds,
          perSecond: IMAGES / fresh.seconds,
          statuses: fresh.statuses,
          placeholders: fresh.placeholders,
        },
        cachedRequestsPerSecond: cached.requestsPerSecond,
        alone,
      },
    };
  } finally {
    await stop(server);
  }
}

/** Incompressible but repeatable bytes (the same file, so the same hash, every run). */
function seededBytes(length: number): Buffer {
  const out = Buffer.alloc(length);
  let block = crypto.createHash('sha256').update('trove files benchmark').digest();
  for (let offset = 0; offset < length; offset += block.length) {
    block.copy(out, offset);
    block = crypto.createHash('sha256').update(block).digest();
  }
  return out;
}
