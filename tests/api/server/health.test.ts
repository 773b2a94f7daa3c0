/**
 * GET /healthz and GET /readyz on the real front server: answered before the API and the pages, never
 * cached, HEAD too; /readyz names each check and fails (503) when the database is closed, the disk is
 * below MIN_FREE_DISK_MB, or the data folder refuses writes (checked in a real child process running
 * as an unprivileged user, since root writes through a read-only mode).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { startObserved, type ObservedServer } from '../../helpers/observed-server.ts';

let site: TestSite;
let front: ObservedServer;

beforeAll(async () => {
  site = await createTestSite('health');
  front = await startObserved(site, { settings: { minFreeDiskMb: 0 } });
}, 300_000);
afterAll(async () => {
  await front?.close();
  await site?.close();
});

const json = (body: Buffer) => JSON.parse(body.toString()) as Record<string, unknown>;

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"}, never cached, with a request id', async () => {
    const answer = await httpRequest(`${front.base}/healthz`);
    expect(answer.status).toBe(200);
    expect(json(answer.body)).toEqual({ status: 'ok' });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers HEAD without a body and refuses other methods with Allow', async () => {
    const head = await httpRequest(`${front.base}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await httpRequest(`${front.base}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('GET /readyz', () => {
  it('is ready when the database, the data folder and the disk are', async () => {
    const answer = await httpRequest(`${front.base}/readyz`);
    expect(answer.status).toBe(200);
    expect(json(answer.body)).toEqual({ status: 'ready', checks: { database: 'ok', data_folder: 'ok', disk: 'ok' } });
    expect(answer.headers['cache-control']).toBe('no-store');
    // The probe file is gone again.
    expect(fs.readdirSync(site.dataDir).filter((name) => name.startsWith('.readyz'))).toEqual([]);
    expect((await httpRequest(`${front.base}/readyz`, { method: 'HEAD' })).status).toBe(200);
  });

  it('fails with "disk" when the disk has less free space than MIN_FREE_DISK_MB', async () => {
    const short = await startObserved(site, { settings: { minFreeDiskMb: 1e12 } });
    try {
      const answer = await httpRequest(`${short.base}/readyz`);
      expect(answer.status).toBe(503);
      expect(json(answer.body)).toEqual({ status: 'unavailable', checks: { database: 'ok', data_folder: 'ok', disk: 'failed' } });
      expect(answer.headers['cache-control']).toBe('no-store');
      // The process still answers.
      expect((await httpRequest(`${short.base}/healthz`)).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('fails with "database" when the database is closed', async () => {
    const other = await createTestSite('health-closed');
    const server = await startObserved(other, { settings: { minFreeDiskMb: 0 } });
    try {
      expect((await httpRequest(`${server.base}/readyz`)).status).toBe(200);
      other.db.close();
      const answer = await httpRequest(`${server.base}/readyz`);
      expect(answer.status).toBe(503);
      expect(json(answer.body).checks).toEqual({ database: 'failed', data_folder: 'ok', disk: 'ok' });
      expect((await httpRequest(`${server.base}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await other.close();
    }
  });
});

/** Starts tests/helpers/readyz-child.ts as `nobody` (when root) and answers its /readyz. */
async function readyzAsUnprivileged(dataDir: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const asRoot = process.getuid?.() === 0;
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/helpers/readyz-child.ts'), dataDir], {
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    env: { ...process.env, HOME: os.tmpdir() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const lines = createInterface({ input: child.stdout! });
    const port = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        const match = /^port (\d+)$/.exec(line);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`readyz child exited with ${code}`)));
    });
    const answer = await httpRequest(`http://127.0.0.1:${port}/readyz`);
    return { status: answer.status, body: json(answer.body) };
  } finally {
    child.kill('SIGTERM');
  }
}

describe('readyz fails when the data folder is read-only', () => {
  it('names data_folder when the process may not write there, and is ready when it may', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-readyz-'));
    const readOnly = path.join(root, 'read-only');
    const writable = path.join(root, 'writable');
    fs.mkdirSync(readOnly);
    fs.mkdirSync(writable);
    fs.chmodSync(root, 0o755);
    fs.chmodSync(readOnly, 0o555);
    fs.chmodSync(writable, 0o777);
    try {
      const refused = await readyzAsUnprivileged(readOnly);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ status: 'unavailable', checks: { database: 'ok', data_folder: 'failed', disk: 'ok' } });
      expect(fs.readdirSync(readOnly)).toEqual([]);
      const allowed = await readyzAsUnprivileged(writable);
      expect(allowed.status).toBe(200);
      expect(allowed.body).toEqual({ status: 'ready', checks: { database: 'ok', data_folder: 'ok', disk: 'ok' } });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
