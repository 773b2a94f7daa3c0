/**
 * A takedown and the page store: after a full render of a small archive, a creator and a post are
 * taken down and the rebuild that follows (from the change log only) leaves no stored page that
 * shows them, while the pages of what remains are re-rendered without them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkFiles } from '@api/server/walk.ts';
import { rebuildPages } from '@api/pages/rebuild.ts';
import { inProcessRenderer } from '@api/pages/render-into-store.ts';
import { takedownCreator, takedownPost } from '@api/moderation/takedowns.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { seedArchive, type Seeded } from '../moderation/takedown-seed.ts';

let site: TestSite;
let seeded: Seeded;
const actor = { id: 1, username: 'boss' };

/** Stored pages (path relative to the store) whose HTML contains any of `needles`. */
function pagesShowing(...needles: string[]): string[] {
  return [...walkFiles(site.store.root)]
    .filter((file) => file.endsWith('.html'))
    .filter((file) => {
      const html = fs.readFileSync(file, 'utf8');
      return needles.some((needle) => html.includes(needle));
    })
    .map((file) => path.relative(site.store.root, file));
}

const renderer = () => inProcessRenderer(site.renderer, site.store);

beforeAll(async () => {
  site = await createTestSite('takedown-pages');
  seeded = await seedArchive(site.db, site.dataDir);
  const full = await rebuildPages(site.db, site.store, renderer(), { all: true });
  expect(full.failed).toEqual([]);
}, 300_000);

afterAll(async () => {
  await site?.close();
});

describe('the page store after a takedown', () => {
  it('held pages of the creator before', () => {
    expect(pagesShowing('Takedown Target').length).toBeGreaterThan(3);
    expect(pagesShowing('Zebrafish').length).toBeGreaterThan(1);
  });

  it('keeps no page that shows a removed creator once the rebuild ran', async () => {
    await takedownCreator({ db: site.db, config: site.config }, 'patreon', '100', 'Owner request', actor);
    const summary = await rebuildPages(site.db, site.store, renderer());
    expect(summary.failed).toEqual([]);
    expect(pagesShowing('Takedown Target', 'Zebrafish', '/patreon/user/100', seeded.files.unique.hash)).toEqual([]);
    // What remains is still stored, re-rendered without it.
    expect(fs.existsSync(site.store.fileFor('/fanbox/user/200/post/f1'))).toBe(true);
    expect(fs.existsSync(site.store.fileFor(`/share/${seeded.sharedShare}`))).toBe(true);
  });

  it('keeps no page of a removed Discord server once the rebuild ran', async () => {
    expect(pagesShowing('Taken Server').length).toBeGreaterThan(0);
    await takedownCreator({ db: site.db, config: site.config }, 'discord', '900', 'Owner request', actor);
    const summary = await rebuildPages(site.db, site.store, renderer());
    expect(summary.failed).toEqual([]);
    expect(pagesShowing('Taken Server', '/discord/server/900')).toEqual([]);
  });

  it('keeps no page that shows a removed post once the rebuild ran', async () => {
    await takedownPost({ db: site.db, config: site.config }, 'fanbox', '200', 'f1', 'Owner request', actor);
    const summary = await rebuildPages(site.db, site.store, renderer());
    expect(summary.failed).toEqual([]);
    expect(pagesShowing('Kept post', '/fanbox/user/200/post/f1')).toEqual([]);
    expect(fs.existsSync(site.store.fileFor('/fanbox/user/200'))).toBe(true);
  });
});
