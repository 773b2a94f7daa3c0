/**
 * The DLsite importer against the fake DLsite (tests/fakes/dlsite.ts: real HTTP, DLsite's paths, shapes,
 * session exchange and download redirects) and a real SQLite file and data folder, driven by the real
 * import worker (and, for the crash test, scripts/worker.ts killed with SIGKILL).
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
import { dlsiteImporter } from '@api/importer/paysites/dlsite/importer.ts';
import { dlsiteApi } from '@api/importer/paysites/dlsite/api.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { KeyRejectedError } from '@api/importer/errors.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { archiveBytes, FAKE_DLSITE_KEY, startFakeDlsite, type FakeDlsite, type FakeDlsiteOptions } from '../../fakes/dlsite.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeDlsite;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

const env = () => ({
  DATA_DIR: t.dir,
  TROVE_ENV: 'test',
  IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
  IMPORTER_DLSITE_URL: fake.url,
  IMPORTER_DLSITE_PLAY_URL: fake.url,
});
async function startFake(options: FakeDlsiteOptions = {}) {
  await fake?.close();
  fake = await startFakeDlsite(options);
  config = readConfig(env());
}

beforeEach(async () => {
  t = tempDb();
  await startFake();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

async function queue(id: string, key = FAKE_DLSITE_KEY, keyId?: number) {
  await createImport(t.db, { id, service: 'dlsite', key_id: keyId ?? null, work_key: sealForWorker(config, id, key) });
  return id;
}
function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => dlsiteImporter });
  workers.push(w);
  return w;
}
const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'dlsite'"),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'dlsite'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
});
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const stored = (archivePath: string) => fs.readFileSync(path.join(t.dir, 'files', archivePath));

/** The fake's bytes of a work's files, by name. */
async function fakeFiles(workno: string) {
  return archiveBytes(fake.dataset.works.find((w) => w.workno === workno)!);
}
async function expectNoKeyLeak(id: string) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  expect(logs).not.toContain(FAKE_DLSITE_KEY);
  expect(logs).not.toContain('__DLsite_SID');
  expect(logs).not.toContain('play_session');
  expect(logs).not.toContain('ABCD-1234-EFGH-5678');
  expect(logs).not.toContain(fake.url);
}

describe('dlsite import', () => {
  it('imports the library: each work a post of its circle, with description, cover and archives by their real names', async () => {
    const id = await queue('full');
    expect(await worker().runOnce()).toBe(true);
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    expect(job.sub_count).toBe(3);
    expect(counts()).toMatchObject({ posts: 9, creators: 3 });
    expect(await getCreator(t.db, 'dlsite', 'RG01000001')).toMatchObject({ name: 'ささやき工房' });
    expect((await getCreator(t.db, 'dlsite', 'RG01000002'))!.name).toBe('Pixel Lab ✦');
    expect((await getCreator(t.db, 'dlsite', 'VG01000001'))!.last_imported).not.toBeNull();

    const voice = (await getPost(t.db, 'dlsite', 'RG01000001', 'RJ01000001'))!;
    expect(voice).toMatchObject({
      title: '夏の終わりのASMR ～耳かきと子守唄～',
      published: '2024-06-30T15:00:00',
      edited: '2024-08-01T03:00:00',
      tags: ['ASMR', '耳かき', 'バイノーラル/ダミヘ'],
    });
    expect(voice.content).toMatch(
      /^<p>夏の終わりに、ゆっくり休みませんか。<\/p><p><img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg" alt="サンプル"/,
    );
    expect(voice.file).toMatchObject({ name: 'RJ01000001_img_main.jpg' });
    expect(voice.attachments.map((a) => a.name)).toEqual(['RJ01000001.zip']);
    // The archive as the file server sent it (redirected there with its cookie), hash-checked.
    const zip = (await fakeFiles('RJ01000001')).get('RJ01000001.zip')!;
    expect(sha256(stored(voice.attachments[0].path))).toBe(sha256(zip));
    expect(voice.attachments[0].path).toContain(sha256(zip));

    const split = (await getPost(t.db, 'dlsite', 'RG01000002', 'RJ01000002'))!;
    const parts = await fakeFiles('RJ01000002');
    expect(split.attachments.map((a) => [a.name, sha256(stored(a.path))])).toEqual([...parts].map(([n, b]) => [n, sha256(b)]));
    const serial = (await getPost(t.db, 'dlsite', 'VG01000001', 'VJ01000003'))!;
    expect(serial.attachments.map((a) => a.name)).toEqual(['VJ01000003.zip']);
    expect(JSON.stringify(t.db.prepare('SELECT * FROM posts').all())).not.toContain('ABCD-1234-EFGH-5678');
    // Browser-only: DLsite Play's web versions, named as in the work's tree.
    expect((await getPost(t.db, 'dlsite', 'RG01000002', 'RJ01000004'))!.attachments.map((a) => a.name)).toEqual([
      '001.jpg',
      '002.jpg',
      '003.jpg',
    ]);
    // DRM: the post (cover, description) without its viewer-only file.
    const drm = (await getPost(t.db, 'dlsite', 'RG01000001', 'RJ01000005'))!;
    expect(drm.attachments).toEqual([]);
    expect(drm.file).toMatchObject({ name: 'RJ01000005_img_main.jpg' });
    expect((await getPost(t.db, 'dlsite', 'RG01000002', 'RJ01000007'))!.title).toBe('✨夏祭り CG集 〜ünïcödé〜 🎆');
    expect((await getPost(t.db, 'dlsite', 'RG01000001', 'RJ01000008'))!.content).toBe('<p>テキストのみの作品です。</p>');
    // Withdrawn and unbought works are not stored.
    expect(await getPost(t.db, 'dlsite', 'RG01000001', 'RJ01000009')).toBeUndefined();
    expect(await getPost(t.db, 'dlsite', 'RG01000001', 'RJ01000010')).toBeUndefined();
    expect(fake.requests.some((r) => r.path.includes('RJ01000010'))).toBe(false);

    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Found 10 purchased works by 3 circles.',
      'Skipped 1 work DLsite no longer has (withdrawn or deleted): RJ01000009.',
      "Work RJ01000005: skipped RJ01000005.dlst (DRM: it opens only in DLsite's viewer).",
      'Imported 9 of 9 works.',
      'Circle ささやき工房: imported 4 works.',
      'Circle Pixel Lab ✦: imported 4 works.',
      'Circle Studio Nova: imported 1 work.',
    ])
      expect(logs).toContain(line);
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyLeak(id);
    // The Play session came from the exchange, and the browser's old one was never sent.
    const playCalls = fake.requests.filter((r) => r.host === 'play' && r.path.startsWith('/api/'));
    expect(playCalls.every((r) => /play_session=[0-9a-f]{48}/.test(r.headers.cookie ?? ''))).toBe(true);
    expect(
      fake.requests
        .filter((r) => r.host === 'www' && r.path.includes('/work/=/'))
        .every((r) => r.headers.cookie?.includes('adultchecked=1')),
    ).toBe(true);
  });

  it('pages the library in batches of page_limit, and makes a new Play session when the old one expires', async () => {
    await startFake({ pageLimit: 3 });
    const id = await queue('paged');
    const w = worker();
    const running = w.runOnce();
    while (counts().posts < 2) await sleep(5);
    fake.expirePlaySession();
    await running;
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(9);
    const logs = await getImportLogs(t.db, id);
    expect(logs.filter((l) => /^Imported \d of 9 works\.$/.test(l))).toEqual([
      'Imported 3 of 9 works.',
      'Imported 6 of 9 works.',
      'Imported 9 of 9 works.',
    ]);
    // Four batches for the plan (10 purchases), three for the 9 works.
    expect(fake.requests.filter((r) => r.path === '/api/v3/content/works')).toHaveLength(7);
    expect(fake.requests.filter((r) => r.path.startsWith('/api/v3/') && r.status === 401).length).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.path === '/login/callback?code=' || r.path.startsWith('/login/callback')).length).toBe(2);
  });

  it('fails with is_key_invalid and marks a kept key dead when DLsite refuses the key', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'dlsite', encrypted_key: Buffer.from('sealed elsewhere') });
    const id = await queue('wrong', 'notTheSession0123456789', keyId);
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job).toMatchObject({ is_key_invalid: true });
    expect(job.key_failed_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('DLsite rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts().posts).toBe(0);
    expect((await getImportLogs(t.db, id)).join('\n')).not.toContain('notTheSession0123456789');
  });

  it('fails when the session ends mid-import, keeping what was stored', async () => {
    const id = await queue('expired');
    fake.delayMs = 20;
    const running = worker().runOnce();
    while (counts().posts < 3) await sleep(5);
    fake.expireKey();
    await running;
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(true);
    expect(counts().posts).toBeGreaterThanOrEqual(3);
    await expectNoKeyLeak(id);
  });

  it('takes a whole browser Cookie string as the key (without its stale Play session), and no cookie reaches the data folder', async () => {
    const uid = 'LeakCheckUidJp_7f3a9c2e51';
    const key = `Cookie: __DLsite_SID=${FAKE_DLSITE_KEY}; uid_jp=${uid}; play_session=stalePlaySession0123456789; locale=ja-jp`;
    if (t.engine === 'sqlite') t.db.pragma('wal_autocheckpoint = 0');
    const id = await queue('cookie-string', key);
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(9);
    expect(fake.requests.some((r) => r.headers.cookie?.includes('stalePlaySession'))).toBe(false);
    expect(fake.requests.find((r) => r.path === '/api/v3/content/count')!.headers.cookie).toContain(`uid_jp=${uid}`);
    // Every byte of the data folder (database, its WAL, the file store, secrets) and the log, in clear, hex, base64, URL-encoded.
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    t.databaseFiles();
    const haystacks = [...files(t.dir).map((f) => fs.readFileSync(f)), Buffer.from((await getImportLogs(t.db, id)).join('\n'))];
    for (const secret of [FAKE_DLSITE_KEY, uid, key]) {
      const forms = [secret, Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64'), encodeURIComponent(secret)];
      for (const form of forms)
        expect(
          haystacks.some((h) => h.includes(form)),
          `${secret.slice(0, 8)}… as ${form.slice(0, 8)}…`,
        ).toBe(false);
    }
  });

  it("takes the store's login page where a download should be as a refused key", async () => {
    const api = dlsiteApi({ config, key: FAKE_DLSITE_KEY, signal: new AbortController().signal } as ImportContext);
    await api.connect();
    const target = await api.downloadTarget('RJ01000001');
    expect(await api.resolve(target!)).toMatchObject({ kind: 'file' });
    expect(await api.resolve(`${fake.url}/home/download/=/product_id/RJ01000002.html`)).toEqual({ kind: 'array' });
    fake.expireKey();
    await expect(api.resolve(target!)).rejects.toBeInstanceOf(KeyRejectedError);
  });

  it('waits out a short 429 Retry-After; a long one and a 5xx put the import back, and it resumes', async () => {
    fake.rateLimit(2, 1);
    const short = await queue('short-429');
    await worker().runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(t.db, short))!.finished_at).not.toBeNull();

    fake.rateLimit(1, 3600);
    const id = await queue('long-429');
    await worker().runOnce();
    let job = (await getImport(t.db, id))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect(Date.parse(`${job.resuming_at}Z`) - Date.now()).toBeGreaterThan(3500_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^DLsite error: DLsite rate limit reached \(429\); retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 503);
    await worker().runOnce();
    job = (await getImport(t.db, id))!;
    expect(job.retry_count).toBe(2);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^DLsite error: DLsite answered 503; retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(9);
    await expectNoKeyLeak(id);
  });

  it('says clearly, and retries later, when DLsite refuses a request it should answer (403)', async () => {
    fake.fail(1, 403);
    const id = await queue('refused');
    await worker().runOnce();
    expect((await getImport(t.db, id))!).toMatchObject({ finished_at: null, retry_count: 1, is_key_invalid: false });
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      /^DLsite error: DLsite refused a request \(403\): the importer may need an update; retrying at /,
    );
    // Mid-import (product.json of a work) the line names the work.
    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.delayMs = 20;
    const w = worker();
    const running = w.runOnce();
    while (!fake.requests.some((r) => r.path.includes('product.json'))) await sleep(1);
    fake.fail(1, 403);
    await running;
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      /^DLsite error: DLsite refused a request for RJ\d+ \(403\): the importer may need an update/,
    );
  });

  it('re-imports without downloading unchanged archives or recording changes; a version up stores a revision', async () => {
    await queue('first');
    await worker().runOnce();
    const first = counts();
    const changes = () => count("SELECT count(*) AS n FROM changes WHERE kind = 'post'");
    const before = changes();
    const downloads = () => fake.requests.filter((r) => r.host === 'download').length;
    const fetched = downloads();
    await queue('again');
    await worker().runOnce();
    expect(counts()).toEqual(first);
    expect(changes()).toBe(before);
    expect(downloads()).toBe(fetched);

    const old = (await getPost(t.db, 'dlsite', 'RG01000002', 'RJ01000006'))!;
    await fake.editPost('RJ01000006', { name: { ja_JP: '3秒タイムラプス動画 完全版' }, description: '<p>MP4動画2本。</p>' });
    await queue('changed');
    await worker().runOnce();
    const post = (await getPost(t.db, 'dlsite', 'RG01000002', 'RJ01000006'))!;
    expect(post.title).toBe('3秒タイムラプス動画 完全版');
    expect(post.content).toBe('<p>MP4動画2本。</p>');
    expect(post.edited).not.toBeNull();
    expect(post.attachments[0].path).not.toBe(old.attachments[0].path);
    expect(sha256(stored(post.attachments[0].path))).toBe(sha256((await fakeFiles('RJ01000006')).get('RJ01000006.zip')!));
    expect(count("SELECT count(*) AS n FROM post_revisions WHERE post_id = 'RJ01000006'")).toBe(1);
    expect(counts()).toMatchObject({ posts: 9, revisions: 1 });
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every work once', async () => {
    const crash = workerCrash(() => env());
    try {
      const id = await queue('crash');
      fake.delayMs = 120;
      await crash.killWhen(() => counts().posts >= 3);
      expect(counts().posts).toBeLessThan(9);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      const before = fake.requests.length;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(counts()).toMatchObject({ posts: 9, creators: 3, revisions: 0 });
      // The plan was not made again: the library was read once.
      expect(fake.requests.slice(before).some((r) => r.path.startsWith('/api/v3/content/sales'))).toBe(false);
      const logs = await getImportLogs(t.db, id);
      for (const line of [
        'Found 10 purchased works by 3 circles.',
        'Circle ささやき工房: imported 4 works.',
        'Imported 9 of 9 works.',
        'Finished.',
      ])
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      await expectNoKeyLeak(id);
    } finally {
      crash.cleanup();
    }
  }, 120_000);
});
