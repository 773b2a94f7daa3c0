/**
 * The in-process page renderer against the real build: it must give exactly what a visitor gets over
 * HTTP from the same SSR handler, including statuses and redirects.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, listen } from '../../helpers/http.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { readConfig } from '@api/config.ts';
import { createPageRenderer, loadSsrHandler, ssrLocals, type PageRenderer } from '@api/server/ssr.ts';
import { DIST_DIR } from '../../../scripts/lib/build.ts';

let dataDir: string;
let db: Db;
let renderer: PageRenderer;
let server: http.Server;
let base: string;

function overHttp(pathname: string) {
  return httpRequest(`${base}${pathname}`, { headers: { host: 'localhost', 'accept-encoding': 'identity' } });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-ssr-'));
  db = openDatabase(path.join(dataDir, 'trove.sqlite'));
  migrate(db);
  await upsertCreator(db, {
    service: 'patreon',
    id: '42',
    name: 'Renderer Artist',
    public_id: 'renderer',
    indexed: 1_700_000_000,
    updated: 1_700_000_000,
  });
  await upsertCreator(db, { service: 'discord', id: '900', name: 'A Server', indexed: 1_700_000_000, updated: 1_700_000_000 });
  for (let n = 0; n < 3; n += 1) {
    await upsertPost(db, {
      service: 'patreon',
      user: '42',
      id: String(n),
      title: `Render ${n} 黒猫の日常`,
      content: `<p>Body ${n}</p>`,
      published: `2024-02-0${n + 1}T00:00:00`,
    });
  }
  const site = { db, config: { ...readConfig({ DATA_DIR: dataDir }), environment: 'test' } };
  const handler = await loadSsrHandler(DIST_DIR);
  renderer = createPageRenderer(handler, site);
  server = http.createServer((req, res) => handler(req, res, undefined, ssrLocals(site)));
  base = await listen(server);
}, 300_000);

afterAll(async () => {
  server?.close();
  await renderer?.close();
  db?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('in-process page renderer', () => {
  it.each(['/patreon/user/42', '/patreon/user/42/post/1', '/posts/tags', '/no/such/page', '/patreon/user/42?o=7'])(
    'renders %s with the same status and bytes as HTTP',
    async (key) => {
      const [inProcess, viaHttp] = await Promise.all([renderer.render(key), overHttp(key)]);
      expect(inProcess.status).toBe(viaHttp.status);
      expect(inProcess.body.toString()).toBe(viaHttp.body.toString());
      expect(inProcess.headers['content-type']).toBe(viaHttp.headers['content-type']);
    },
  );

  it('passes redirects through with their location', async () => {
    const byPublicId = await renderer.render('/patreon/user/renderer');
    expect(byPublicId.status).toBe(302);
    expect(byPublicId.headers.location).toBe('/patreon/user/42');
    const discord = await renderer.render('/discord/user/900');
    expect(discord.status).toBeGreaterThanOrEqual(300);
    expect(discord.headers.location).toBe('/discord/server/900');
  });

  it('renders many pages at once without mixing them up', async () => {
    const keys = Array.from({ length: 30 }, (_, index) => `/patreon/user/42/post/${index % 3}`);
    const pages = await Promise.all(keys.map((key) => renderer.render(key)));
    pages.forEach((page, index) => expect(page.body.toString()).toContain(`Render ${index % 3} 黒猫の日常`));
  });
});
