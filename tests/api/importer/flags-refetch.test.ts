/**
 * A flagged post is fetched again on its creator's next import, files included, even by the importers
 * that otherwise reuse what they have (OnlyFans and DLsite keep a stored post's files), and writing it
 * clears its flags with a log line. Each importer runs against its fake with the real worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flagPost, isPostFlagged } from '@api/data/flags.ts';
import { flagClearedLine } from '@api/importer/do-not-post.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { runSiteImport, siteConfig, startSite, type SiteFake } from './import-sites.ts';

let t: TempDb;
let fake: SiteFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  t.cleanup();
});

const flaggedLines = (logs: string[]) => logs.filter((line) => line.endsWith('was flagged; fetched again and its flag cleared.'));

describe('a flagged post on the next import', () => {
  it.each(['patreon', 'onlyfans', 'dlsite'])(
    '%s: is fetched again with its files and its flags are cleared, once, with a log line',
    { timeout: 120_000 },
    async (site) => {
      t = tempDb();
      fake = await startSite(site);
      const config = siteConfig(t.dir, fake);
      expect((await runSiteImport(t.db, config, fake)).at(-1)).toBe('Finished.');

      // A second import with nothing flagged: what a re-import asks of the paysite.
      let before = fake.requests();
      const plain = await runSiteImport(t.db, config, fake);
      const plainRequests = fake.requests() - before;
      expect(flaggedLines(plain)).toEqual([]);

      const target = t.db
        .prepare(`SELECT "user", id, title FROM posts WHERE service = ? AND attachments != '[]' ORDER BY "user", id LIMIT 1`)
        .get(site) as { user: string; id: string; title: string };
      const other = t.db
        .prepare('SELECT "user", id FROM posts WHERE service = ? AND NOT ("user" = ? AND id = ?) LIMIT 1')
        .get(site, target.user, target.id) as { user: string; id: string };
      await flagPost(t.db, { service: site, user: target.user, post_id: target.id, account_id: null, reason: 'missing files' });
      await flagPost(t.db, { service: site, user: target.user, post_id: target.id, account_id: null, reason: 'reason-other' });

      before = fake.requests();
      const logs = await runSiteImport(t.db, config, fake);
      expect(logs.at(-1)).toBe('Finished.');
      expect(flaggedLines(logs)).toEqual([flagClearedLine(target.title || target.id)]);
      expect(await isPostFlagged(t.db, site, target.user, target.id)).toBe(false);
      // Its files were asked for again: more requests than the plain re-import (Patreon asks for every file anyway).
      if (site !== 'patreon') expect(fake.requests() - before).toBeGreaterThan(plainRequests);
      expect(await isPostFlagged(t.db, site, other.user, other.id)).toBe(false);
    },
  );
});
