/**
 * The Patreon importer against the fake Patreon (tests/fakes/patreon.ts), a real SQLite file and a
 * real data folder, run by the real worker: a full import with paging, files, comments and DMs;
 * idempotent re-imports and revisions; rate limits, 5xx and expired keys; files refused by the host
 * allowlist or the size cap; and a stop mid-import followed by a resume.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { listDmsForReview } from '@api/data/dms.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { listComments } from '@api/data/comments.ts';
import { listPostRevisions } from '@api/data/post-revisions.ts';
import { nowIso } from '@api/data/util.ts';
import { DMS_DONE_LINE } from '@api/importer/paysites/patreon/dms.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import {
  FAKE_CREATOR_ID as CREATOR,
  FAKE_CREATOR_NAME,
  FAKE_PATREON_KEY as KEY,
  demoDataset,
  startFakePatreon,
  type FakePatreon,
  type FakePatreonOptions,
} from '../../fakes/patreon.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakePatreon;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];
let importCount = 0;

async function setup(options: FakePatreonOptions = {}, env: Record<string, string> = {}) {
  fake = await startFakePatreon({ pageSize: 5, commentPageSize: 1, ...options });
  config = readConfig({
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_PATREON_URL: fake.url,
    ...env,
  });
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
  const id = `patreon-${++importCount}`;
  await createImport(t.db, {
    id,
    service: 'patreon',
    save_dms: input.save_dms,
    account_id: input.account_id,
    key_id: input.key_id,
    work_key: sealForWorker(config, id, input.key ?? KEY),
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
const postCount = () => count('SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?', 'patreon', CREATOR);
const onDisk = (publicPath: string) => fs.existsSync(path.join(t.dir, 'files', ...publicPath.split('/').filter(Boolean)));
const snapshot = () => ({
  posts: postCount(),
  comments: count('SELECT count(*) AS n FROM comments'),
  dms: count('SELECT count(*) AS n FROM dms'),
  files: count('SELECT count(*) AS n FROM files'),
  revisions: count('SELECT count(*) AS n FROM post_revisions'),
});

describe('a full import', () => {
  it('saves the creator, every post over several pages with files, comments and DMs', async () => {
    await setup();
    const { account } = await signIn(t.db);
    const id = await runImport({ save_dms: true, account_id: account.id });

    const done = (await getImport(t.db, id))!;
    expect(done.finished_at).not.toBeNull();
    expect(done.is_key_invalid).toBe(false);
    expect(done.sub_count).toBe(1);
    expect(await getCreator(t.db, 'patreon', CREATOR)).toMatchObject({ name: FAKE_CREATOR_NAME });
    expect((await getCreator(t.db, 'patreon', CREATOR))!.last_imported).not.toBeNull();
    for (const kind of ['icons', 'banners']) {
      expect(
        fs
          .readFileSync(path.join(t.dir, kind, 'patreon', CREATOR))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    // 12 posts over 3 pages of 5.
    expect(postCount()).toBe(12);
    expect(fake.requests.filter((r) => r.path === '/api/posts')).toHaveLength(3);

    const first = (await getPost(t.db, 'patreon', CREATOR, '90000001'))!;
    expect(first.title).toBe('Fake post 1');
    expect(first.published).toBe('2024-01-01T01:00:00');
    expect(first.file).toMatchObject({
      name: 'post-1.png',
      path: expect.stringMatching(/^\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/),
    });
    // post-1.png is also in the post's images: stored once, as the file.
    expect(first.attachments.map((a) => a.name)).toEqual(['gallery-1.png', 'extra-1.png']);
    for (const file of [first.file as { path: string }, ...first.attachments]) expect(onDisk(file.path)).toBe(true);
    expect(first.content).toMatch(/<img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png"/);
    expect(first.content).not.toContain(fake.url);
    expect(first.tags).toEqual(['sketch', 'color']);
    expect(first.embed).toMatchObject({ url: 'https://www.youtube.com/watch?v=fake1', subject: 'A video' });
    expect(first.poll).toMatchObject({
      title: 'Next theme?',
      total_votes: 8,
      allow_multiple: false,
      choices: [
        { text: 'Forest', votes: 3 },
        { text: 'Sea', votes: 5 },
      ],
    });

    const twelfth = (await getPost(t.db, 'patreon', CREATOR, '90000012'))!;
    expect(twelfth.attachments.map((a) => a.name)).toEqual(['extra-12.png']);

    // Two pages of top-level comments (1 per page), the reply included with its parent.
    const comments = await listComments(t.db, 'patreon', CREATOR, '90000001');
    expect(comments.map((c) => [c.id, c.parent_id, c.commenter_name])).toEqual(
      expect.arrayContaining([
        ['300001', null, 'Alice Patron'],
        ['300002', '300001', FAKE_CREATOR_NAME],
        ['300003', null, 'Bob Patron'],
      ]),
    );
    expect(comments.find((c) => c.id === '300001')!.content).toBe('First! &lt;3 the colours');
    expect(comments.find((c) => c.id === '300002')!.content).toBe('Thank you!<br>More soon.');
    // Posts without comments are not asked for them.
    expect(fake.requests.filter((r) => r.path.endsWith('/comments')).map((r) => r.path)).toEqual([
      '/api/posts/90000001/comments',
      '/api/posts/90000001/comments',
    ]);

    // Only the creator's messages, pending for the importing account.
    const dms = await listDmsForReview(t.db, account.id, 'pending');
    expect(dms.map((d) => d.content).sort()).toEqual([
      'Monthly &lt;b&gt;rewards&lt;/b&gt; are out.',
      'Thanks for joining! Here is your welcome pack.',
    ]);
    expect(dms.every((d) => d.user === CREATOR)).toBe(true);

    const logs = await getImportLogs(t.db, id);
    expect(logs).toEqual([
      'Started.',
      'Found 1 subscription.',
      `Creator ${FAKE_CREATOR_NAME}: importing posts.`,
      `Creator ${FAKE_CREATOR_NAME}: imported 5 posts so far.`,
      `Creator ${FAKE_CREATOR_NAME}: imported 10 posts so far.`,
      `Creator ${FAKE_CREATOR_NAME}: imported 12 posts.`,
      `Creator ${FAKE_CREATOR_NAME}: imported 2 DMs.`,
      DMS_DONE_LINE,
      'Finished.',
    ]);
    const rows = JSON.stringify([t.db.prepare('SELECT * FROM import_logs').all(), t.db.prepare('SELECT * FROM imports').all()]);
    expect(rows).not.toContain(KEY);
    expect(rows).not.toContain('s3cr3tT0k3n');
  });

  it('leaves DMs alone unless asked, and skips posts this account may only see a teaser of', async () => {
    const dataset = demoDataset({ posts: 4 });
    dataset.campaigns[0].posts[0].locked = true;
    await setup({ dataset });
    const id = await runImport();
    expect(postCount()).toBe(3);
    expect(await getPost(t.db, 'patreon', CREATOR, '90000004')).toBeUndefined();
    expect(count('SELECT count(*) AS n FROM dms')).toBe(0);
    expect(fake.requests.some((r) => r.path.startsWith('/api/conversations'))).toBe(false);
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain(`Creator ${FAKE_CREATOR_NAME}: skipped 1 posts this account cannot see.`);
    expect(logs).not.toContain(DMS_DONE_LINE);
  });
});

describe('importing again', () => {
  it('adds nothing on an identical re-import and keeps a revision of a changed post', async () => {
    await setup();
    const { account } = await signIn(t.db);
    await runImport({ save_dms: true, account_id: account.id });
    const before = snapshot();
    expect(before).toMatchObject({ posts: 12, comments: 3, dms: 2, revisions: 0 });

    await runImport({ save_dms: true, account_id: account.id });
    expect(snapshot()).toEqual(before);

    fake.editPost('90000005', '<p>Post number 5, now with more.</p>');
    const id = await runImport();
    expect(snapshot()).toEqual({ ...before, revisions: 1 });
    const [revision] = await listPostRevisions(t.db, 'patreon', CREATOR, '90000005');
    expect(revision.content).toBe('<p>Post number 5 &amp; its text.</p>');
    expect((await getPost(t.db, 'patreon', CREATOR, '90000005'))!.content).toBe('<p>Post number 5, now with more.</p>');
    expect((await getPost(t.db, 'patreon', CREATOR, '90000005'))!.edited).not.toBeNull();
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
    expect(postCount()).toBe(12);
  });

  it('retries later after a long 429, then resumes where it stopped', async () => {
    await setup();
    const w = worker();
    const id = await queue();
    fake.rateLimit(1, 600);
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting.finished_at).toBeNull();
    expect(waiting.retry_count).toBe(1);
    expect(Date.parse(`${waiting.resuming_at}Z`)).toBeGreaterThan(Date.now() + 590_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Patreon error: Patreon rate limit reached \(429\); retrying at .* UTC\.$/);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(postCount()).toBe(12);
  });

  it('backs off on a 5xx', async () => {
    await setup();
    fake.fail(1, 502);
    const id = await runImport();
    expect(await getImport(t.db, id)).toMatchObject({ retry_count: 1, finished_at: null });
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Patreon error: Patreon answered 502; retrying at/);
  });

  it('fails the import on an expired key and marks the kept key dead', async () => {
    await setup();
    const keyId = await addAutoImportKey(t.db, { service: 'patreon', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await runImport({ key_id: keyId });
    const failed = (await getImport(t.db, id))!;
    expect(failed).toMatchObject({ is_key_invalid: true });
    expect(failed.key_failed_at).not.toBeNull();
    expect(failed.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Patreon rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(postCount()).toBe(0);
  });

  it('skips a file redirected to a foreign host and one over the size cap, with a log line each', async () => {
    await setup({}, { IMPORTER_MAX_FILE_MB: '1' });
    fake.redirectToForeignHost('extra-3.png');
    fake.oversize('post-4.png', 2 * 1024 * 1024);
    const id = await runImport();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect((await getPost(t.db, 'patreon', CREATOR, '90000003'))!.attachments).toEqual([]);
    expect((await getPost(t.db, 'patreon', CREATOR, '90000004'))!.file).toEqual({});
    const logs = await getImportLogs(t.db, id);
    expect(logs).toContain('Skipped extra-3.png: Patreon pointed at localhost, which is not one of its hosts.');
    expect(logs).toContain('Skipped post-4.png: larger than 1 MB.');
    expect(fake.requests.some((r) => r.path.includes('localhost'))).toBe(false);
    expect(logs.join('\n')).not.toContain('s3cr3tT0k3n');
  });
});

describe('stopping and resuming', () => {
  it('stops between posts and resumes with nothing duplicated or lost', async () => {
    await setup({ dataset: demoDataset({ posts: 30 }) });
    const { account } = await signIn(t.db);
    const id = await queue({ save_dms: true, account_id: account.id });
    const first = worker();
    const running = first.runOnce();
    while (postCount() < 7) await sleep(2);
    await first.stop();
    await running;
    const atStop = postCount();
    expect(atStop).toBeLessThan(30);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();

    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(snapshot()).toMatchObject({ posts: 30, comments: 3, dms: 2, revisions: 0 });
    const logs = await getImportLogs(t.db, id);
    expect(logs.filter((l) => l === 'Found 1 subscription.')).toHaveLength(1);
    expect(logs.filter((l) => l.endsWith('importing posts.'))).toHaveLength(1);
    expect(logs.filter((l) => l === `Creator ${FAKE_CREATOR_NAME}: imported 30 posts.`)).toHaveLength(1);
    expect(logs.filter((l) => l === DMS_DONE_LINE)).toHaveLength(1);
    expect(logs).toContain('The worker stopped; the import will resume.');
    // The resumed run asked again for the page it stopped in, not for the pages before it.
    const pagesAsked = fake.requests.filter((r) => r.path === '/api/posts').length;
    expect(pagesAsked).toBeLessThanOrEqual(6 + 1);
  });

  it('writes nothing more once its lease was taken over, and the new owner completes the import', async () => {
    await setup();
    const id = await queue();
    const first = worker();
    const running = first.runOnce();
    while (postCount() < 3) await sleep(2);
    t.db.prepare("UPDATE imports SET lease_owner = 'other-worker' WHERE id = ?").run(id);
    await running;
    const afterLoss = postCount();
    await sleep(50);
    expect(postCount()).toBe(afterLoss);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();

    t.db.prepare("UPDATE imports SET lease_expires_at = '2000-01-01T00:00:00' WHERE id = ?").run(id);
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(snapshot()).toMatchObject({ posts: 12, comments: 3, revisions: 0 });
    expect((await getImportLogs(t.db, id)).filter((l) => l.endsWith('imported 12 posts.'))).toHaveLength(1);
  });
});
