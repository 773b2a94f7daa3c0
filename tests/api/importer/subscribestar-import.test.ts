/**
 * The SubscribeStar importer against the fake SubscribeStar (tests/fakes/subscribestar.ts: the .com and
 * adult sites and the upload host on real HTTP) and a real SQLite file and data folder, driven by the
 * real import worker. The fake itself is tested in subscribestar.test.ts, the mapper in
 * subscribestar-map.test.ts.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '@api/config.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { getCreator } from '@api/data/creators.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { nowIso } from '@api/data/util.ts';
import { subscribestarImporter } from '@api/importer/paysites/subscribestar/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { bytesFor } from '../../fakes/kit/media.ts';
import {
  FAKE_SUBSCRIBESTAR_ADULT_KEY,
  FAKE_SUBSCRIBESTAR_KEY,
  generatedDataset,
  startFakeSubscribestar,
  type FakeSubscribestar,
  type FakeSubscribestarOptions,
} from '../../fakes/subscribestar.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeSubscribestar;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

const env = () => ({
  DATA_DIR: t.dir,
  TROVE_ENV: 'test',
  IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
  IMPORTER_SUBSCRIBESTAR_URL: fake.url,
  IMPORTER_SUBSCRIBESTAR_ADULT_URL: fake.adultUrl,
});
async function start(options: FakeSubscribestarOptions = {}) {
  await fake?.close();
  fake = await startFakeSubscribestar({ pageSize: 4, ...options });
  config = readConfig(env());
}
beforeEach(async () => {
  t = tempDb();
  await start();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

async function queue(id: string, key = FAKE_SUBSCRIBESTAR_KEY, keyId?: number) {
  await createImport(t.db, { id, service: 'subscribestar', key_id: keyId ?? null, work_key: sealForWorker(config, id, key) });
  return id;
}
async function run(id: string, key = FAKE_SUBSCRIBESTAR_KEY) {
  await queue(id, key);
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => subscribestarImporter });
  workers.push(w);
  await w.runOnce();
  return (await getImport(t.db, id))!;
}
const once = async () => {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => subscribestarImporter });
  workers.push(w);
  await w.runOnce();
};

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'subscribestar'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'subscribestar'"),
  changes: count('SELECT count(*) AS n FROM changes'),
});

/** The stored file hashes to its name and holds the bytes the fake serves for `name`. */
async function expectFakeBytes(stored: object | null | undefined, name: string) {
  const file = stored as { name?: string; path: string };
  expect(file?.name).toBe(name);
  const bytes = fs.readFileSync(path.join(t.dir, 'files', file.path));
  expect(file.path).toContain(createHash('sha256').update(bytes).digest('hex'));
  expect(bytes.equals((await bytesFor(name)).bytes)).toBe(true);
}

async function expectNoKeyLeak(id: string, key = FAKE_SUBSCRIBESTAR_KEY) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  expect(logs).not.toContain(key);
  expect(logs).not.toContain('_personalization_id');
  expect(logs).not.toContain(fake.cdnUrl);
}

describe('subscribestar import (www.subscribestar.com)', () => {
  it('imports the feed creator, its profile and every visible post over several load-more pages', async () => {
    const job = await run('full');
    expect(job).toMatchObject({ is_key_invalid: false, sub_count: 1 });
    expect(job.finished_at).not.toBeNull();
    expect(await getCreator(t.db, 'subscribestar', 'adastudio')).toMatchObject({ name: 'Ada Studio' });
    expect((await getCreator(t.db, 'subscribestar', 'adastudio'))!.last_imported).not.toBeNull();
    for (const kind of ['icons', 'banners']) expect(fs.existsSync(path.join(t.dir, kind, 'subscribestar', 'adastudio'))).toBe(true);
    // 18 posts, one deleted (never listed) and one above the key's $5 tier: 16 stored, on 5 pages of 4.
    expect(counts()).toMatchObject({ posts: 16, creators: 1, revisions: 0 });
    expect(fake.requests.filter((r) => r.host === 'com' && r.path.startsWith('/posts?page_end_order_position=')).length).toBe(4);
    expect(fake.requests.filter((r) => r.path.startsWith('/feed/page.json')).length).toBe(4);
    expect(await getPost(t.db, 'subscribestar', 'adastudio', '1320007')).toBeUndefined();
    expect(await getPost(t.db, 'subscribestar', 'adastudio', '1320008')).toBeUndefined();

    const gallery = (await getPost(t.db, 'subscribestar', 'adastudio', '1320002'))!;
    expect(gallery).toMatchObject({
      title: 'Sketch gallery',
      published: '2024-09-02T22:46:00',
      edited: null,
      tags: ['sketch', 'timelapse'],
    });
    await expectFakeBytes(gallery.file, 'sketch one.jpg');
    expect(gallery.attachments.map((a) => a.name)).toEqual(['sketch-two.png', 'timelapse.mp4']);
    await expectFakeBytes(gallery.attachments[1], 'timelapse.mp4');
    const docs = (await getPost(t.db, 'subscribestar', 'adastudio', '1320003'))!;
    expect(docs.file).toEqual({});
    await expectFakeBytes(docs.attachments[0], 'Ada brushes v3.zip');
    await expectFakeBytes(docs.attachments[1], 'Training for freelancers - Guide.pdf');
    await expectFakeBytes((await getPost(t.db, 'subscribestar', 'adastudio', '1320004'))!.attachments[0], 'episode 12.mp3');

    const blog = (await getPost(t.db, 'subscribestar', 'adastudio', '1320005'))!;
    expect(blog.content).toMatch(/^<div>Step one:<\/div><figure><img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg"/);
    expect(blog.content).toContain('<figcaption>step-one.jpg</figcaption></figure><div>Then colours.</div>');
    const embed = (await getPost(t.db, 'subscribestar', 'adastudio', '1320006'))!;
    expect(embed.content).toContain('<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(embed.content).not.toContain('/away');
    expect(embed.embed).toEqual({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', subject: 'YouTube', description: null });
    expect((await getPost(t.db, 'subscribestar', 'adastudio', '1320009'))!.title).toBe('Ünïcødé ✨ 日本語のタイトル');
    expect((await getPost(t.db, 'subscribestar', 'adastudio', '1320010'))!.title).toBe('');
    expect(await getPost(t.db, 'subscribestar', 'adastudio', '1320011')).toMatchObject({
      published: '2024-09-12T21:46:00',
      edited: '2024-09-12T21:46:00',
    });

    const logs = await getImportLogs(t.db, 'full');
    expect(logs).toEqual([
      'Started.',
      'Logged in on subscribestar.com.',
      'Found 1 creator in your feed.',
      'Creator Ada Studio: importing posts from subscribestar.com.',
      'Creator Ada Studio: 4 posts imported so far (page 1).',
      'Creator Ada Studio: 8 posts imported so far (page 2).',
      'Creator Ada Studio: post 1320007 ("Premium wallpapers") is above your tier; skipped.',
      'Creator Ada Studio: 11 posts imported so far (page 3).',
      'Creator Ada Studio: 15 posts imported so far (page 4).',
      'Creator Ada Studio: imported 16 posts. 1 post above your tier skipped.',
      'Finished.',
    ]);
    await expectNoKeyLeak('full');
    // Nor anywhere in the data folder (database, WAL, files) once the import ended.
    for (const name of fs.readdirSync(t.dir, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(t.dir, name);
      if (fs.statSync(file).isFile()) expect(fs.readFileSync(file).includes(FAKE_SUBSCRIBESTAR_KEY), name).toBe(false);
    }
  });

  it('fails as "key invalid" when the key is wrong or expired (the site shows a visitor its pages), and marks a kept key dead', async () => {
    const wrong = await run('wrong', 'bnVsbA--not-a-session');
    expect(wrong).toMatchObject({ is_key_invalid: true });
    expect(wrong.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, 'wrong')).at(-1)).toBe('SubscribeStar rejected the session key; the import failed.');

    fake.expireKey();
    const keyId = await addAutoImportKey(t.db, { service: 'subscribestar', encrypted_key: Buffer.from('sealed elsewhere') });
    await queue('expired', FAKE_SUBSCRIBESTAR_KEY, keyId);
    await once();
    expect(await getImport(t.db, 'expired')).toMatchObject({ is_key_invalid: true });
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts().posts).toBe(0);
    // Asked only whether it is logged in, on both sites.
    expect(new Set(fake.requests.map((r) => r.path))).toEqual(new Set(['/profile/settings']));
    await expectNoKeyLeak('expired');
  });

  it('waits out a short 429 Retry-After, retries a 503 and a Cloudflare check later, and finishes', async () => {
    fake.rateLimit(2, 1);
    const job = await run('limits');
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(job.finished_at).not.toBeNull();
    expect(counts().posts).toBe(16);

    await start();
    fake.fail(1, 503);
    expect((await run('5xx')).retry_count).toBe(1);
    expect((await getImportLogs(t.db, '5xx')).at(-1)).toMatch(/^SubscribeStar error: SubscribeStar answered 503; retrying at /);
    fake.challenge(1);
    await updateImport(t.db, '5xx', { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await once();
    expect((await getImportLogs(t.db, '5xx')).at(-1)).toMatch(
      /^SubscribeStar error: SubscribeStar answered with Cloudflare's browser check \(403\), which the importer cannot pass; retrying at /,
    );
    await updateImport(t.db, '5xx', { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await once();
    expect(await getImport(t.db, '5xx')).toMatchObject({ retry_count: 2 });
    expect((await getImport(t.db, '5xx'))!.finished_at).not.toBeNull();
    await expectNoKeyLeak('5xx');
  });

  it('changes nothing on an unchanged re-import; an edited post keeps its old version as a revision', async () => {
    await run('first');
    const first = counts();
    await run('again');
    expect(counts()).toEqual(first);

    fake.editPost(1320003, { title: 'Brush pack v4 and guide', body: '<div>New brushes below.</div>' });
    await run('edited');
    const post = (await getPost(t.db, 'subscribestar', 'adastudio', '1320003'))!;
    expect(post).toMatchObject({
      title: 'Brush pack v4 and guide',
      content: '<div>New brushes below.</div>',
      published: '2024-09-04T00:46:00',
    });
    expect(post.edited).not.toBeNull();
    expect(count("SELECT count(*) AS n FROM post_revisions WHERE post_id = '1320003'")).toBe(1);
    expect(counts()).toMatchObject({ posts: first.posts, files: first.files, revisions: 1 });
  });

  it('accepts a whole Cookie header as the key, and skips a star that asks for subscriber verification', async () => {
    const data = (await startFakeSubscribestar()).dataset;
    data.creators[2].subscribed = 5;
    await start({ dataset: data });
    const cookie = `_personalization_id=${FAKE_SUBSCRIBESTAR_KEY}; cookies_accepted=true`;
    const job = await run('cookie', cookie);
    expect(job.finished_at).not.toBeNull();
    expect(job.sub_count).toBe(2);
    expect(await getImportLogs(t.db, 'cookie')).toContain(
      'Creator Verify Me: SubscribeStar asks subscribers to verify their account before showing this page; skipped.',
    );
    expect(counts().posts).toBe(16);
    await expectNoKeyLeak('cookie', cookie);
  });
});

describe('subscribestar import (the adult site)', () => {
  it('passes the age confirmation form and follows /uploads?payload= hops and "redirected" pages to the files', async () => {
    await start({ strictAgeGate: true, htmlRedirects: true });
    const job = await run('adult', FAKE_SUBSCRIBESTAR_ADULT_KEY);
    expect(job.finished_at).not.toBeNull();
    expect(await getImportLogs(t.db, 'adult')).toContain('Logged in on the adult site (subscribestar.art).');
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/age_confirmation_warning')).toHaveLength(1);
    expect(counts().posts).toBe(4);
    const post = (await getPost(t.db, 'subscribestar', 'yozakura', '2410001'))!;
    await expectFakeBytes(post.file, '夜桜-1.jpg');
    await expectFakeBytes(post.attachments[0], 'clip.mp4');
    expect(await getImportLogs(t.db, 'adult')).toContain('Creator 夜桜アトリエ: post 2410003 ("VIP only") is above your tier; skipped.');
    await expectNoKeyLeak('adult', FAKE_SUBSCRIBESTAR_ADULT_KEY);

    // The same with plain 302 hops, into a fresh archive.
    t.cleanup();
    t = tempDb();
    await start();
    expect((await run('adult-302', FAKE_SUBSCRIBESTAR_ADULT_KEY)).finished_at).not.toBeNull();
    const again = (await getPost(t.db, 'subscribestar', 'yozakura', '2410001'))!;
    await expectFakeBytes(again.file, '夜桜-1.jpg');
    await expectFakeBytes(again.attachments[0], 'clip.mp4');
    expect(
      fake.requests.filter((r) => r.host === 'adult' && r.path.startsWith('/uploads?payload=')).map((r) => [r.method, r.status]),
    ).toEqual([
      ['HEAD', 302],
      ['HEAD', 302],
    ]);
  });

  it('says clearly when the age form is refused (a changed site), and retries later instead of finishing', async () => {
    await start({ strictAgeGate: true });
    fake.rejectAgeForm = true;
    const job = await run('age-refused', FAKE_SUBSCRIBESTAR_ADULT_KEY);
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect((await getImportLogs(t.db, 'age-refused')).at(-1)).toMatch(
      /^SubscribeStar error: SubscribeStar refused the age confirmation form \(422\); the site may have changed; retrying at /,
    );
    expect(counts().posts).toBe(0);
  });
});

describe('subscribestar import (crash)', () => {
  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every post once', async () => {
    await start({ dataset: generatedDataset(30), pageSize: 5 });
    const crash = workerCrash(() => env());
    try {
      await queue('crash');
      fake.delayMs = 60;
      await crash.killWhen(() => counts().posts >= 8);
      expect(counts().posts).toBeLessThan(30);
      expect((await getImport(t.db, 'crash'))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, 'crash'))!.finished_at);
      expect(counts()).toMatchObject({ posts: 30, creators: 3, revisions: 0, files: 60 + 6 });
      const logs = await getImportLogs(t.db, 'crash');
      for (const line of [
        'Found 3 creators in your feed.',
        'Creator Bench Star A: imported 10 posts.',
        'Creator Bench Star C: imported 10 posts.',
      ])
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      expect(logs.join('\n')).not.toContain(FAKE_SUBSCRIBESTAR_KEY);
    } finally {
      crash.cleanup();
    }
  }, 120_000);
});
