/**
 * The Afdian importer against the fake Afdian (tests/fakes/afdian.ts: real HTTP, the web API's paths,
 * {ec, em, data} answers, publish_sn paging, signed CDN links) over a real SQLite file and data folder,
 * driven by the real import worker (and, for the crash test, scripts/worker.ts killed with SIGKILL).
 * The fake's own tests and the mapper's table are in afdian.test.ts.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '@api/config.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { getCreator } from '@api/data/creators.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { nowIso } from '@api/data/util.ts';
import { afdianEndpoints } from '@api/importer/paysites/afdian/endpoints.ts';
import { afdianImporter } from '@api/importer/paysites/afdian/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { FAKE_AFDIAN_KEY, startFakeAfdian, type FakeAfdian, type FakeAfdianOptions } from '../../fakes/afdian.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const KEY = FAKE_AFDIAN_KEY;
let t: TempDb;
let fake: FakeAfdian;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

async function setup(options: FakeAfdianOptions = {}) {
  await fake?.close();
  fake = await startFakeAfdian({ key: KEY, ...options });
  config = readConfig({
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_AFDIAN_URL: fake.url,
    IMPORTER_MAX_FILE_MB: '1',
  });
}
beforeEach(async () => {
  t = tempDb();
  await setup();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

async function queue(id: string, keyId?: number) {
  await createImport(t.db, { id, service: 'afdian', key_id: keyId ?? null, work_key: sealForWorker(config, id, KEY) });
  return id;
}
function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => afdianImporter });
  workers.push(w);
  return w;
}

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'afdian'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'afdian'"),
});
const creatorId = (slug: string) => fake.dataset.creators.find((c) => c.slug === slug)!.userId;
const postOf = async (title: string) => {
  const c = fake.dataset.creators.find((cr) => cr.posts.some((p) => p.title === title))!;
  return await getPost(t.db, 'afdian', c.userId, c.posts.find((p) => p.title === title)!.postId);
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The stored file exists, its bytes hash to its name, and (when given) they are the fake's bytes. */
async function expectStored(file: { path?: string } | null | undefined, fakeUrl?: string) {
  const m = /^\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(file?.path ?? '');
  expect(m, file?.path).not.toBeNull();
  const bytes = fs.readFileSync(path.join(t.dir, 'files', file?.path ?? ''));
  expect(sha256(bytes)).toBe(m![3]);
  if (fakeUrl) expect(sha256(Buffer.from(await (await fetch(fakeUrl)).arrayBuffer()))).toBe(m![3]);
}
/** The detail the fake gives the key now (fresh signed links). */
async function detail(title: string) {
  const id = fake.dataset.creators.flatMap((c) => c.posts).find((p) => p.title === title)!.postId;
  const res = await fetch(`${fake.url}/api/post/get-detail?post_id=${id}&album_id=`, { headers: { cookie: `auth_token=${KEY}` } });
  return ((await res.json()) as { data: { post: Record<string, any> } }).data.post;
}
async function expectNoKeyLeak(id: string) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  expect(logs).not.toContain(KEY);
  expect(logs).not.toContain('auth_token');
  expect(logs).not.toContain('sign=');
  const rows = JSON.stringify(t.db.prepare("SELECT * FROM posts WHERE service = 'afdian'").all());
  expect(rows).not.toContain(KEY);
}

describe('afdian import', () => {
  it('imports the sponsored creators, their posts with files, inline images, audio, video and album posts', async () => {
    const id = await queue('full');
    expect(await worker().runOnce()).toBe(true);
    const requests = [...fake.requests];
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    expect(job.sub_count).toBe(2);

    expect(await getCreator(t.db, 'afdian', creatorId('hoshino'))).toMatchObject({ name: '星野工作室', public_id: 'hoshino' });
    expect((await getCreator(t.db, 'afdian', creatorId('LumenAudio')))?.last_imported).not.toBeNull();
    expect(await getCreator(t.db, 'afdian', creatorId('jiumeng'))).toBeUndefined();
    for (const kind of ['icons', 'banners']) expect(fs.existsSync(path.join(t.dir, kind, 'afdian', creatorId('hoshino')))).toBe(true);

    // 星野: 13 listed (the deleted one is gone), one above the ¥30 plan; Lumen: 4, one opened by a bought album.
    expect(counts()).toMatchObject({ posts: 15, creators: 2, revisions: 0 });
    expect(await postOf('高级方案专属')).toBeUndefined();
    expect(await postOf('已删除的动态')).toBeUndefined();
    expect(await postOf('Stems for ¥50 patrons')).toBeUndefined();
    expect(await postOf('第一章')).toBeUndefined();

    const pinned = (await postOf('【置顶】赞助说明'))!;
    expect(pinned.content).toBe('<p>感谢支持！每月更新草图与源文件。</p>');
    expect(pinned.published).toBe('2025-04-02T00:01:00');
    expect((await postOf('日常碎碎念'))!.content).toBe('<p>今天画了很久的背景。</p><p>明天继续 &amp; 加油！</p>');
    expect((await postOf('🌸 中文标题 · 日本語 — ünïcödé'))!.content).toContain('שלום');

    const gallery = (await postOf('四月草图合集'))!;
    const pics = (await detail('四月草图合集')).pics as string[];
    expect(gallery.file?.name).toMatch(/_w24_h16_s1\.jpeg$/);
    expect(gallery.attachments).toHaveLength(2);
    await expectStored(gallery.file, pics[0]);
    await expectStored(gallery.attachments[1], pics[2]);

    const article = (await postOf('上色教程：云'))!;
    expect(article.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpeg"/);
    expect(article.content).not.toContain(fake.cdnUrl);
    expect(article.content).toContain('href="https://www.bilibili.com/video/BV1xx411c7mD"');
    expect(article.embed).toMatchObject({ url: 'https://www.bilibili.com/video/BV1xx411c7mD' });

    const audio = (await postOf('睡前故事（音频）'))!;
    expect(audio.file?.name).toMatch(/\.jpeg$/);
    expect(audio.attachments.map((a) => a.name)).toEqual(['睡前故事（音频）.mp3']);
    await expectStored(audio.attachments[0], (await detail('睡前故事（音频）')).audio);
    const video = (await postOf('绘画过程录屏'))!;
    expect(video.attachments.map((a) => a.name)).toEqual(['绘画过程录屏.mp4']);
    await expectStored(video.attachments[0], (await detail('绘画过程录屏')).video);
    await expectStored(video.file, (await detail('绘画过程录屏')).video_thumb);
    const file = (await postOf('设定资料下载'))!;
    expect(file.attachments.map((a) => a.name)).toEqual(['角色设定资料.zip']);
    await expectStored(file.attachments[0], (await detail('设定资料下载')).attachment[0].url);
    expect((await postOf('Night drive (EP track)'))!.attachments.map((a) => a.name)).toEqual(['Night drive (EP track).mp3']);

    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Found 2 sponsored creators.',
      '1 sponsorship that ran out not imported.',
      'Skipped "高级方案专属": your sponsorship does not unlock it.',
      'Creator 星野工作室: imported 12 posts. 1 post your sponsorship does not unlock skipped.',
      'Skipped "Stems for ¥50 patrons": your sponsorship does not unlock it.',
      'Creator Lumen Audio: imported 3 posts. 1 post your sponsorship does not unlock skipped.',
    ])
      expect(logs).toContain(line);
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyLeak(id);

    // The cookie went with every API call (the fake's CDN shares 127.0.0.1 with its API, so the real
    // separation is the endpoint's: no credential host besides afdian.com); the CDN saw afdian's Referer.
    const api = requests.filter((r) => r.host === 'api');
    expect(api.every((r) => r.headers.cookie === `auth_token=${KEY}`)).toBe(true);
    expect(afdianEndpoints.credentialHosts).toEqual([]);
    expect(requests.filter((r) => r.host === 'cdn').every((r) => r.headers.referer === 'https://afdian.com/')).toBe(true);
    // The album post was asked for inside its album.
    expect(api.some((r) => r.path.startsWith('/api/post/get-detail') && !r.path.endsWith('album_id='))).toBe(true);
  });

  it('pages the post list by publish_sn across several pages', async () => {
    await setup({ pageSize: 3 });
    const id = await queue('pages');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(15);
    const lists = fake.requests.filter((r) => r.path.startsWith(`/api/post/get-list?user_id=${creatorId('hoshino')}`));
    expect(lists).toHaveLength(5);
    expect(lists[0].path).toContain('publish_sn=&');
    expect(new Set(lists.map((r) => /publish_sn=(\d*)/.exec(r.path)![1])).size).toBe(5);
    expect(await getImportLogs(t.db, id)).toContain('Creator 星野工作室: page 5 done, 12 posts so far.');
  });

  it('follows an attachment link that redirects to the CDN and stores the fake’s bytes', async () => {
    await setup({ attachmentRedirect: true });
    await queue('redirect');
    await worker().runOnce();
    const post = (await postOf('设定资料下载'))!;
    const link = (await detail('设定资料下载')).attachment[0].url as string;
    expect(link.startsWith(fake.url)).toBe(true);
    await expectStored(post.attachments[0], (await fetch(link, { headers: { cookie: `auth_token=${KEY}` } })).url);
    expect(fake.requests.some((r) => r.path.startsWith('/api/file/download') && r.status === 302)).toBe(true);
  });

  for (const refusal of ['http401', 'ec'] as const) {
    it(`fails with the key invalid when Afdian refuses it (${refusal}) and marks a kept key dead`, async () => {
      await setup({ refusal });
      fake.expireKey();
      const keyId = await addAutoImportKey(t.db, { service: 'afdian', encrypted_key: Buffer.from('sealed elsewhere') });
      const id = await queue('refused', keyId);
      await worker().runOnce();
      const job = (await getImport(t.db, id))!;
      expect(job).toMatchObject({ is_key_invalid: true });
      expect(job.finished_at).not.toBeNull();
      expect((await getImportLogs(t.db, id)).at(-1)).toBe('Afdian rejected the session key; the import failed.');
      expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
      expect(counts().posts).toBe(0);
      await expectNoKeyLeak(id);
    });
  }

  it('fails rather than finishing when the key stops working mid-import (posts would all look locked)', async () => {
    fake.delayMs = 20;
    const id = await queue('logged-out');
    const running = worker().runOnce();
    while (counts().posts < 3) await sleep(10);
    fake.expireKey();
    await running;
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(true);
    expect(await getImportLogs(t.db, id)).not.toContain('Finished.');
  });

  it('waits out a short 429 Retry-After, and puts the import back on a long 429 or a 5xx', async () => {
    fake.rateLimit(2, 1);
    const first = await queue('short-429');
    await worker().runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(t.db, first))!.finished_at).not.toBeNull();

    fake.rateLimit(1, 3600);
    const id = await queue('long-429');
    await worker().runOnce();
    let job = (await getImport(t.db, id))!;
    expect(job).toMatchObject({ finished_at: null, retry_count: 1 });
    expect(Date.parse(`${job.resuming_at}Z`) - Date.now()).toBeGreaterThan(3500_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Afdian error: Afdian rate limit reached \(429\); retrying at /);
    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 502);
    await worker().runOnce();
    job = (await getImport(t.db, id))!;
    expect(job.retry_count).toBe(2);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Afdian error: Afdian answered 502; retrying at /);
    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(15);
  });

  it('re-imports without changes or change rows, and a changed post keeps its old version as a revision', async () => {
    await queue('first');
    await worker().runOnce();
    const first = counts();
    const postChanges = () => count("SELECT count(*) AS n FROM changes WHERE kind = 'post'");
    const before = postChanges();
    await queue('again');
    await worker().runOnce();
    expect(counts()).toEqual(first);
    expect(postChanges()).toBe(before);

    const postId = fake.dataset.creators[0].posts.find((p) => p.title === '日常碎碎念')!.postId;
    fake.editPost(postId, { title: '日常碎碎念（修改）', content: '<p>改过了。</p>' });
    await queue('changed');
    await worker().runOnce();
    expect((await postOf('日常碎碎念（修改）'))!.content).toBe('<p>改过了。</p>');
    expect(count('SELECT count(*) AS n FROM post_revisions WHERE post_id = ?', postId)).toBe(1);
    expect(counts()).toEqual({ ...first, revisions: 1 });
  });

  it('retries later with a clear line when Afdian answers a shape it does not know', async () => {
    (fake.dataset.creators[0] as { name: unknown }).name = 42;
    const id = await queue('shape');
    await worker().runOnce();
    expect(await getImport(t.db, id)).toMatchObject({ finished_at: null, retry_count: 1 });
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      /^Afdian error: Afdian answered .* in a shape this importer does not understand/,
    );
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every post once', async () => {
    const crash = workerCrash(() => ({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_AFDIAN_URL: fake.url,
      IMPORTER_MAX_FILE_MB: '1',
    }));
    try {
      await setup({ pageSize: 3 });
      const id = await queue('crash');
      fake.delayMs = 120;
      await crash.killWhen(() => counts().posts >= 5);
      expect(counts().posts).toBeLessThan(15);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(counts()).toMatchObject({ posts: 15, creators: 2, revisions: 0 });
      const logs = await getImportLogs(t.db, id);
      for (const line of [
        'Found 2 sponsored creators.',
        'Creator 星野工作室: imported 12 posts. 1 post your sponsorship does not unlock skipped.',
      ])
        expect(logs.filter((l) => l === line)).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      expect(logs.join('\n')).not.toContain(KEY);
    } finally {
      crash.cleanup();
    }
  }, 150_000);
});
