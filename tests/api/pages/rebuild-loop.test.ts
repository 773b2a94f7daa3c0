/**
 * The server's rebuild loop: a write to the archive reaches the stored pages on the next tick, with no
 * command run by hand; with nothing new in the change log it renders nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRebuildLoop, type RebuildLoop } from '@api/pages/rebuild-loop.ts';
import { inProcessRenderer } from '@api/pages/render-into-store.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';

let site: TestSite;
let loop: RebuildLoop;

beforeAll(async () => {
  site = await createTestSite('rebuild-loop');
  loop = startRebuildLoop({ db: site.db, store: site.store, renderer: inProcessRenderer(site.renderer, site.store) }, 100);
});

afterAll(async () => {
  await loop.stop();
  await site.close();
});

describe('the rebuild loop', () => {
  it('stores the pages a write affects on its own, then finds nothing to do', async () => {
    await upsertCreator(site.db, { service: 'patreon', id: '42', name: 'Loop Artist' });
    await upsertPost(site.db, { service: 'patreon', user: '42', id: '7', title: 'Written by an import', published: '2024-05-01T00:00:00' });
    // Both pages, whichever a run writes first (the poll may look between the two writes of one run).
    const stored = () => ['/patreon/user/42/post/7', '/patreon/user/42'].filter((key) => site.store.has(key));
    await expect.poll(stored, { timeout: 10_000 }).toEqual(['/patreon/user/42/post/7', '/patreon/user/42']);
    expect(await loop.runNow()).toBeUndefined();
  });

  it('a rename written later reaches the stored post page', async () => {
    await upsertCreator(site.db, { service: 'patreon', id: '42', name: 'Renamed Artist' });
    const summary = await loop.runNow();
    expect(summary?.keys).toContain('/patreon/user/42/post/7');
    const html = await import('node:fs').then((fs) => fs.readFileSync(site.store.fileFor('/patreon/user/42/post/7'), 'utf8'));
    expect(html).toContain('Renamed Artist');
  });
});
