/**
 * The OnlyFans importer over bigger generated datasets (tests/fakes/onlyfans-data.ts generatedDataset):
 * timeline paging over several pages for several creators, the benchmark entry's fake, and kill -9 of
 * scripts/worker.ts mid-import, after which a new worker finishes with every post once.
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { getImport, getImportLogs } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { generatedDataset, startFakeOnlyfans, type FakeOnlyfans } from '../../fakes/onlyfans.ts';
import { closeHarness, counts, expectNoKeyInLogs, harness, queue, stored, worker, type Harness } from './onlyfans-import.ts';

let fake: FakeOnlyfans | undefined;
let h: Harness | undefined;
afterEach(async () => {
  if (h) await closeHarness(h);
  await fake?.close();
  h = undefined;
  fake = undefined;
});

const timelineCalls = (f: FakeOnlyfans, userId: number) =>
  f.requests.filter((r) => r.host === 'api' && r.path.startsWith(`/api2/v2/users/${userId}/posts?`) && r.path.includes('pinned=0'));

describe('onlyfans import at scale', () => {
  it('pages each creator timeline by beforePublishTime over several pages', async () => {
    fake = await startFakeOnlyfans({ dataset: generatedDataset({ posts: 50, creators: 2 }) });
    h = harness(fake);
    const id = await queue(h, 'paging');
    await worker(h).runOnce();
    expect((await getImport(h.t.db, id))!.finished_at).not.toBeNull();
    expect(counts(h)).toMatchObject({ posts: 50, creators: 2 });
    for (const creator of fake.dataset.creators.slice(0, 2)) {
      const calls = timelineCalls(fake, creator.id);
      expect(calls.map((r) => r.path.includes('beforePublishTime='))).toEqual([false, true, true]);
      expect(calls.map((r) => new URL(r.path, fake!.url).searchParams.get('limit'))).toEqual(['10', '10', '10']);
    }
    const logs = await getImportLogs(h.t.db, id);
    expect(logs).toContain('Found 2 active subscriptions. 1 expired subscription not imported (their posts are locked).');
    expect(logs).toContain('Creator Creator 1: 10 posts so far.');
    expect(logs).toContain('Creator Creator 1: 20 posts so far.');
    expect(logs).toContain('Creator Creator 2: imported 25 posts.');
    const first = fake.dataset.creators[0].posts[0];
    const saved = (await getPost(h.t.db, 'onlyfans', 'creator_1', String(first.id)))!;
    expect(saved).toMatchObject({ title: 'Post 1 #set1', tags: ['set1'] });
    stored(h, saved.file.path!);
    expect(saved.attachments).toHaveLength(1);
    stored(h, saved.attachments[0].path);
  });

  it('survives kill -9 of scripts/worker.ts mid-import: the restart finishes with every post once', async () => {
    fake = await startFakeOnlyfans({ dataset: generatedDataset({ posts: 40, creators: 2 }) });
    h = harness(fake, { IMPORT_LEASE_SECONDS: '2' });
    const env = h.env;
    const crash = workerCrash(() => env);
    try {
      const id = await queue(h, 'crash');
      fake.delayMs = 60;
      await crash.killWhen(() => counts(h!).posts >= 8);
      expect(counts(h).posts).toBeLessThan(40);
      expect((await getImport(h.t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      const requestsBefore = fake.requests.length;
      await crash.resumeUntil(async () => !!(await getImport(h!.t.db, id))!.finished_at);
      expect(counts(h)).toMatchObject({ posts: 40, creators: 2, revisions: 0 });
      // The restart went on from the cursor: no second subscription listing.
      expect(fake.requests.slice(requestsBefore).some((r) => r.path.startsWith('/api2/v2/subscriptions/subscribes'))).toBe(false);
      const logs = await getImportLogs(h.t.db, id);
      for (const line of [
        'Found 2 active subscriptions. 1 expired subscription not imported (their posts are locked).',
        'Creator Creator 1: importing posts.',
        'Creator Creator 1: imported 20 posts.',
        'Creator Creator 2: imported 20 posts.',
      ])
        expect(
          logs.filter((l) => l === line),
          line,
        ).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      expect(logs.at(-1)).toBe('Finished.');
      await expectNoKeyInLogs(h, id);
    } finally {
      crash.cleanup();
    }
  }, 90_000);
});
