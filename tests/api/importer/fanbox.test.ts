/**
 * The Fanbox importer against a fake Fanbox (tests/fakes/fanbox.ts: real HTTP, Fanbox's paths and
 * shapes) and a real SQLite file and data folder, driven by the real import worker.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { listAnnouncements } from '@api/data/announcements.ts';
import { listFancards } from '@api/data/fancards.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listComments } from '@api/data/comments.ts';
import { nowIso } from '@api/data/util.ts';
import { fanboxImporter } from '@api/importer/paysites/fanbox/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { startFakeFanbox, type FakeFanbox } from '../../fakes/fanbox.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const KEY = '12345678_sEcReTsEsSiOnKeYfAnBoX0123';
let t: TempDb;
let fake: FakeFanbox;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

beforeEach(async () => {
  t = tempDb();
  fake = await startFakeFanbox({ key: KEY });
  config = readConfig({
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_FANBOX_URL: fake.url,
    IMPORTER_MAX_FILE_MB: '1',
  });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

async function queue(id: string, keyId?: number) {
  await createImport(t.db, { id, service: 'fanbox', key_id: keyId ?? null, work_key: sealForWorker(config, id, KEY) });
  return id;
}

function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => fanboxImporter });
  workers.push(w);
  return w;
}

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'fanbox'"),
  comments: count("SELECT count(*) AS n FROM comments WHERE service = 'fanbox'"),
  files: count('SELECT count(*) AS n FROM files'),
  fancards: count('SELECT count(*) AS n FROM fancards'),
  announcements: count('SELECT count(*) AS n FROM announcements'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'fanbox'"),
});

/** The stored file behind an archive path exists and its bytes hash to the name. */
function expectStored(archivePath: string) {
  const m = /^\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(archivePath);
  expect(m, archivePath).not.toBeNull();
  const bytes = fs.readFileSync(path.join(t.dir, 'files', archivePath));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(m![3]);
  expect(m![3].slice(0, 2)).toBe(m![1]);
}

async function expectNoKeyLeak(id: string) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  expect(logs).not.toContain(KEY);
  expect(logs).not.toContain('FANBOXSESSID');
}

describe('fanbox import', () => {
  it('imports subscriptions, creators, posts over several pages, files, comments, fancards and announcements', async () => {
    const id = await queue('full');
    expect(await worker().runOnce()).toBe(true);
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    expect(job.sub_count).toBe(2);

    const alice = (await getCreator(t.db, 'fanbox', '1000001'))!;
    expect(alice).toMatchObject({ name: 'Alice', public_id: 'alice-art' });
    expect(alice.last_imported).not.toBeNull();
    expect((await getCreator(t.db, 'fanbox', '2000002'))?.name).toBe('Bob');
    expect(fs.existsSync(path.join(t.dir, 'icons', 'fanbox', '1000001'))).toBe(true);
    expect(fs.existsSync(path.join(t.dir, 'banners', 'fanbox', '1000001'))).toBe(true);

    // 23 posts of Alice on three pages, one above the user's plan; Bob's 2.
    expect(counts().posts).toBe(24);
    expect(await getPost(t.db, 'fanbox', '1000001', '5004')).toBeUndefined();
    expect(fake.requests.filter((r) => r.path.startsWith('/post.listCreator?creatorId=alice-art')).length).toBe(3);
    expect((await getPost(t.db, 'fanbox', '1000001', '4000'))?.content).toBe('<p>Entry 0</p>');

    const article = (await getPost(t.db, 'fanbox', '1000001', '5001'))!;
    expect(article.title).toBe('Article with everything');
    expect(article.published).toBe('2024-03-28T03:00:00');
    expect(article.edited).toBe('2024-03-28T23:00:00');
    expect(article.tags).toEqual(['illust', 'article']);
    expect(article.content).toContain('<h2>Chapter &lt;1&gt;</h2>');
    expect(article.content).toContain('<b>Bold</b>');
    expect(article.content).toMatch(/<a href="https:\/\/example\.com\/x"[^>]*>link<\/a>/);
    expect(article.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png"/);
    expect(article.content).not.toContain(fake.url);
    expect(article.content).toMatch(/href="\/data\/[0-9a-f\/]+\.zip\?f=bonus%20pack\.zip"[^>]*>bonus pack\.zip</);
    expect(article.content).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(article.content).toContain('https://example.org/page');
    expect(article.embed).toMatchObject({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
    expect(article.file).toMatchObject({ name: 'cover-5001.png' });
    expect(article.attachments.map((a) => a.name)).toEqual(['bonus pack.zip']);
    expectStored((article.file as { path: string }).path);
    expectStored(article.attachments[0].path);

    const images = (await getPost(t.db, 'fanbox', '1000001', '5002'))!;
    expect(images.content).toBe('<p>Two pictures.</p><p>Enjoy &lt;3</p>');
    expect(images.file).toMatchObject({ name: 'set-1.png' });
    expect(images.attachments.map((a) => a.name)).toEqual(['set-2.png']);
    expectStored(images.attachments[0].path);
    expect((await getPost(t.db, 'fanbox', '1000001', '5003'))!.attachments.map((a) => a.name)).toEqual(['pack.zip']);
    expect((await getPost(t.db, 'fanbox', '2000002', '6001'))!.embed).toMatchObject({ url: 'https://vimeo.com/12345' });

    // 12 comments on two pages of ten, plus a reply.
    const comments = await listComments(t.db, 'fanbox', '1000001', '5002');
    expect(comments).toHaveLength(13);
    expect(fake.requests.filter((r) => r.path.startsWith('/post.getComments?postId=5002')).length).toBe(2);
    expect(comments.find((c) => c.id === 'r1')).toMatchObject({ parent_id: 'c1', commenter: '1000001', commenter_name: 'Alice' });
    expect(comments.find((c) => c.id === 'c3')).toMatchObject({
      parent_id: null,
      content: '<p>Comment 3 &lt;b&gt;</p>',
      commenter_name: 'Fan 3',
    });

    const cards = await listFancards(t.db, 'fanbox', '1000001');
    expect(cards).toHaveLength(1);
    expect(cards[0].price).toBe('500円');
    expectStored(cards[0].path);
    expect(await listFancards(t.db, 'fanbox', '2000002')).toHaveLength(0);

    // Newsletters of imported creators only (not of an unsubscribed one, nor of a closed account).
    expect((await listAnnouncements(t.db, 'fanbox', '1000001')).map((a) => [a.content, a.published])).toEqual([
      ['<p>Thank you all!<br>New plan soon.</p>', '2024-03-01T01:00:00'],
    ]);
    expect(await listAnnouncements(t.db, 'fanbox', '2000002')).toHaveLength(1);
    expect(counts().announcements).toBe(2);

    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Found 2 subscriptions.');
    expect(logs).toContain('Creator Alice: 3 pages of posts to import.');
    expect(logs).toContain('Creator Alice: saved the fancard.');
    expect(logs).toContain('Creator Alice: imported 22 posts. 1 post above your plan skipped.');
    expect(logs).toContain('Creator Bob: imported 2 posts.');
    expect(logs).toContain('Saved 2 announcements.');
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyLeak(id);

    // Every API call went as www.fanbox.cc sends it.
    const apiCalls = fake.requests.filter((r) => !r.path.startsWith('/files/'));
    expect(apiCalls.every((r) => r.headers.origin === 'https://www.fanbox.cc' && r.headers.cookie === `FANBOXSESSID=${KEY}`)).toBe(true);
  });

  it('re-imports without duplicates, and a changed post gets a revision', async () => {
    await queue('first');
    await worker().runOnce();
    const first = counts();
    await queue('again');
    await worker().runOnce();
    expect(counts()).toEqual(first);
    expect(first.revisions).toBe(0);

    (fake.post('5003')!.body as { text: string }).text = 'Download below (fixed link).';
    await queue('changed');
    await worker().runOnce();
    expect((await getPost(t.db, 'fanbox', '1000001', '5003'))!.content).toBe('<p>Download below (fixed link).</p>');
    expect(count("SELECT count(*) AS n FROM post_revisions WHERE post_id = '5003'")).toBe(1);
    expect(counts()).toEqual({ ...first, revisions: 1 });
  });

  it('waits out a short 429 Retry-After and finishes', async () => {
    fake.rateLimit(2, 1);
    const id = await queue('short-429');
    await worker().runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(24);
  });

  it('puts the import back with resuming_at on a long 429 or a 5xx, and resumes it', async () => {
    fake.rateLimit(1, 3600);
    const id = await queue('long-429');
    await worker().runOnce();
    let job = (await getImport(t.db, id))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect(Date.parse(`${job.resuming_at}Z`) - Date.now()).toBeGreaterThan(3500_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Pixiv Fanbox error: Fanbox rate limit reached \(429\); retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 503);
    await worker().runOnce();
    job = (await getImport(t.db, id))!;
    expect(job.retry_count).toBe(2);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Pixiv Fanbox error: Fanbox answered 503; retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(24);
    await expectNoKeyLeak(id);
  });

  it('fails with is_key_invalid and marks a kept key dead when Fanbox says 401', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'fanbox', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await queue('expired', keyId);
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job.is_key_invalid).toBe(true);
    expect(job.key_failed_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Pixiv Fanbox rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts().posts).toBe(0);
    await expectNoKeyLeak(id);
  });

  it('retries later, with a clear line, when Fanbox answers a shape it does not know', async () => {
    fake.overrides.set('/post.paginateCreator', { body: { pages: 'not a list' } });
    const id = await queue('shape');
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      /^Pixiv Fanbox error: Fanbox answered the post pages in a shape this importer does not understand; retrying at /,
    );
    expect(await getCreator(t.db, 'fanbox', '1000001')).toBeUndefined();
  });

  it('skips a file redirected to a foreign host, one over the size cap and one gone, with log lines', async () => {
    fake.creators[1].posts.push({
      id: '6003',
      title: 'Odd files',
      type: 'image',
      publishedDatetime: '2024-03-11T12:00:00+09:00',
      body: {
        text: 'Some files',
        images: [
          { id: 'a', originalUrl: `${fake.url}/away/elsewhere.png` },
          { id: 'b', originalUrl: `${fake.url}/files/big-file.png` },
          { id: 'c', originalUrl: `${fake.url}/files/gone-file.png` },
          { id: 'd', originalUrl: `${fake.url}/files/fine.png` },
        ],
      },
    });
    const id = await queue('odd');
    await worker().runOnce();
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Skipped elsewhere.png: Fanbox pointed at localhost, which is not one of its hosts.');
    expect(logs).toContain('Skipped big-file.png: larger than 1 MB.');
    expect(logs).toContain('Skipped gone-file.png: the paysite answered 404.');
    expect(fake.requests.some((r) => r.path === '/files/elsewhere.png')).toBe(false);
    const post = (await getPost(t.db, 'fanbox', '2000002', '6003'))!;
    expect(post.file).toMatchObject({ name: 'fine.png' });
    expect(post.attachments).toEqual([]);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(logs.join('\n')).not.toContain(fake.url);
  });

  it('resumes after the worker stops mid-import, with nothing twice and nothing lost', async () => {
    fake.delayMs = 15;
    const id = await queue('crash');
    const first = worker();
    const running = first.runOnce();
    while (counts().posts < 6) await sleep(10);
    await first.stop();
    await running;
    const midway = (await getImport(t.db, id))!;
    expect(midway.finished_at).toBeNull();
    expect(counts().posts).toBeLessThan(24);
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('The worker stopped; the import will resume.');

    fake.delayMs = 0;
    const before = fake.requests.length;
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts()).toMatchObject({ posts: 24, comments: 13, fancards: 1, announcements: 2, revisions: 0 });
    // The subscription list was not asked for again; the resumed run continued from the cursor.
    expect(fake.requests.slice(before).some((r) => r.path === '/plan.listSupporting')).toBe(false);
    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Found 2 subscriptions.',
      'Creator Alice: page 1 of 3 done.',
      'Creator Alice: imported 22 posts. 1 post above your plan skipped.',
    ]) {
      expect(
        logs.filter((l) => l === line),
        line,
      ).toHaveLength(1);
    }
    await expectNoKeyLeak(id);
  });
});
