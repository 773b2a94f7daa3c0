/**
 * The Fantia importer against the fake fantia.jp (tests/fakes/fantia.ts: real HTTP, Fantia's paths,
 * HTML and JSON shapes, CSRF and header checks) over a real SQLite file and data folder, driven by the
 * real import worker; and kill -9 of scripts/worker.ts mid-import.
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
import { nowIso } from '@api/data/util.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { fantiaApi } from '@api/importer/paysites/fantia/api.ts';
import { fantiaImporter } from '@api/importer/paysites/fantia/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { bytesFor } from '../../fakes/kit/media.ts';
import { FAKE_FANTIA_KEY, startFakeFantia, type FakeFantia } from '../../fakes/fantia.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const KEY = FAKE_FANTIA_KEY;
const YUME = '130541';
const OWL = '245001';
let t: TempDb;
let fake: FakeFantia;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

beforeEach(async () => {
  t = tempDb();
  fake = await startFakeFantia({ pageSize: 8 });
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', IMPORTER_FANTIA_URL: fake.url });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

async function queue(id: string, keyId?: number) {
  await createImport(t.db, { id, service: 'fantia', key_id: keyId ?? null, work_key: sealForWorker(config, id, KEY) });
  return id;
}
function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => fantiaImporter });
  workers.push(w);
  return w;
}
const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'fantia'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'fantia'"),
});
const post = async (creator: string, id: number) => (await getPost(t.db, 'fantia', creator, String(id)))!;
const stored = (archivePath: string) => fs.readFileSync(path.join(t.dir, 'files', archivePath));
/** The stored file's bytes are the fake's for that name, and hash to the stored name. */
async function expectFakeBytes(archivePath: string, fakeName: string) {
  const bytes = stored(archivePath);
  expect(archivePath).toContain(createHash('sha256').update(bytes).digest('hex'));
  expect(bytes.equals((await bytesFor(fakeName)).bytes), fakeName).toBe(true);
}
async function expectNoKeyLeak(id: string) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  expect(logs).not.toContain(KEY);
  expect(logs).not.toContain('_session_id');
  expect(logs).not.toContain('Signature=');
  const rows = JSON.stringify(t.db.prepare("SELECT * FROM posts WHERE service = 'fantia'").all());
  expect(rows).not.toContain(KEY);
}

describe('fantia import', () => {
  it('imports the backed fanclubs, every visible content, files by their real names, and skips what the plan cannot see', async () => {
    const id = await queue('full');
    expect(await worker().runOnce()).toBe(true);
    const job = (await getImport(t.db, id))!;
    const logs = await getImportLogs(t.db, id);
    expect(job.finished_at, logs.join('\n')).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    expect(job.sub_count).toBe(2);
    expect((await getCreator(t.db, 'fantia', YUME))?.name).toBe('ゆめかわ工房');
    expect((await getCreator(t.db, 'fantia', OWL))?.name).toBe('Night Owl Studio');
    expect(await getCreator(t.db, 'fantia', '300777')).toBeUndefined();
    expect(fs.readFileSync(path.join(t.dir, 'icons', 'fantia', YUME)).equals((await bytesFor('5c1c8f2e-icon.jpg')).bytes)).toBe(true);
    expect(fs.existsSync(path.join(t.dir, 'banners', 'fantia', YUME))).toBe(true);
    expect(fs.existsSync(path.join(t.dir, 'banners', 'fantia', OWL))).toBe(false);

    // 22 live posts of ゆめかわ工房 on three list pages (8 a page, then an empty one); 4 of Night Owl.
    expect(counts().posts).toBe(22 + 4);
    for (const n of [1, 2, 3, 4]) expect(fake.requests.some((r) => r.path === `/fanclubs/${YUME}/posts?page=${n}`)).toBe(true);
    expect(await getPost(t.db, 'fantia', YUME, '2100013')).toBeUndefined();

    const text = await post(YUME, 2100001);
    expect(text).toMatchObject({ title: '初投稿です！', content: '<p>はじめまして。<br />よろしくお願いします。</p>', tags: ['お知らせ'] });
    expect(text.published).toBe('2024-05-01T03:00:00');
    expect(text.edited).toBeNull();

    const gallery = await post(YUME, 2100002);
    expect(gallery.file?.name).toBe('b7f0c1d2-spring.jpg');
    await expectFakeBytes(gallery.file!.path, 'b7f0c1d2-spring.jpg');
    expect(gallery.attachments.map((a) => a.name)).toEqual(['a01ddcb7-sakura.jpg', '611669be-hanami.png', '0d621f52-tsukushi.jpg']);
    await expectFakeBytes(gallery.attachments[1].path, '611669be-hanami.png');
    expect(gallery.content).toBe('<p>春のイラスト3枚です。</p><h3>春セット</h3><p>JPEG and PNG</p><p>桜</p><p>つくし</p>');
    expect(gallery.tags).toEqual(['イラスト', 'spring']);

    // Files come through fantia.jp's download link, redirected to the signed CDN URL.
    const zip = await post(YUME, 2100003);
    expect(zip.attachments.map((a) => a.name)).toEqual(['素材パック v2.zip']);
    await expectFakeBytes(zip.attachments[0].path, '素材パック v2.zip');
    expect(zip.file).toEqual({});
    const video = await post(YUME, 2100004);
    expect(video.attachments.map((a) => a.name)).toEqual(['sh83-1_メイキング.mp4']);
    expect(stored(video.attachments[0].path).subarray(4, 8).toString()).toBe('ftyp');
    expect(video.file?.name).toBe('c3d4e5f6-making.jpg');
    expect(
      stored((await post(YUME, 2100005)).attachments[0].path)
        .subarray(0, 3)
        .toString(),
    ).toBe('ID3');

    // The blog: paragraphs, a link, the album image archived inline, an outside image as a link.
    const blog = await post(YUME, 2100006);
    expect(blog.content).toMatch(
      /^<h3>制作日記<\/h3><p>今日はラフを描きました。<\/p><p><img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png"[^>]*><\/p><p>参考: <a href="https:\/\/www\.pixiv\.net\/users\/1"[^>]*>pixiv<\/a><\/p><p><a href="https:\/\/example\.com\/outside\.png"[^>]*>https:\/\/example\.com\/outside\.png<\/a><\/p><p>おわり<\/p>$/,
    );
    const inline = /src="\/data(\/[^"]+)"/.exec(blog.content)![1];
    await expectFakeBytes(inline, 'e1f2a3b4-rough.png');
    expect(fake.requests.some((r) => r.path.startsWith('/uploads/album_image/file/5100001/e1f2a3b4-rough.png?'))).toBe(true);

    expect((await post(YUME, 2100007)).embed).toEqual({
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      subject: 'アーカイブ',
      description: null,
    });
    expect((await post(YUME, 2100008)).content).toBe(
      '<p>本文はコンテンツ内にあります</p><h3>設定</h3><p>身長: 155cm<br />好きなもの: 🍓</p>',
    );
    expect((await post(YUME, 2100011)).content).toContain('<a href="https://fantia.jp/products/900001"');

    // Partly locked: the visible part is kept and the rest named; wholly locked: not stored.
    const partly = await post(YUME, 2100009);
    expect(partly.content).toBe('<p>1500円プラン向け</p><h3>お知らせ</h3><p>全員に見えます</p>');
    expect(partly.attachments).toEqual([]);
    expect(partly.incomplete_rewards).toBe('Not archived: 1 content for a higher plan (高解像度プラン, 1500円).');
    expect(logs).toContain('Post 2100009 (上位プラン限定 高解像度版): 1 content for a higher plan skipped.');
    // The adult post is visible (the account shows adult posts).
    expect((await post(YUME, 2100010)).file?.name).toBe('adadadad-variant.png');
    expect((await post(YUME, 2100012)).edited).toBe('2024-05-13T04:00:00');
    expect((await post(YUME, 2100014)).title).toBe('🎉 100人達成！ありがとう 🙏');

    expect(logs).toContain('Found 2 fanclubs with a paid plan.');
    expect(logs).toContain('Fanclub ゆめかわ工房: page 1 done.');
    expect(logs).toContain('Fanclub Night Owl Studio: imported 4 posts.');
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyLeak(id);

    // The post API was called as fantia.jp's own script calls it; the key never went to the CDN host's paths.
    const postCalls = fake.requests.filter((r) => r.path.startsWith('/api/v1/posts/'));
    expect(postCalls.every((r) => r.headers['x-requested-with'] === 'XMLHttpRequest' && r.headers['x-csrf-token'])).toBe(true);
    expect(postCalls.every((r) => r.status === 200)).toBe(true);
  });

  it('re-imports without duplicates or change rows; an edited post gets a revision', async () => {
    await queue('first');
    await worker().runOnce();
    const first = counts();
    const changesBefore = count("SELECT count(*) AS n FROM changes WHERE kind = 'post'");
    await queue('again');
    await worker().runOnce();
    expect(counts()).toEqual(first);
    expect(first.revisions).toBe(0);
    expect(count("SELECT count(*) AS n FROM changes WHERE kind = 'post'")).toBe(changesBefore);

    fake.advanceTime(120);
    fake.editPost(2100003, { title: '素材パック配布 (修正)', comment: '差分つきです。PSDも直しました。' });
    await queue('changed');
    await worker().runOnce();
    const edited = await post(YUME, 2100003);
    expect(edited.title).toBe('素材パック配布 (修正)');
    expect(edited.content).toContain('PSDも直しました。');
    expect(edited.edited).not.toBeNull();
    expect(count("SELECT count(*) AS n FROM post_revisions WHERE post_id = '2100003'")).toBe(1);
    expect(counts()).toEqual({ ...first, revisions: 1 });
  });

  it('skips a post the plan cannot see at all, and one deleted between the list and the post API, with log lines', async () => {
    const yume = fake.dataset.fanclubs[0];
    yume.posts.push({
      id: 2100099,
      title: '高額プラン限定',
      comment: 'ティーザー',
      rating: 'general',
      postedAt: Date.UTC(2024, 6, 1),
      convertedAt: null,
      tags: [],
      thumb: null,
      contents: [{ id: 3100099, category: 'file', title: '', comment: null, filename: 'hires.zip', planId: 12 }],
    });
    // Deleted after the list page was read: the post API answers 404.
    const original = fake.requests.length;
    const id = await queue('locked');
    const w = worker();
    const run = w.runOnce();
    // (The oldest post, on the last page: deleting one on a page already read would shift the later pages.)
    while (!fake.requests.slice(original).some((r) => r.path.startsWith(`/fanclubs/${YUME}/posts?page=3`))) await sleep(2);
    fake.deletePost(2100001);
    await run;
    const logs = await getImportLogs(t.db, id);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(await getPost(t.db, 'fantia', YUME, '2100099')).toBeUndefined();
    expect(logs).toContain('Post 2100099 (高額プラン限定): above your plan; skipped.');
    expect(fake.requests.some((r) => r.path.startsWith('/posts/2100099/download/'))).toBe(false);
    expect(await getPost(t.db, 'fantia', YUME, '2100001')).toBeUndefined();
    expect(logs).toContain('Post 2100001: gone from Fantia; skipped.');
    expect(logs).toContain('Fanclub ゆめかわ工房: imported 21 posts. 1 post above your plan skipped. 1 post gone from Fantia skipped.');
  });

  it("turns the account's adult setting on for the import and back off at the end", async () => {
    fake.adult = false;
    const id = await queue('adult');
    await worker().runOnce();
    expect(fake.adult).toBe(false);
    expect((await post(YUME, 2100010)).file?.name).toBe('adadadad-variant.png');
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain("Turned on the Fantia account's adult setting for this import; it is turned off again at the end.");
    expect(logs).toContain("Turned the Fantia account's adult setting back off.");
    const posts = fake.requests.filter((r) => r.path === '/mypage/users/update_rating');
    expect(posts.map((r) => r.status)).toEqual([302, 302]);
    expect(logs.at(-1)).toBe('Finished.');
  });

  it('waits out a short 429 Retry-After, and retries a long 429 and a 5xx later', async () => {
    fake.rateLimit(2, 1);
    const id = await queue('short-429');
    await worker().runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();

    fake.rateLimit(1, 3600);
    const long = await queue('long-429');
    await worker().runOnce();
    let job = (await getImport(t.db, long))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect(Date.parse(`${job.resuming_at}Z`) - Date.now()).toBeGreaterThan(3500_000);
    expect((await getImportLogs(t.db, long)).at(-1)).toMatch(/^Fantia error: Fantia rate limit reached \(429\); retrying at /);

    await updateImport(t.db, long, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 502);
    await worker().runOnce();
    job = (await getImport(t.db, long))!;
    expect(job.retry_count).toBe(2);
    expect((await getImportLogs(t.db, long)).at(-1)).toMatch(/^Fantia error: Fantia answered 502; retrying at /);
    await updateImport(t.db, long, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, long))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(26);
    await expectNoKeyLeak(long);
  });

  it('fails with is_key_invalid and marks a kept key dead when Fantia does not take the session', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'fantia', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await queue('expired', keyId);
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job).toMatchObject({ is_key_invalid: true });
    expect(job.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Fantia rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts().posts).toBe(0);
    await expectNoKeyLeak(id);
  });

  it('says clearly when Fantia wants a captcha solved, and retries later', async () => {
    fake.captcha(true);
    const id = await queue('captcha');
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      /^Fantia error: Fantia asks this session to solve a captcha: open fantia\.jp in the browser/,
    );
    fake.captcha(false);
    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
  });

  it('asks again with a fresh token from the post page when the post API refuses a token (403)', async () => {
    const ctx = { config, key: KEY, signal: new AbortController().signal } as unknown as ImportContext;
    const api = fantiaApi(ctx);
    const answer = await api.post('2100002', 'c3RhbGUgdG9rZW4gZnJvbSBhbm90aGVyIHNlc3Npb24=');
    expect(answer?.title).toBe('Gallery: spring set 🌸');
    const calls = fake.requests.filter((r) => r.path === '/api/v1/posts/2100002' || r.path === '/posts/2100002');
    expect(calls.map((r) => [r.path, r.status])).toEqual([
      ['/api/v1/posts/2100002', 403],
      ['/posts/2100002', 200],
      ['/api/v1/posts/2100002', 200],
    ]);
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every post once', async () => {
    const crash = workerCrash(() => ({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_FANTIA_URL: fake.url,
    }));
    try {
      const id = await queue('crash');
      fake.delayMs = 40;
      await crash.killWhen(() => counts().posts >= 8);
      expect(counts().posts).toBeLessThan(26);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(counts()).toMatchObject({ posts: 26, creators: 2, revisions: 0 });
      const logs = await getImportLogs(t.db, id);
      for (const line of [
        'Found 2 fanclubs with a paid plan.',
        'Fanclub ゆめかわ工房: page 1 done.',
        'Fanclub ゆめかわ工房: imported 22 posts.',
        'Finished.',
      ]) {
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      }
      expect(logs).toContain('Resumed after an interruption.');
      // The fanclub list was asked for once: the restart went on from the cursor.
      expect(fake.requests.filter((r) => r.path.startsWith('/mypage/users/plans?type=not_free&page=1'))).toHaveLength(1);
      await expectNoKeyLeak(id);
    } finally {
      crash.cleanup();
    }
  }, 120_000);
});
