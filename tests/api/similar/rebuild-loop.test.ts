/**
 * The rebuild loop runs the similar-creators job over the rows each rebuild consumed and renders the
 * pages it marked right away: the stored creator page shows its similar creators, linking to them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRebuildLoop, type RebuildLoop } from '@api/pages/rebuild-loop.ts';
import { inProcessRenderer } from '@api/pages/render-into-store.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { buildArchive } from './fixture.ts';

let site: TestSite;
let loop: RebuildLoop;

beforeAll(async () => {
  site = await createTestSite('similar-loop');
  loop = startRebuildLoop({ db: site.db, store: site.store, renderer: inProcessRenderer(site.renderer, site.store) }, 0);
});

afterAll(async () => {
  await loop.stop();
  await site.close();
});

describe('similar creators in the rebuild loop', () => {
  it('one check stores the creator page with its similar creators, and the next finds nothing to do', async () => {
    await buildArchive(site.db);
    await loop.runNow();
    const html = fs.readFileSync(site.store.fileFor('/fanbox/user/ann'), 'utf8');
    expect(html).toContain('Similar creators');
    expect(html).toContain('href="/fanbox/user/bea"');
    const cal = fs.readFileSync(site.store.fileFor('/patreon/user/cal'), 'utf8');
    expect(cal).not.toContain('Similar creators');
    expect(await loop.runNow()).toBeUndefined();
  });
});
