/**
 * The Boosty importer against the fake Boosty (tests/fakes/boosty.ts: real HTTP, api.boosty.to's paths,
 * shapes, paging and refusals, and a CDN with real bytes) and a real SQLite file and data folder,
 * driven by the real import worker.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, getImportWorkKey, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listComments } from '@api/data/comments.ts';
import { nowIso } from '@api/data/util.ts';
import { boostyImporter } from '@api/importer/paysites/boosty/importer.ts';
import { openForWorker, sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { FAKE_BOOSTY_AUTH, FAKE_BOOSTY_KEY, startFakeBoosty, type FakeBoosty, type FakeBoostyOptions } from '../../fakes/boosty.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeBoosty;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];

async function setUp(options: FakeBoostyOptions = {}) {
  fake = await startFakeBoosty(options);
  config = readConfig({
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_BOOSTY_URL: fake.url,
  });
}

beforeEach(async () => {
  t = tempDb();
  await setUp();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

/** Restarts the fake with other options (the first one is closed). */
async function restartFake(options: FakeBoostyOptions) {
  await fake.close();
  await setUp(options);
}

async function queue(id: string, key = FAKE_BOOSTY_KEY, keyId?: number) {
  await createImport(t.db, { id, service: 'boosty', key_id: keyId ?? null, work_key: sealForWorker(config, id, key) });
  return id;
}

function worker() {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000, importers: () => boostyImporter });
  workers.push(w);
  return w;
}

const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const counts = () => ({
  posts: count("SELECT count(*) AS n FROM posts WHERE service = 'boosty'"),
  comments: count("SELECT count(*) AS n FROM comments WHERE service = 'boosty'"),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
  creators: count("SELECT count(*) AS n FROM creators WHERE service = 'boosty'"),
});
const postByTitle = (title: string) => fake.dataset.blogs.flatMap((b) => b.posts).find((p) => p.title === title)!;
const stored = (blog: string, title: string) => getPost(t.db, 'boosty', blog, postByTitle(title).id);

/** The stored file behind an archive path exists and its bytes hash to the name; returns the bytes. */
function storedBytes(archivePath: string): Buffer {
  const m = /^\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(archivePath);
  expect(m, archivePath).not.toBeNull();
  const bytes = fs.readFileSync(path.join(t.dir, 'files', archivePath));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(m![3]);
  return bytes;
}

/** What the fake serves at a URL (the CDN needs no credentials; files take the post's signedQuery). */
async function fakeBytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const SECRETS = [FAKE_BOOSTY_KEY, FAKE_BOOSTY_AUTH.accessToken, FAKE_BOOSTY_AUTH.refreshToken, decodeURIComponent(FAKE_BOOSTY_KEY)];
async function expectNoKeyLeak(id: string, extra: string[] = []) {
  const logs = (await getImportLogs(t.db, id)).join('\n');
  const rows = JSON.stringify(t.db.prepare("SELECT * FROM posts WHERE service = 'boosty'").all());
  for (const secret of [...SECRETS, ...extra]) {
    expect(logs).not.toContain(secret);
    expect(rows).not.toContain(secret);
  }
  expect(logs).not.toMatch(/sign=|expire_time=|Bearer/);
}

const MARIYA = 'mariya-art';
const SYNTH = 'synthwave-lab';

describe('boosty import', () => {
  it('imports the subscriptions, creators, posts with their blocks, media, comments, poll and tags', async () => {
    const id = await queue('full');
    expect(await worker().runOnce()).toBe(true);
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    expect(job.sub_count).toBe(2);

    expect((await getCreator(t.db, 'boosty', MARIYA))?.name).toBe('Мария Иванова 🎨');
    expect((await getCreator(t.db, 'boosty', MARIYA))?.last_imported).not.toBeNull();
    expect((await getCreator(t.db, 'boosty', SYNTH))?.name).toBe('Synthwave Lab');
    for (const kind of ['icons', 'banners']) expect(fs.existsSync(path.join(t.dir, kind, 'boosty', MARIYA)), kind).toBe(true);

    // 15 visible posts of Mariya (one deleted), one locked; Synthwave's 2 free of 4.
    expect(counts()).toMatchObject({ posts: 16, creators: 2, revisions: 0 });
    expect(await stored(MARIYA, 'Только для меценатов')).toBeUndefined();
    expect(await stored(MARIYA, 'Удалённый пост')).toBeUndefined();
    expect(await stored(SYNTH, 'Patron pack')).toBeUndefined();

    const text = (await stored(MARIYA, 'Заметки о цвете'))!;
    expect(text.content).toBe(
      '<h2>Тёплое и холодное</h2><p><b>Жирный</b> и <i>курсив</i> в одной строке.</p><ol><li>Палитра</li><li>Свет</li><li>Тень</li></ol><p>:heart:</p>',
    );
    expect(text.tags).toEqual(['теория', 'цвет']);
    expect(text.published).toBe('2024-03-21T00:00:00');
    expect(text.edited).toBeNull();
    const comments = await listComments(t.db, 'boosty', MARIYA, text.id);
    expect(comments).toHaveLength(4);
    expect(comments.find((c) => c.commenter_name === 'Pavel')?.content).toBe('<p>A &lt;b&gt;tag&lt;/b&gt; &amp; an ampersand</p>');
    const reply = comments.find((c) => c.commenter === '144001')!;
    expect(reply.parent_id).toBe(comments.find((c) => c.commenter_name === 'Ольга')!.id);

    const gallery = (await stored(MARIYA, 'Скетчи недели'))!;
    expect(gallery.content).toMatch(/^<p>Три наброска\.<\/p>(<p><img src="\/data\/[0-9a-f/]+\.png"[^>]*><\/p>){3}$/);
    expect(gallery.file?.name).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(gallery.attachments).toHaveLength(2);
    const main = gallery.file as { name: string; path: string };
    // The stored bytes are the fake's (hash check), under the block's id.
    expect(storedBytes(main.path).equals(await fakeBytes(`${fake.cdnUrl}/image/${main.name.slice(0, 36)}`))).toBe(true);

    const files = (await stored(MARIYA, 'Исходники PSD'))!;
    expect(files.file).toEqual({});
    expect(files.attachments.map((a) => a.name)).toEqual(['Исходники_скетчей.zip', '24.12.12-109 копия.png']);
    expect(files.content).toContain(`?f=${encodeURIComponent('Исходники_скетчей.zip')}`);
    for (const a of files.attachments) storedBytes(a.path);

    const blogPost = (await stored(MARIYA, 'Как я рисую облака ☁️'))!;
    expect(blogPost.content).toMatch(
      /^<p>Сначала подмалёвок:<\/p><p><img src="\/data\/[0-9a-f/]+\.png"[^>]*><\/p><p>Потом детали\. Подробнее в <a href="https:\/\/example\.org\/clouds"[^>]*>статье<\/a>\.<\/p>$/,
    );

    const video = (await stored(MARIYA, 'Таймлапс: закат'))!;
    expect(video.attachments.map((a) => a.name)).toEqual(['sunset-timelapse.mp4']);
    expect(storedBytes(video.attachments[0].path).subarray(4, 8).toString()).toBe('ftyp');
    expect(video.file?.name).toMatch(/-preview\.webp$/);
    // The best quality served: 'low' (the higher ones are "" in playerUrls).
    expect(fake.requests.some((r) => r.host === 'cdn' && r.path.includes('type=low&'))).toBe(true);
    expect(fake.requests.some((r) => r.host === 'cdn' && r.path.includes('type=lowest'))).toBe(false);

    const embed = (await stored(MARIYA, 'Стрим на YouTube'))!;
    expect(embed.embed).toMatchObject({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
    expect(embed.content).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

    const audio = (await stored(MARIYA, 'Подкаст #1'))!;
    expect(audio.attachments.map((a) => a.name)).toEqual(['podcast-01.mp3']);
    expect([...storedBytes(audio.attachments[0].path).subarray(0, 2)]).toEqual([0xff, 0xfb]);

    const unicode = (await stored(MARIYA, '日本語タイトル — ünïcödé ✨ 🎉'))!;
    expect(unicode.title).toBe('日本語タイトル — ünïcödé ✨ 🎉');
    expect(unicode.tags).toEqual(['ünïcödé']);
    expect(unicode.content).toBe('<p>Текст: 日本語、emoji 🎨, RTL: שלום, combining: é.</p>');

    const poll = (await stored(MARIYA, 'Опрос: следующая тема'))!;
    expect(poll.poll).toMatchObject({
      title: 'Что дальше?',
      choices: [
        { text: 'Портреты', votes: 5 },
        { text: 'Пейзажи', votes: 8 },
      ],
      total_votes: 13,
      allow_multiple: false,
    });
    expect((await getPost(t.db, 'boosty', MARIYA, postByTitle('Добро пожаловать! 📌').id))?.content).toBe(
      '<p>Здесь я выкладываю скетчи, исходники и таймлапсы.</p><p>Правила: <b>без репостов</b>.</p>',
    );
    const untitled = fake.dataset.blogs[0].posts.find((p) => p.title === null)!;
    expect((await getPost(t.db, 'boosty', MARIYA, untitled.id))?.title).toBe('');

    const synthFree = (await stored(SYNTH, 'Cover art'))!;
    expect(synthFree.file?.name).toMatch(/\.png$/);

    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Found 2 subscriptions.');
    expect(logs).toContain('Creator Мария Иванова 🎨: imported 14 posts.');
    expect(logs).toContain('Creator Мария Иванова 🎨: skipped "Только для меценатов": your subscription level cannot see it.');
    expect(logs).toContain('Creator Мария Иванова 🎨: skipped 1 post your subscription level cannot see.');
    expect(logs).toContain('Creator Synthwave Lab: skipped 2 posts your subscription level cannot see.');
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyLeak(id);

    // The bearer token went to the API, never to a media host.
    const api = fake.requests.filter((r) => r.host === 'api');
    expect(api.every((r) => r.headers.authorization === `Bearer ${FAKE_BOOSTY_AUTH.accessToken}`)).toBe(true);
    expect(fake.requests.filter((r) => r.host === 'cdn').every((r) => !r.headers.authorization)).toBe(true);
  });

  it('pages a blog by the opaque offset until isLast', async () => {
    await restartFake({ pageSize: 4 });
    const id = await queue('paging');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(16);
    const lists = fake.requests.filter((r) => r.path.startsWith(`/v1/blog/${MARIYA}/post/?`));
    expect(lists).toHaveLength(4);
    expect(lists[0].path).toContain('offset=&');
    expect(new Set(lists.map((r) => new URLSearchParams(r.path.split('?')[1]).get('offset'))).size).toBe(4);
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Creator Мария Иванова 🎨: 4 posts imported so far.');
    expect(logs).toContain('Creator Мария Иванова 🎨: imported 14 posts.');
  });

  it('fails with the key invalid when Boosty refuses the token and its refresh token (kept key marked dead)', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'boosty', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await queue('expired', FAKE_BOOSTY_KEY, keyId);
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job).toMatchObject({ is_key_invalid: true });
    expect(job.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Boosty rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    // It tried the refresh token once, as the web app would.
    expect(fake.requests.filter((r) => r.path === '/oauth/token/')).toHaveLength(1);
    expect(counts().posts).toBe(0);
    await expectNoKeyLeak(id);
  });

  it('fails with the key invalid when the key is not the auth cookie', async () => {
    const id = await queue('malformed', 'not-json-at-all');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('renews an expired access token with the refresh token, and a resume uses the renewed tokens', async () => {
    fake.expireAccessToken();
    fake.delayMs = 15;
    const id = await queue('renew');
    const first = worker();
    const running = first.runOnce();
    while (counts().posts < 4) await sleep(10);
    await first.stop();
    await running;
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
    const refresh = fake.requests.filter((r) => r.path === '/oauth/token/');
    expect(refresh).toHaveLength(1);
    expect(refresh[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    // The sealed key now holds the renewed tokens (the old refresh token is spent at Boosty).
    const resealed = JSON.parse(decodeURIComponent(openForWorker(config, id, (await getImportWorkKey(t.db, id))!)));
    expect(resealed.accessToken).not.toBe(FAKE_BOOSTY_AUTH.accessToken);
    expect(resealed.refreshToken).not.toBe(FAKE_BOOSTY_AUTH.refreshToken);

    fake.delayMs = 0;
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(false);
    expect(counts().posts).toBe(16);
    expect(fake.requests.filter((r) => r.path === '/oauth/token/')).toHaveLength(1);
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('The access token had expired; Boosty renewed it with the refresh token.');
    await expectNoKeyLeak(id, [resealed.accessToken, resealed.refreshToken]);
  });

  it('ends Failed when Boosty will not renew the token for this device', async () => {
    await restartFake({ deviceId: 'the-browser-client-id' });
    fake.expireAccessToken();
    const id = await queue('device');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(true);
    expect(counts().posts).toBe(0);
    await expectNoKeyLeak(id);
  });

  it('waits out a short 429 Retry-After and finishes', async () => {
    fake.rateLimit(2, 1);
    const id = await queue('short-429');
    await worker().runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(16);
  });

  it('puts the import back on a long 429 or a 5xx, and resumes it', async () => {
    fake.rateLimit(1, 3600);
    const id = await queue('long-429');
    await worker().runOnce();
    let job = (await getImport(t.db, id))!;
    expect(job.finished_at).toBeNull();
    expect(job.retry_count).toBe(1);
    expect(Date.parse(`${job.resuming_at}Z`) - Date.now()).toBeGreaterThan(3500_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Boosty error: Boosty rate limit reached \(429\); retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    fake.fail(1, 502);
    await worker().runOnce();
    job = (await getImport(t.db, id))!;
    expect(job.retry_count).toBe(2);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Boosty error: Boosty answered 502; retrying at /);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(counts().posts).toBe(16);
    await expectNoKeyLeak(id);
  });

  it('re-imports without changes or change rows; an edited post gets a revision', async () => {
    await queue('first');
    await worker().runOnce();
    const first = counts();
    const changeRows = () => t.db.prepare('SELECT kind, action, post_id FROM changes ORDER BY id').all();
    const before = changeRows().length;
    await queue('again');
    await worker().runOnce();
    expect(counts()).toEqual(first);
    // Nothing for the rebuild to render: no post or comment change row.
    // (The creator's last_imported moves on when a second has passed: a creator row, as for every importer.)
    expect((changeRows().slice(before) as { kind: string }[]).filter((row) => row.kind !== 'creator')).toEqual([]);

    const target = postByTitle('Исходники PSD');
    fake.advanceTime(3600);
    fake.editPost(target.id, { title: 'Исходники PSD (v2)', tags: ['исходники'] });
    await queue('changed');
    await worker().runOnce();
    const post = (await getPost(t.db, 'boosty', MARIYA, target.id))!;
    expect(post.title).toBe('Исходники PSD (v2)');
    expect(post.tags).toEqual(['исходники']);
    expect(post.edited).not.toBeNull();
    expect(count('SELECT count(*) AS n FROM post_revisions WHERE post_id = ?', target.id)).toBe(1);
    expect(counts()).toEqual({ ...first, revisions: 1 });
  });

  it('skips files whose signature the CDN refuses (401 is not the key) and finishes', async () => {
    await restartFake({ signTtlSeconds: 0 });
    const id = await queue('stale');
    await worker().runOnce();
    const job = (await getImport(t.db, id))!;
    expect(job.finished_at).not.toBeNull();
    expect(job.is_key_invalid).toBe(false);
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Skipped Исходники_скетчей.zip: the paysite answered 401.');
    expect(logs).toContain('Skipped sunset-timelapse.mp4: the paysite answered 403.');
    expect((await stored(MARIYA, 'Исходники PSD'))!.attachments).toEqual([]);
    expect((await stored(MARIYA, 'Скетчи недели'))!.attachments).toHaveLength(2);
    expect(logs.join('\n')).not.toContain(fake.cdnUrl);
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every post once', async () => {
    const crash = workerCrash(() => ({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_BOOSTY_URL: fake.url,
    }));
    try {
      const id = await queue('crash');
      fake.delayMs = 100;
      await crash.killWhen(() => counts().posts >= 5);
      expect(counts().posts).toBeLessThan(16);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      const before = fake.requests.length;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(counts()).toMatchObject({ posts: 16, comments: 4, revisions: 0 });
      // The restart went on from the cursor: the subscriptions were not listed again.
      expect(fake.requests.slice(before).some((r) => r.path.startsWith('/v1/user/subscriptions'))).toBe(false);
      const logs = await getImportLogs(t.db, id);
      for (const line of [
        'Found 2 subscriptions.',
        'Creator Мария Иванова 🎨: importing posts.',
        'Creator Мария Иванова 🎨: imported 14 posts.',
      ]) {
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      }
      expect(logs.filter((l) => l.startsWith('Creator Мария Иванова 🎨: skipped "'))).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      await expectNoKeyLeak(id);
    } finally {
      crash.cleanup();
    }
  }, 90_000);

  it('leaves no token in clear anywhere in the data folder', async () => {
    fake.expireAccessToken();
    const id = await queue('scan');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    if (t.engine === 'sqlite') t.db.pragma('wal_checkpoint(PASSIVE)');
    t.databaseFiles();
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    for (const file of files(t.dir)) {
      const bytes = fs.readFileSync(file);
      for (const secret of SECRETS) expect(bytes.includes(secret), `${file}`).toBe(false);
    }
  });

  it('stores a video offered only as HLS as one MP4 (archiveHls)', async () => {
    const blog = fake.dataset.blogs[0];
    const source = blog.posts.find((p) => p.title === 'Таймлапс: закат')!;
    const post = {
      ...source,
      id: 'c0ffee00-0000-4000-a000-000000000001',
      intId: 5_547_199,
      title: 'HLS only',
      publishTime: source.publishTime + 60,
    };
    post.data = [{ kind: 'okvideo', title: 'hls-clip', hlsOnly: true }];
    blog.posts.push(post);
    fake.editPost(post.id, {});
    const id = await queue('hls');
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    const stored = (await getPost(t.db, 'boosty', MARIYA, post.id))!;
    expect(stored.attachments.map((a) => a.name)).toEqual(['hls-clip.mp4']);
    const mp4 = storedBytes(stored.attachments[0].path);
    expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
    expect(fake.requests.filter((r) => r.host === 'cdn' && /type=seg\d/.test(r.path))).toHaveLength(3);
  });
});
