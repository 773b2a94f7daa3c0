/**
 * The Gumroad importer against the fake Gumroad (tests/fakes/gumroad.ts: real HTTP, Gumroad's paths,
 * pages and redirects), a real SQLite file and data folder, driven by the real import worker. The
 * fake's own tests are in gumroad.test.ts, the mapper's in gumroad-map.test.ts.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listPostRevisions } from '@api/data/post-revisions.ts';
import { nowIso } from '@api/data/util.ts';
import { gumroadImporter } from '@api/importer/paysites/gumroad/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { bytesFor } from '../../fakes/kit/media.ts';
import { FAKE_GUMROAD_KEY as KEY, startFakeGumroad, type FakeGumroad, type FakeGumroadOptions } from '../../fakes/gumroad.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const ALICE = '4710001234567';
const BOB = '4710009876543';
let t: TempDb;
let fake: FakeGumroad;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];
let n = 0;

async function setup(options: FakeGumroadOptions = {}) {
  fake = await startFakeGumroad(options);
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', IMPORTER_GUMROAD_URL: fake.url });
}
beforeEach(() => {
  t = tempDb();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake?.close();
  t.cleanup();
});

async function queue(keyId?: number, key = KEY) {
  const id = `gumroad-${++n}`;
  await createImport(t.db, { id, service: 'gumroad', key_id: keyId ?? null, work_key: sealForWorker(config, id, key) });
  return id;
}
function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => gumroadImporter });
  workers.push(w);
  return w;
}
async function runImport(keyId?: number, key?: string) {
  const id = await queue(keyId, key);
  await worker().runOnce();
  return id;
}

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'gumroad'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'gumroad'"),
});
const postChanges = () => count("SELECT count(*) AS n FROM changes WHERE kind = 'post'");
const post = async (user: string, id: string) => (await getPost(t.db, 'gumroad', user, id))!;

/** The stored bytes behind an archive path: they hash to its name, and equal `expected` when given. */
function expectStored(archivePath: string, expected?: Buffer) {
  const m = /^\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(archivePath);
  expect(m, archivePath).not.toBeNull();
  const bytes = fs.readFileSync(path.join(t.dir, 'files', archivePath));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(m![3]);
  if (expected) expect(bytes.equals(expected)).toBe(true);
}

/** Nothing logged or stored holds the key, raw or URL-encoded (the data folder, WAL included). */
async function expectNoKey(id: string) {
  // The buyer's e-mail is on every download page: it is never kept either.
  const forms = [KEY, encodeURIComponent(KEY), KEY.slice(10, 60), fake.dataset.buyer.email];
  const logs = (await getImportLogs(t.db, id)).join('\n');
  for (const form of forms) expect(logs).not.toContain(form);
  expect(logs).not.toContain('_gumroad_app_session');
  if (t.engine === 'sqlite') t.db.pragma('wal_checkpoint(TRUNCATE)');
  t.databaseFiles();
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(t.dir).filter((f) => !f.includes(`${path.sep}secrets${path.sep}`))) {
    const text = fs.readFileSync(file).toString('latin1');
    for (const form of forms) expect(text.includes(form), file).toBe(false);
  }
}

describe('gumroad import', () => {
  it('imports every purchase of the library as a post of its seller, with files, covers, pages and icons', async () => {
    await setup({ pageSize: 5 });
    const id = await runImport();
    const job = (await getImport(t.db, id))!;
    expect([job.finished_at !== null, job.is_key_invalid, job.sub_count]).toEqual([true, false, 2]);

    expect(await getCreator(t.db, 'gumroad', ALICE)).toMatchObject({ name: 'Alice Brushes', public_id: null });
    expect((await getCreator(t.db, 'gumroad', BOB))?.name).toBe('Bob Sounds');
    expect(fs.existsSync(path.join(t.dir, 'icons', 'gumroad', ALICE))).toBe(true);
    // Bob has Gumroad's default avatar: not an icon of his.
    expect(fs.existsSync(path.join(t.dir, 'icons', 'gumroad', BOB))).toBe(false);

    // Alice: 6 in the library (stamped ebook included, its PDF skipped); Bob: 13, one revoked. Not the
    // archived, refunded or dead-membership purchases, and nothing the key did not buy.
    expect(counts()).toMatchObject({ posts: 18, creators: 2, revisions: 0 });
    for (const gone of ['monthly', 'refund', 'oldie']) expect(await getPost(t.db, 'gumroad', ALICE, gone)).toBeUndefined();
    expect(await getPost(t.db, 'gumroad', BOB, 'pack12')).toBeUndefined();
    const bobPages = fake.requests.filter((r) => r.host === 'app' && r.path.startsWith(`/library?sort=purchase_date&creators=${BOB}`));
    expect(bobPages.map((r) => r.path).sort()).toEqual([
      `/library?sort=purchase_date&creators=${BOB}`,
      `/library?sort=purchase_date&creators=${BOB}`,
      `/library?sort=purchase_date&creators=${BOB}&page=2`,
      `/library?sort=purchase_date&creators=${BOB}&page=3`,
    ]);

    const brush = await post(ALICE, 'brushpk');
    expect(brush.title).toBe('Brush pack');
    expect(brush.published).toBeNull();
    expect(brush.file).toMatchObject({ name: 'cover-1.jpg' });
    expect(brush.attachments.map((a) => a.name)).toEqual(['cover-2.png', 'Brushes v2.zip', 'Guide.pdf']);
    expectStored(brush.attachments[1].path, (await bytesFor('Brushes v2.zip')).bytes);
    expectStored(brush.attachments[2].path, (await bytesFor('Guide.pdf')).bytes);
    expectStored((brush.file as { path: string }).path, (await bytesFor('brush-cover.jpg')).bytes);
    expect(brush.content).toContain('24 brushes for <strong>Procreate</strong>.');
    expect(brush.content).toContain('<h2>Welcome!</h2>');
    expect(brush.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png"/);
    expect(brush.content).toMatch(/<a href="\/data\/[0-9a-f/]+\.zip\?f=Brushes%20v2\.zip"[^>]*>Brushes v2\.zip<\/a>/);
    expect(brush.content).not.toContain(fake.url);
    expect(brush.content).not.toContain(fake.cdnUrl);
    expect(brush.embed).toMatchObject({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', subject: 'Process video' });
    expect(brush.edited).toBe('2024-01-10T09:00:00');

    const course = await post(ALICE, 'tlcourse');
    expect(course.attachments.map((a) => a.name)).toEqual(['Lesson 1 - Sketching.mp4', 'Lesson 1 commentary.mp3', 'Lesson 2 - Inking.mp4']);
    expectStored(course.attachments[0].path, (await bytesFor('Lesson 1 - Sketching.mp4')).bytes);
    // The stream-only lesson came from its HLS playlist, transmuxed into one MP4.
    const stream = fs.readFileSync(path.join(t.dir, 'files', course.attachments[2].path));
    expect(stream.subarray(4, 8).toString()).toBe('ftyp');

    expect(await post(ALICE, 'thanks')).toMatchObject({ file: {}, attachments: [] });
    expect((await post(ALICE, 'thanks')).content).toBe('<p>Just a note.</p><hr /><p>Thank you for the support — it means a lot.</p>');
    expect((await post(ALICE, 'unicode')).title).toBe('Ünïcode 日本語パック ✨');
    expect((await post(ALICE, 'unicode')).attachments.map((a) => a.name)).toEqual(['日本語 ファイル.png']);
    expect((await post(ALICE, 'stamped')).attachments).toEqual([]);
    expect((await post(ALICE, 'pruned')).attachments.map((a) => a.name)).toEqual(['Kept.zip']);
    expect((await post(BOB, 'pack3')).attachments.map((a) => a.name)).toEqual(['Pack 3.zip']);

    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Found 2 creators in the library.',
      'Left out 1 archived purchase (unarchive them in the Gumroad library to import them).',
      'Creator Alice Brushes: 6 purchases to import.',
      "Skipped Ebook.pdf: stamped with the buyer's e-mail, not archived.",
      'Creator Alice Brushes: imported 6 products.',
      'Skipped Sample pack 12: access to it was revoked.',
      'Creator Bob Sounds: imported 12 products. 1 purchase skipped.',
      'Finished.',
    ])
      expect(logs, line).toContain(line);
    // The cookie went URL-encoded, and only to Gumroad's own pages, never to the file host.
    const app = fake.requests.filter((r) => r.host !== 'cdn');
    expect(app.every((r) => r.headers.cookie === fake.cookie)).toBe(true);
    await expectNoKey(id);
  });

  it('reads the 2025 react_on_rails pages too, and takes a key pasted already URL-encoded', async () => {
    await setup({ generation: 'react_on_rails' });
    const id = await runImport(undefined, encodeURIComponent(KEY));
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts()).toMatchObject({ posts: 18, creators: 2 });
    expect((await post(ALICE, 'brushpk')).attachments.map((a) => a.name)).toEqual(['cover-2.png', 'Brushes v2.zip', 'Guide.pdf']);
  });

  it('changes nothing on an identical re-import, and keeps a revision of a changed product', async () => {
    await setup();
    await runImport();
    const first = counts();
    const changes = postChanges();
    await runImport();
    expect(counts()).toEqual(first);
    expect(postChanges()).toBe(changes);

    fake.editPost('thanks', { pageText: 'A new note.' });
    const id = await runImport();
    expect(counts()).toEqual({ ...first, revisions: 1 });
    expect((await post(ALICE, 'thanks')).content).toBe('<p>Just a note.</p><hr /><p>A new note.</p>');
    expect((await listPostRevisions(t.db, 'gumroad', ALICE, 'thanks'))[0].content).toContain('it means a lot');
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
  });

  it('fails with "key invalid" when Gumroad sends the library to its login page, and marks a kept key dead', async () => {
    await setup();
    const keyId = await addAutoImportKey(t.db, { service: 'gumroad', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await runImport(keyId);
    const job = (await getImport(t.db, id))!;
    expect([job.is_key_invalid, job.key_failed_at !== null, job.finished_at !== null]).toEqual([true, true, true]);
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Gumroad rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts().posts).toBe(0);
    await expectNoKey(id);
  });

  it('waits out a 429 with Retry-After, backs off on a 429 without one and on a 5xx, then resumes', async () => {
    await setup();
    fake.rateLimit(1, 1);
    const id = await queue();
    await worker().runOnce();
    expect(await getImport(t.db, id)).toMatchObject({ retry_count: 0 });
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(1);

    const again = await queue();
    fake.rateLimit(1);
    await worker().runOnce();
    expect(await getImport(t.db, again)).toMatchObject({ retry_count: 1, finished_at: null });
    expect((await getImportLogs(t.db, again)).at(-1)).toMatch(/^Gumroad error: Gumroad rate limit reached \(429\); retrying at /);
    await updateImport(t.db, again, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 502);
    await worker().runOnce();
    expect(await getImport(t.db, again)).toMatchObject({ retry_count: 2, finished_at: null });
    expect((await getImportLogs(t.db, again)).at(-1)).toMatch(/^Gumroad error: Gumroad answered 502; retrying at /);
    await updateImport(t.db, again, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, again))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(18);
  });

  it('fails the import when the key ends mid-import (downloads turn into the e-mail confirmation page)', async () => {
    await setup();
    fake.delayMs = 5;
    const id = await queue();
    const running = worker().runOnce();
    while (counts().posts < 2) await sleep(5);
    fake.expireKey();
    await running;
    expect(await getImport(t.db, id)).toMatchObject({ is_key_invalid: true });
    expect(counts().posts).toBeLessThan(18);
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every product once', async () => {
    await setup({ pageSize: 5 });
    const crash = workerCrash(() => ({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_GUMROAD_URL: fake.url,
    }));
    try {
      const id = await queue();
      fake.delayMs = 60;
      await crash.killWhen(() => counts().posts >= 4);
      expect(counts().posts).toBeLessThan(18);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      const before = fake.requests.length;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(counts()).toMatchObject({ posts: 18, creators: 2, revisions: 0 });
      // The restart went on from the cursor: the library overview was not asked for again.
      expect(fake.requests.slice(before).some((r) => r.path === '/library?sort=purchase_date')).toBe(false);
      const logs = await getImportLogs(t.db, id);
      for (const line of ['Found 2 creators in the library.', 'Creator Alice Brushes: imported 6 products.', 'Finished.'])
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      await expectNoKey(id);
    } finally {
      crash.cleanup();
    }
  }, 120_000);
});
