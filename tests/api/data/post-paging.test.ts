/**
 * Keyset paging of the post listings: for every post as the cursor, the page after it is exactly the
 * offset listing's next posts (same order, with equal dates and undated posts), and the cursor queries
 * are index range scans (EXPLAIN QUERY PLAN), not scans from the top.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { archiveCursorOf, listCreatorPosts, listRecentPosts, upsertPost } from '@api/data/posts.ts';
import { searchPosts } from '@api/data/post-search.ts';
import { tempDb, tempSqliteDb, type TempDb } from './helpers.ts';
import type { ArchiveCursor } from '@shared/cursor.ts';

let temp: TempDb;
const N = 40;
const ids = (posts: Array<{ id: string }>) => posts.map((p) => p.id);

beforeAll(async () => {
  temp = tempDb();
  await upsertCreator(temp.db, { service: 'fanbox', id: '9', name: 'Keys' });
  for (let n = 1; n <= N; n++) {
    await upsertPost(temp.db, {
      service: 'fanbox',
      user: '9',
      // Ids that sort differently as text and as numbers, dates shared by four posts, every fifth undated.
      id: String(n * 7),
      title: `Post ${n} ink`,
      published: n % 5 === 0 ? null : `2024-02-${String(10 + Math.floor(n / 4)).padStart(2, '0')}T00:00:00`,
      added: `2024-03-${String(10 + Math.floor(n / 6)).padStart(2, '0')}T00:00:00`,
      tags: n % 2 ? ['ink'] : ['pen'],
    });
  }
});
afterAll(() => temp.cleanup());

describe('a cursor page is the offset listing after that post', () => {
  it("a creator's posts, across equal dates and into the undated ones", async () => {
    const all = await listCreatorPosts(temp.db, 'fanbox', '9', 0, N);
    expect(all.slice(-8).every((p) => p.published === null)).toBe(true);
    for (const [i, post] of all.entries()) {
      const after = await listCreatorPosts(temp.db, 'fanbox', '9', 0, 7, { published: post.published, id: post.id });
      expect(ids(after)).toEqual(ids(all.slice(i + 1, i + 8)));
    }
  });

  it('the global recent posts, across equal added dates', async () => {
    const all = await listRecentPosts(temp.db, 0, N);
    for (const [i, post] of all.entries()) {
      const after = await listRecentPosts(temp.db, 0, 7, (await archiveCursorOf(temp.db, post))!);
      expect(ids(after)).toEqual(ids(all.slice(i + 1, i + 8)));
    }
  });

  it('searches: a creator with a tag or text, the global tag listing and text search', async () => {
    const cases = [{ service: 'fanbox', user: '9', tag: 'ink' }, { service: 'fanbox', user: '9', q: 'ink' }, { tag: 'ink' }, { q: 'ink' }];
    for (const filter of cases) {
      const all = (await searchPosts(temp.db, { ...filter, limit: N })).posts;
      expect(all.length).toBeGreaterThan(10);
      for (const [i, post] of all.entries()) {
        const cursor = filter.service
          ? { creatorAfter: { published: post.published, id: post.id } }
          : { archiveAfter: (await archiveCursorOf(temp.db, post)) as ArchiveCursor };
        const after = (await searchPosts(temp.db, { ...filter, ...cursor, offset: 50, limit: 5 })).posts;
        expect(ids(after), JSON.stringify(filter)).toEqual(ids(all.slice(i + 1, i + 6)));
      }
    }
  });
});

describe('query plans', () => {
  // SQLite's planner, on a SQLite file whatever the run's engine (the plans need the schema, not rows).
  it('the cursor queries are index range scans without a sort', async () => {
    const sqls: string[] = [];
    const fresh = tempSqliteDb();
    const prepare = fresh.db.prepare.bind(fresh.db);
    fresh.db.prepare = ((sql: string) => {
      sqls.push(sql);
      return prepare(sql);
    }) as typeof fresh.db.prepare;
    await listCreatorPosts(fresh.db, 'fanbox', '9', 0, 50, { published: '2024-02-12T00:00:00', id: '70' });
    await listCreatorPosts(fresh.db, 'fanbox', '9', 0, 50, { published: null, id: '70' });
    await listRecentPosts(fresh.db, 0, 50, { added: '2024-03-12T00:00:00', seq: 20 });
    const plans = sqls.map((sql) => {
      const params = Array.from(sql.matchAll(/\?/g), () => 'x');
      return prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
    });
    fresh.cleanup();
    expect(plans).toEqual([
      'SEARCH p USING INDEX posts_creator_published (service=? AND user=? AND (published,id)<(?,?))',
      // A short page after a dated cursor goes on with the undated posts, then an undated cursor's query.
      'SEARCH p USING INDEX posts_creator_published (service=? AND user=? AND published=?)',
      'SEARCH p USING INDEX posts_creator_published (service=? AND user=? AND published=? AND id<?)',
      'SEARCH p USING INDEX posts_added ((added,seq)<(?,?))',
    ]);
  });
});
