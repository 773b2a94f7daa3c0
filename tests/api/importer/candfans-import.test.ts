/**
 * The CandFans importer against the fake CandFans (tests/fakes/candfans.ts), a real SQLite file and a
 * real data folder, run by the real worker: a full import (XSRF handshake, joined plans and follows,
 * timeline paging, images, HLS video, audio, locked posts), re-imports and revisions, 429 / 5xx / 419, a
 * refused session, a stop and a kill -9 followed by a resume, no key anywhere it should not be, and the
 * benchmark entry.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listPostRevisions } from '@api/data/post-revisions.ts';
import { nowIso } from '@api/data/util.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { image, media } from '../../fakes/kit/media.ts';
import { demoDataset, filePaths, startFakeCandfans, type FakeCandfans, type FakeCandfansOptions } from '../../fakes/candfans.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeCandfans;
let config: ReturnType<typeof readConfig>;
let env: Record<string, string>;
const workers: ImportWorker[] = [];
let importCount = 0;

const [SAKURA, REN] = demoDataset().creators;
const SAKURA_ID = String(SAKURA.id);
const byTitle = (title: string) => [...SAKURA.posts, ...REN.posts].find((p) => p.title === title)!;
/** Sakura's 20 posts less the three above her joined plan; Ren's 3 less his members-only one. */
const VISIBLE = 19;

async function setup(options: FakeCandfansOptions = {}, extra: Record<string, string> = {}) {
  fake = await startFakeCandfans({ pageSize: 6, ...options });
  env = {
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_CANDFANS_URL: fake.url,
    IMPORTER_CANDFANS_CDN_URL: fake.imageUrl,
    ...extra,
  };
  config = readConfig(env);
}

beforeEach(() => {
  t = tempDb();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake?.close();
  t.cleanup();
});

async function queue(input: { key_id?: number; key?: string } = {}): Promise<string> {
  const id = `candfans-${++importCount}`;
  await createImport(t.db, { id, service: 'candfans', key_id: input.key_id, work_key: sealForWorker(config, id, input.key ?? fake.key) });
  return id;
}

function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000 });
  workers.push(w);
  return w;
}

async function runImport(input: Parameters<typeof queue>[0] = {}) {
  const id = await queue(input);
  await worker().runOnce();
  return id;
}

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const postCount = () => count("SELECT count(*) AS n FROM posts WHERE service = 'candfans'");
const stored = (publicPath: string) => fs.readFileSync(path.join(t.dir, 'files', ...publicPath.split('/').filter(Boolean)));
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const snapshot = () => ({
  posts: postCount(),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
});
const post = async (title: string) => {
  const p = byTitle(title);
  return await getPost(t.db, 'candfans', String(SAKURA.posts.includes(p) ? SAKURA.id : REN.id), String(p.id));
};
const jpeg = (p: string, width = 64, height = 48) => image(p, { format: 'jpeg', width, height, inset: true });

describe('a full import', () => {
  it('shakes hands, finds joined plans and follows, pages every timeline and stores what the key can see', async () => {
    await setup();
    const id = await runImport();
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Finished.');
    expect(await getImport(t.db, id)).toMatchObject({ is_key_invalid: false, sub_count: 11 });
    expect(await getCreator(t.db, 'candfans', SAKURA_ID)).toMatchObject({ name: 'さくら Sakura', public_id: 'sakura_cf' });
    expect(await getCreator(t.db, 'candfans', String(REN.id))).toMatchObject({ name: 'Ren', public_id: 'ren_sound' });
    expect(sha(fs.readFileSync(path.join(t.dir, 'icons', 'candfans', SAKURA_ID)))).toBe(
      sha(await jpeg(`/user/${SAKURA.id}/profile/icon-${SAKURA.id}.jpg`, 32, 32)),
    );
    expect(
      fs
        .readFileSync(path.join(t.dir, 'banners', 'candfans', SAKURA_ID))
        .subarray(0, 3)
        .toString('hex'),
    ).toBe('ffd8ff');
    expect(postCount()).toBe(VISIBLE);

    // Oldest first, six a page (the fake's `record` when none is sent) until an empty page.
    const pages = fake.requests
      .filter((r) => r.path.startsWith(`/api/contents/get-timeline?user_id=${SAKURA.id}&`))
      .map((r) => new URL(r.path, fake.url).searchParams);
    expect(pages.map((q) => q.get('page'))).toEqual(['1', '2', '3', '4', '5']);
    expect(pages.every((q) => q.get('sort_order') === 'old' && !q.has('post_type[]'))).toBe(true);
    // Every API call but the public profile came from candfans.jp with the XSRF token; the handshake came first.
    const api = fake.requests.filter((r) => r.host === 'api');
    expect(api[0].path).toBe('/api/sanctum/csrf-cookie');
    expect(api.filter((r) => r.path !== '/api/sanctum/csrf-cookie').every((r) => /^eyJpdiI6/.test(r.headers['x-xsrf-token'] ?? ''))).toBe(
      true,
    );
    expect(api.every((r) => r.headers.referer === 'https://candfans.jp/')).toBe(true);
    expect(api.filter((r) => r.status !== 200 && r.status !== 204).map((r) => `${r.status} ${r.path}`)).toEqual(
      Array.from({ length: 9 }, (_, i) => `404 /api/user/get-users?user_code=follow_${i + 1}`),
    );
    expect(fake.requests.filter((r) => r.host !== 'api' && r.status !== 200)).toEqual([]);

    const text = (await post('はじめまして'))!;
    expect(text).toMatchObject({
      title: 'はじめまして',
      content: '<p>CandFansはじめました！よろしくお願いします。</p>',
      file: {},
      attachments: [],
    });
    expect(text.published).toBe('2024-02-01T12:01:15');

    const gallery = (await post('撮影オフショット'))!;
    const paths = filePaths(SAKURA, byTitle('撮影オフショット'));
    expect((gallery.file as { name: string }).name).toBe('thumbnail.jpg');
    expect(sha(stored((gallery.file as { path: string }).path))).toBe(sha(await jpeg(paths.thumbnail, 48, 27)));
    expect(gallery.attachments.map((a) => a.name)).toEqual(paths.files.map((p) => p.split('/').pop()));
    for (const [i, a] of gallery.attachments.entries()) expect(sha(stored(a.path))).toBe(sha(await jpeg(paths.files[i])));
    expect(gallery.tags).toEqual(['撮影', 'オフショット']);

    const video = (await post('メイキング動画'))!;
    expect(video.attachments.map((a) => a.name)).toEqual([`${byTitle('メイキング動画').files[0]}.mp4`]);
    expect(stored(video.attachments[0].path).subarray(4, 8).toString()).toBe('ftyp');
    // The master playlist's best rendition, not the low one.
    expect(fake.requests.some((r) => r.path.endsWith(`${byTitle('メイキング動画').files[0]}_high_000.ts`))).toBe(true);
    expect(fake.requests.some((r) => r.path.endsWith(`${byTitle('メイキング動画').files[0]}_low_000.ts`))).toBe(false);
    expect(video.tags).toEqual(['メイキング', '撮影']);

    const audio = (await post('ボイスメッセージ'))!;
    expect(sha(stored(audio.attachments[0].path))).toBe(sha(await media.mp3()));
    expect((await post('絵文字とUnicode ✨ «Ünïcödé»'))!.content).toBe('<p>改行も<br />あります &amp; &lt;b&gt;タグではない&lt;/b&gt;</p>');
    const single = (await post('一枚だけ'))!;
    expect(single.attachments).toHaveLength(1);
    for (const locked of ['プレミアム限定', '単品販売の動画', 'バックナンバー', 'Session'])
      expect(await post(locked), locked).toBeUndefined();
    expect((await post('Studio'))!.attachments).toHaveLength(1);

    expect(logs).toEqual(
      expect.arrayContaining([
        'Found 11 creators (1 with a joined plan, 11 followed).',
        'Creator さくら Sakura: importing posts.',
        'Creator さくら Sakura: imported 17 posts.',
        'Creator さくら Sakura: skipped 1 post this account cannot see (for a plan this account has not joined).',
        'Creator さくら Sakura: skipped 1 post this account cannot see (sold separately).',
        'Creator さくら Sakura: skipped 1 post this account cannot see (back numbers not bought).',
        'Creator Ren: imported 2 posts.',
        'Creator Ren: skipped 1 post this account cannot see (for a plan this account has not joined).',
        'Creator follow_1: CandFans has no such user; skipped.',
      ]),
    );
    const everything = JSON.stringify([t.db.prepare('SELECT * FROM import_logs').all(), t.db.prepare('SELECT * FROM imports').all()]);
    expect(everything).not.toContain(fake.key);
    expect(everything).not.toContain(decodeURIComponent(fake.key));
  });

  it('takes the key URL-decoded too (as some browsers show it)', async () => {
    await setup({ pageSize: 50 });
    const id = await runImport({ key: decodeURIComponent(fake.key) });
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(VISIBLE);
  });
});

describe('importing again', () => {
  it('changes nothing on an identical re-import and keeps a revision of a changed post', async () => {
    await setup();
    await runImport();
    const before = snapshot();
    expect(before).toMatchObject({ posts: VISIBLE, revisions: 0 });
    const changes = count('SELECT count(*) AS n FROM changes');

    await runImport();
    expect(snapshot()).toEqual(before);
    expect(count("SELECT count(*) AS n FROM changes WHERE id > ? AND kind = 'post'", changes)).toBe(0);

    const edited = byTitle('お知らせ');
    fake.editPost(edited.id, { title: 'お知らせ（更新）', text: 'ウィッシュリストを更新しました #お知らせ' });
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(snapshot()).toEqual({ ...before, revisions: 1 });
    const [revision] = await listPostRevisions(t.db, 'candfans', SAKURA_ID, String(edited.id));
    expect(revision).toMatchObject({ title: 'お知らせ', content: '<p>ウィッシュリストはこちら https://example.com/wishlist</p>' });
    expect(await getPost(t.db, 'candfans', SAKURA_ID, String(edited.id))).toMatchObject({
      title: 'お知らせ（更新）',
      content: '<p>ウィッシュリストを更新しました #お知らせ</p>',
      tags: ['お知らせ'],
    });
  });
});

describe('paysite trouble', () => {
  it('waits out a short 429 Retry-After and finishes in the same try', async () => {
    await setup();
    fake.rateLimit(2, 1);
    const started = Date.now();
    const id = await runImport();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(await getImport(t.db, id)).toMatchObject({ retry_count: 0 });
    expect(postCount()).toBe(VISIBLE);
  });

  it('retries later after a long 429 and a 5xx, then resumes where it stopped', async () => {
    await setup();
    const w = worker();
    const id = await queue();
    fake.rateLimit(1, 600);
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting).toMatchObject({ finished_at: null, retry_count: 1 });
    expect(Date.parse(`${waiting.resuming_at}Z`)).toBeGreaterThan(Date.now() + 590_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^CandFans error: CandFans rate limit reached \(429\); retrying at .* UTC\.$/);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 503);
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toContain('CandFans error: CandFans answered 503; retrying at');

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(VISIBLE);
  });

  it('renews the XSRF token once on a 419, and says so clearly when CandFans keeps refusing it', async () => {
    await setup();
    fake.xsrfMismatch(1);
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(VISIBLE);
    const api = fake.requests.filter((r) => r.host === 'api').map((r) => `${r.status} ${r.path}`);
    expect(api.slice(0, 4)).toEqual([
      '204 /api/sanctum/csrf-cookie',
      '419 /api/user/get-user-mine',
      '204 /api/sanctum/csrf-cookie',
      '200 /api/user/get-user-mine',
    ]);

    fake.xsrfMismatch(2);
    const refused = await runImport();
    expect(await getImport(t.db, refused)).toMatchObject({ finished_at: null, is_key_invalid: false, retry_count: 1 });
    expect((await getImportLogs(t.db, refused)).at(-1)).toMatch(
      /^CandFans error: CandFans refused the XSRF token twice \(419 CSRF token mismatch\); the site may have changed its checks; retrying at/,
    );
  });

  it('fails the import on a wrong or expired session and marks the kept key dead', async () => {
    await setup();
    const keyId = await addAutoImportKey(t.db, { service: 'candfans', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await runImport({ key_id: keyId });
    expect(await getImport(t.db, id)).toMatchObject({ is_key_invalid: true, finished_at: expect.any(String) });
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('CandFans rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(postCount()).toBe(0);
  });

  it('skips an HLS video over the size cap with a log line and keeps the post', async () => {
    await setup({}, { IMPORTER_MAX_FILE_MB: '0.01' });
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(await getImportLogs(t.db, id)).toContain(`Skipped ${byTitle('メイキング動画').files[0]}.mp4: larger than 10 KB.`);
    expect((await post('メイキング動画'))!.attachments).toEqual([]);
    expect((await post('メイキング動画'))!.file).toMatchObject({ name: 'thumbnail.jpg' });
  });
});

describe('stopping and resuming', () => {
  it('survives kill -9 of scripts/worker.ts mid-timeline: the restart finishes with every post once', async () => {
    await setup();
    const crash = workerCrash(() => env);
    try {
      const id = await queue();
      fake.delayMs = 60;
      await crash.killWhen(() => postCount() >= 5);
      expect(postCount()).toBeLessThan(VISIBLE);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(snapshot()).toMatchObject({ posts: VISIBLE, revisions: 0 });
      const logs = await getImportLogs(t.db, id);
      expect(logs.filter((l) => l.startsWith('Found 11 creators'))).toHaveLength(1);
      expect(logs.filter((l) => l === 'Creator さくら Sakura: imported 17 posts.')).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
    } finally {
      crash.cleanup();
    }
  }, 90_000);
});

describe('the key', () => {
  it('is nowhere in the data folder after an import, URL-encoded or not', async () => {
    await setup();
    await runImport();
    if (t.engine === 'sqlite') t.db.pragma('wal_checkpoint(PASSIVE)');
    t.databaseFiles();
    const needles = [fake.key, decodeURIComponent(fake.key)].map((k) => Buffer.from(k));
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    expect(walk(t.dir).filter((file) => needles.some((needle) => fs.readFileSync(file).includes(needle)))).toEqual([]);
  });
});
