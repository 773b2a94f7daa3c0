/**
 * The Fansly importer against the fake Fansly (tests/fakes/fansly.ts), a real SQLite file and a real
 * data folder, run by the real worker: a full import (signed requests, creators, timeline paging,
 * media of every kind, DMs), idempotent re-imports and revisions, 429 / 5xx / 418, a refused token, a
 * check key that cannot be read, files the CDN refuses, a stop and a kill -9 followed by a resume, and
 * no token anywhere it should not be.
 */
import { type ChildProcess, spawn } from 'node:child_process';
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

function queue(input: { save_dms?: boolean; account_id?: number; key_id?: number; key?: string } = {}): string {
  const id = `fansly-${++importCount}`;
  createImport(t.db, {
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
  const id = queue(input);
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
const post = (start: string) => {
  const creator = MIKA.posts.some((p) => p.content.startsWith(start)) ? MIKA.id : NOAH.id;
  return getPost(t.db, 'fansly', creator, postId(start));
};

describe('a full import', () => {
  it('signs every request, saves both creators, every post over several pages with its media, and the DMs', async () => {
    await setup();
    const { account } = signIn(t.db);
    const id = await runImport({ save_dms: true, account_id: account.id });

    const done = getImport(t.db, id)!;
    expect(getImportLogs(t.db, id)).toContain('Finished.');
    expect(done).toMatchObject({ is_key_invalid: false, sub_count: 2 });
    expect(getCreator(t.db, 'fansly', MIKA.id)).toMatchObject({ name: 'Mika ミカ 🌸', public_id: 'mika_art' });
    expect(getCreator(t.db, 'fansly', NOAH.id)).toMatchObject({ name: 'Noah', public_id: 'noah_sfx' });
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
    expect(post('Full-resolution set')).toBeUndefined();
    expect(post('This one was removed')).toBeUndefined();
    // Noah is only followed: his locked posts are skipped, the free one is kept.
    expect(postCount(NOAH.id)).toBe(1);
    expect(post('Free for everyone')!.file).toMatchObject({ name: expect.stringMatching(/\.jpeg$/) });

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

    const text = post('Hello Fansly!')!;
    expect(text).toMatchObject({ title: '', tags: ['hello', 'intro'], file: {}, attachments: [] });
    expect(text.content).toBe('<p>Hello Fansly! First post, text only. #hello #intro</p>');
    expect(text.published).toBe('2024-03-02T09:00:00');

    const gallery = post('Three sketches')!;
    expect(gallery.attachments).toHaveLength(2);
    expect((gallery.file as { name: string }).name).toMatch(/^\d{18}\.jpeg$/);
    const video = post('Timelapse')!;
    expect((video.file as { name: string }).name).toMatch(/\.jpeg$/);
    expect(video.attachments.map((a) => a.name)).toEqual([expect.stringMatching(/^\d{18}\.mp4$/)]);
    expect(sha(stored(video.attachments[0].path))).toBe(sha(await media.mp4()));
    const hls = post('Stream replay')!;
    expect(hls.attachments).toHaveLength(1);
    expect(stored(hls.attachments[0].path).subarray(4, 8).toString()).toBe('ftyp');
    expect(post('Voice note')!.attachments.map((a) => a.name)).toEqual([expect.stringMatching(/\.m4a$/)]);
    expect(post('Check out Noah!')!.embed).toMatchObject({ url: `https://fansly.com/post/${postId('Free for everyone')}` });

    // Only Mika's own messages, pending for the importing account; the pay-per-view one is skipped.
    const dms = listDmsForReview(t.db, account.id, 'pending');
    expect(dms).toHaveLength(23);
    expect(dms.every((d) => d.user === MIKA.id)).toBe(true);
    const welcome = dms.find((d) => d.content.includes('Welcome!'))!;
    expect(welcome.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpeg"/);
    expect(welcome.file).toMatchObject({ name: expect.stringMatching(/\.jpeg$/) });
    expect(dms.some((d) => d.content.includes('Exclusive clip'))).toBe(false);
    expect(dms.some((d) => d.content.includes('Thank you so much'))).toBe(false);

    const logs = getImportLogs(t.db, id);
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
