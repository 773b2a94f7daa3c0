import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { listDmsForReview } from '@api/data/dms.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listPostRevisions } from '@api/data/post-revisions.ts';
import { nowIso } from '@api/data/util.ts';
import { DMS_DONE_LINE } from '@api/importer/paysites/fansly/dms.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { media } from '../../fakes/kit/media.ts';
import { demoDataset, startFakeFansly, type FakeFansly, type FakeFanslyOptions } from '../../fakes/fansly.ts';
import { signIn } from '../../helpers/session.ts';
import { workerCrash } from '../../helpers/worker-crash.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeFansly;
let config: ReturnType<typeof readConfig>;
let env: Record<string, string>;
const workers: ImportWorker[] = [];
let importCount = 0;

const MIKA = demoDataset().creators[0];
const NOAH = demoDataset().creators[1];
const postId = (start: string) => [...MIKA.posts, ...NOAH.posts].find((p) => p.content.startsWith(start))!.id;

async function setup(options: FakeFanslyOptions = {}, extra: Record<string, string> = {}) {
  fake = await startFakeFansly({ pageSize: 5, ...options });
  env = { DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', IMPORTER_FANSLY_URL: fake.url, ...extra };
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

async function queue(input: { save_dms?: boolean; account_id?: number; key_id?: number; key?: string } = {}): Promise<string> {
  const id = `fansly-${++importCount}`;
  await createImport(t.db, {
    id,
    service: 'fansly',
    save_dms: input.save_dms,
    account_id: input.account_id,
    key_id: input.key_id,
    work_key: sealForWorker(config, id, input.key ?? fake.token),
  });
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
const postCount = (creator?: string) =>
  creator
    ? count('SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?', 'fansly', creator)
    : count("SELECT count(*) AS n FROM posts WHERE service = 'fansly'");
const stored = (publicPath: string) => fs.readFileSync(path.join(t.dir, 'files', ...publicPath.split('/').filter(Boolean)));
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const snapshot = () => ({
  posts: postCount(),
  dms: count('SELECT count(*) AS n FROM dms'),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
});
const post = async (start: string) => {
  const creator = MIKA.posts.some((p) => p.content.startsWith(start)) ? MIKA.id : NOAH.id;
  return await getPost(t.db, 'fansly', creator, postId(start));
};

describe('a full import', () => {
  it('signs every request, saves both creators, every post over several pages with its media, and the DMs', async () => {
    await setup();
    const { account } = await signIn(t.db);
    const id = await runImport({ save_dms: true, account_id: account.id });

    const done = (await getImport(t.db, id))!;
    expect(await getImportLogs(t.db, id)).toContain('Finished.');
    expect(done).toMatchObject({ is_key_invalid: false, sub_count: 2 });
    expect(await getCreator(t.db, 'fansly', MIKA.id)).toMatchObject({ name: 'Mika ミカ 🌸', public_id: 'mika_art' });
    expect(await getCreator(t.db, 'fansly', NOAH.id)).toMatchObject({ name: 'Noah', public_id: 'noah_sfx' });
    for (const kind of ['icons', 'banners']) {
      const bytes = fs.readFileSync(path.join(t.dir, kind, 'fansly', MIKA.id));
      expect(bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    }

    // 17 posts over 4 pages of 5; the pay-per-view one and the one whose media was deleted are skipped.
    expect(postCount(MIKA.id)).toBe(15);
    const timeline = fake.requests.filter((r) => r.path.startsWith(`/api/v1/timelinenew/${MIKA.id}`));
    expect(timeline.map((r) => new URL(r.path, fake.url).searchParams.get('before'))).toEqual([
      '0',
      ...[4, 9, 14].map((n) => [...MIKA.posts].sort((a, b) => b.createdAt - a.createdAt)[n].id),
      [...MIKA.posts].sort((a, b) => a.createdAt - b.createdAt)[0].id,
    ]);
    expect(await post('Full-resolution set')).toBeUndefined();
    expect(await post('This one was removed')).toBeUndefined();
    // Noah is only followed: his locked posts are skipped, the free one is kept.
    expect(postCount(NOAH.id)).toBe(1);
    expect((await post('Free for everyone'))!.file).toMatchObject({ name: expect.stringMatching(/\.jpeg$/) });

    // Every API call carried the bare token and the signing headers; the CDN never saw the token.
    const api = fake.requests.filter((r) => r.host === 'api' && r.path.startsWith('/api/v1/') && !r.path.startsWith('/api/v1/device'));
    expect(api.length).toBeGreaterThan(10);
    for (const r of api) {
      expect(r.status, r.path).toBe(200);
      expect(r.headers.authorization).toBe(fake.token);
      expect(r.headers['fansly-client-check']).toMatch(/^[0-9a-f]+$/);
      expect(r.path).toContain('ngsw-bypass=true');
    }
    expect(fake.requests.filter((r) => r.host === 'cdn').every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(fake.requests.filter((r) => r.host === 'cdn' && r.status !== 200)).toEqual([]);

    const text = (await post('Hello Fansly!'))!;
    expect(text).toMatchObject({ title: '', tags: ['hello', 'intro'], file: {}, attachments: [] });
    expect(text.content).toBe('<p>Hello Fansly! First post, text only. #hello #intro</p>');
    expect(text.published).toBe('2024-03-02T09:00:00');

    const gallery = (await post('Three sketches'))!;
    expect(gallery.attachments).toHaveLength(2);
    expect((gallery.file as { name: string }).name).toMatch(/^\d{18}\.jpeg$/);
    const video = (await post('Timelapse'))!;
    expect((video.file as { name: string }).name).toMatch(/\.jpeg$/);
    expect(video.attachments.map((a) => a.name)).toEqual([expect.stringMatching(/^\d{18}\.mp4$/)]);
    expect(sha(stored(video.attachments[0].path))).toBe(sha(await media.mp4()));
    const hls = (await post('Stream replay'))!;
    expect(hls.attachments).toHaveLength(1);
    expect(stored(hls.attachments[0].path).subarray(4, 8).toString()).toBe('ftyp');
    expect((await post('Voice note'))!.attachments.map((a) => a.name)).toEqual([expect.stringMatching(/\.m4a$/)]);
    expect((await post('Check out Noah!'))!.embed).toMatchObject({ url: `https://fansly.com/post/${postId('Free for everyone')}` });

    // Only Mika's own messages, pending for the importing account; the pay-per-view one is skipped.
    const dms = await listDmsForReview(t.db, account.id, 'pending');
    expect(dms).toHaveLength(23);
    expect(dms.every((d) => d.user === MIKA.id)).toBe(true);
    const welcome = dms.find((d) => d.content.includes('Welcome!'))!;
    expect(welcome.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpeg"/);
    expect(welcome.file).toMatchObject({ name: expect.stringMatching(/\.jpeg$/) });
    expect(dms.some((d) => d.content.includes('Exclusive clip'))).toBe(false);
    expect(dms.some((d) => d.content.includes('Thank you so much'))).toBe(false);

    const logs = await getImportLogs(t.db, id);
    expect(logs).toEqual(
      expect.arrayContaining([
        'Found 2 creators (1 subscription, 2 followed accounts).',
        'Creator Mika ミカ 🌸: importing posts.',
        'Creator Mika ミカ 🌸: imported 15 posts.',
        'Creator Mika ミカ 🌸: skipped 1 post this account cannot see.',
        'Creator Mika ミカ 🌸: skipped 1 post whose media were deleted.',
        'Creator Noah: skipped 2 posts this account cannot see.',
        'Creator Mika ミカ 🌸: imported 23 DMs.',
        DMS_DONE_LINE,
      ]),
    );
    const everything = JSON.stringify([t.db.prepare('SELECT * FROM import_logs').all(), t.db.prepare('SELECT * FROM imports').all()]);
    expect(everything).not.toContain(fake.token);
  });
});

describe('importing again', () => {
  it('adds nothing on an identical re-import and keeps a revision of a changed post', async () => {
    await setup();
    const { account } = await signIn(t.db);
    await runImport({ save_dms: true, account_id: account.id });
    const before = snapshot();
    expect(before).toMatchObject({ posts: 16, dms: 23, revisions: 0 });
    const changes = count('SELECT count(*) AS n FROM changes');

    await runImport({ save_dms: true, account_id: account.id });
    expect(snapshot()).toEqual(before);
    // Only the creators' import dates moved: no post change for the rebuild to render.
    expect(count("SELECT count(*) AS n FROM changes WHERE id > ? AND kind = 'post'", changes)).toBe(0);

    const edited = postId('New piece finished');
    fake.editPost(edited, 'New piece finished, now signed #illustration #signed');
    const id = await runImport();
    expect(snapshot()).toEqual({ ...before, revisions: 1 });
    const [revision] = await listPostRevisions(t.db, 'fansly', MIKA.id, edited);
    expect(revision.content).toBe('<p>New piece finished #illustration</p>');
    expect(await getPost(t.db, 'fansly', MIKA.id, edited)).toMatchObject({
      content: '<p>New piece finished, now signed #illustration #signed</p>',
      tags: ['illustration', 'signed'],
    });
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
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
    expect(postCount()).toBe(16);
  });

  it('retries later after a long 429, a 5xx or a 418, then resumes where it stopped', async () => {
    await setup();
    const w = worker();
    const id = await queue();
    fake.rateLimit(1, 600);
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting).toMatchObject({ finished_at: null, retry_count: 1 });
    expect(Date.parse(`${waiting.resuming_at}Z`)).toBeGreaterThan(Date.now() + 590_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Fansly error: Fansly rate limit reached \(429\); retrying at .* UTC\.$/);

    for (const [status, line] of [
      [502, 'Fansly answered 502'],
      [418, 'Fansly answered 418'],
    ] as const) {
      await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
      fake.fail(1, status);
      await w.runOnce();
      expect((await getImport(t.db, id))!.finished_at).toBeNull();
      expect((await getImportLogs(t.db, id)).at(-1)).toContain(`Fansly error: ${line}; retrying at`);
    }
    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(16);
  });

  it('fails the import on a refused token and marks the kept key dead', async () => {
    await setup();
    const keyId = await addAutoImportKey(t.db, { service: 'fansly', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await runImport({ key_id: keyId });
    expect(await getImport(t.db, id)).toMatchObject({ is_key_invalid: true, finished_at: expect.any(String) });
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Fansly rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(postCount()).toBe(0);
  });

  it('takes the key in its base64 JSON form, and reads a rotated check key from main.js', async () => {
    await setup({ checkKey: 'abCdE1-fGhiJk-lmNopq' });
    const json = Buffer.from(JSON.stringify({ id: fake.sessionId, accountId: fake.dataset.me.id, token: fake.token })).toString('base64');
    const id = await runImport({ key: json });
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(16);
    expect((await getImportLogs(t.db, id)).join('\n')).not.toContain('check key');
  });

  it('says so clearly, and does not call the key dead, when the check key cannot be read and Fansly refuses the signature', async () => {
    await setup({ checkKey: 'abCdE1-fGhiJk-lmNopq' });
    fake.hideCheckKey();
    const id = await runImport();
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain("Could not read Fansly's check key from its web app; signing with the last known one.");
    expect(logs.at(-1)).toMatch(/^Fansly error: Fansly refused a signed request, and its check key could not be read from fansly\.com/);
    expect(await getImport(t.db, id)).toMatchObject({ is_key_invalid: false, finished_at: null, retry_count: 1 });
  });

  it('skips files the CDN refuses (an expired signature) with a log line each, and still stores the posts', async () => {
    await setup({ urlTtlSeconds: 0 });
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    const logs = await getImportLogs(t.db, id);
    expect(logs.filter((l) => /^Skipped \d{18}\.(jpeg|mp4|m4a): the paysite answered 403\.$/.test(l)).length).toBeGreaterThan(10);
    expect(logs).toContain('Skipped icon.jpeg: the paysite answered 403.');
    expect((await post('New piece finished'))!.file).toEqual({});
    expect(postCount()).toBe(16);
    expect(logs.join('\n')).not.toMatch(/Signature=|Policy=/);
  });

  it('skips videos over the size cap, whether a file or HLS, with a log line', async () => {
    await setup({}, { IMPORTER_MAX_FILE_MB: '0.005' });
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain(`Skipped ${MIKA.posts.find((p) => p.content.startsWith('Timelapse'))!.media[0].id}.mp4: larger than 5 KB.`);
    expect(logs).toContain(`Skipped ${MIKA.posts.find((p) => p.content.startsWith('Stream replay'))!.media[0].id}.mp4: larger than 5 KB.`);
    expect((await post('Timelapse'))!.attachments).toEqual([]);
    expect((await post('New piece finished'))!.file).toMatchObject({ name: expect.stringMatching(/\.jpeg$/) });
  });
});

describe('stopping and resuming', () => {
  it('stops between posts and resumes with nothing duplicated or lost', async () => {
    await setup();
    const { account } = await signIn(t.db);
    const id = await queue({ save_dms: true, account_id: account.id });
    fake.delayMs = 20;
    const first = worker();
    const running = first.runOnce();
    while (postCount() < 6) await sleep(2);
    await first.stop();
    await running;
    expect(postCount()).toBeLessThan(16);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();

    fake.delayMs = 0;
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(snapshot()).toMatchObject({ posts: 16, dms: 23, revisions: 0 });
    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Found 2 creators (1 subscription, 2 followed accounts).',
      'Creator Mika ミカ 🌸: imported 15 posts.',
      DMS_DONE_LINE,
    ])
      expect(logs.filter((l) => l === line)).toHaveLength(1);
    expect(logs).toContain('The worker stopped; the import will resume.');
  });

  it('survives kill -9 of scripts/worker.ts mid-timeline: the restart finishes with every post and DM once', async () => {
    await setup();
    const { account } = await signIn(t.db);
    const crash = workerCrash(() => env);
    try {
      const id = await queue({ save_dms: true, account_id: account.id });
      fake.delayMs = 60;
      await crash.killWhen(() => postCount() >= 5);
      expect(postCount()).toBeLessThan(16);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(snapshot()).toMatchObject({ posts: 16, dms: 23, revisions: 0 });
      const logs = await getImportLogs(t.db, id);
      expect(logs.filter((l) => l.startsWith('Found 2 creators'))).toHaveLength(1);
      expect(logs.filter((l) => l === 'Creator Mika ミカ 🌸: imported 15 posts.')).toHaveLength(1);
      expect(logs.filter((l) => l === DMS_DONE_LINE)).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
    } finally {
      crash.cleanup();
    }
  }, 90_000);
});

describe('the token', () => {
  it('is nowhere in the data folder, the log or the rows after an import, in clear, base64 or hex', async () => {
    await setup();
    const { account } = await signIn(t.db);
    await runImport({ save_dms: true, account_id: account.id });
    if (t.engine === 'sqlite') t.db.pragma('wal_checkpoint(PASSIVE)');
    t.databaseFiles();
    const secret = Buffer.from(fake.token);
    const needles = [secret, Buffer.from(secret.toString('hex')), Buffer.from(Buffer.from(fake.token, 'base64').toString())];
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const found = walk(t.dir).filter((file) => {
      const bytes = fs.readFileSync(file);
      return needles.some((needle) => bytes.includes(needle));
    });
    expect(found).toEqual([]);
  });
});
