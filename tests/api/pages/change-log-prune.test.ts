/**
 * The change log is pruned by the rebuild, its only reader: after a rebuild the rows it consumed are
 * gone (the newest one stays, so ids keep growing and lastChangeId never goes back), and the next
 * rebuild still finds every change it has not consumed, including those written while it rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRebuild, LAST_REBUILT_KEY, planRebuild, rebuildPages } from '@api/pages/rebuild.ts';
import { inProcessRenderer } from '@api/pages/render-into-store.ts';
import { lastChangeId, pruneChanges, readChangesSince, recordChange } from '@api/data/changes.ts';
import { getKv } from '@api/data/kv.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';

let site: TestSite;

const renderer = () => inProcessRenderer(site.renderer, site.store);
const rowIds = async () => (await readChangesSince(site.db, 0)).map((change) => change.id);
const post = (id: string, day: number) =>
  upsertPost(site.db, {
    service: 'patreon',
    user: '77',
    id,
    title: `Post ${id}`,
    published: `2024-02-${String(day).padStart(2, '0')}T00:00:00`,
  });

beforeAll(async () => {
  site = await createTestSite('change-log-prune');
  await upsertCreator(site.db, { service: 'patreon', id: '77', name: 'Pruned Artist' });
  await post('1', 1);
  await post('2', 2);
}, 300_000);

afterAll(async () => {
  await site?.close();
});

describe('pruning the change log', () => {
  it('keeps only the newest row once a rebuild has consumed the log', async () => {
    const newest = await lastChangeId(site.db);
    expect((await rowIds()).length).toBeGreaterThan(2);
    const summary = await rebuildPages(site.db, site.store, renderer());
    expect(summary.failed).toEqual([]);
    expect(summary.keys).toContain('/patreon/user/77/post/2');
    expect(Number(await getKv(site.db, LAST_REBUILT_KEY))).toBe(newest);
    expect(await rowIds()).toEqual([newest]);
    expect(await lastChangeId(site.db)).toBe(newest);
  });

  it('numbers new rows after the pruned ones, and the next rebuild finds them all', async () => {
    const before = await lastChangeId(site.db);
    await post('3', 3);
    const written = await readChangesSince(site.db, before);
    expect(written.length).toBeGreaterThan(0);
    expect(Math.min(...written.map((change) => change.id))).toBeGreaterThan(before);
    const plan = await planRebuild(site.db);
    expect(plan.changes).toBe(written.length);
    expect(plan.keys).toContain('/patreon/user/77/post/3');
    expect(plan.keys).toContain('/patreon/user/77/post/2');
    await applyRebuild(site.db, site.store, renderer(), plan);
    expect(site.store.has('/patreon/user/77/post/3')).toBe(true);
    expect(await rowIds()).toEqual([await lastChangeId(site.db)]);
  });

  it('keeps the changes written after a rebuild was planned for the next one', async () => {
    await post('4', 4);
    const plan = await planRebuild(site.db);
    // An import writes while the pages of the plan render.
    await post('5', 5);
    const late = await readChangesSince(site.db, plan.upTo);
    expect(late.length).toBeGreaterThan(0);
    await applyRebuild(site.db, site.store, renderer(), plan);
    expect(await rowIds()).toEqual(late.map((change) => change.id));
    expect(site.store.has('/patreon/user/77/post/5')).toBe(false);

    const next = await planRebuild(site.db);
    expect(next.changes).toBe(late.length);
    expect(next.keys).toContain('/patreon/user/77/post/5');
    await applyRebuild(site.db, site.store, renderer(), next);
    expect(site.store.has('/patreon/user/77/post/5')).toBe(true);
    expect(await rowIds()).toEqual([await lastChangeId(site.db)]);
  });

  it('never deletes the newest row, even when asked to prune past it', async () => {
    const newest = await recordChange(site.db, { kind: 'file', action: 'upsert', ref: 'abc' });
    expect(await pruneChanges(site.db, newest + 100)).toBeGreaterThan(0);
    expect(await rowIds()).toEqual([newest]);
    expect(await recordChange(site.db, { kind: 'file', action: 'upsert', ref: 'def' })).toBe(newest + 1);
  });
});
