/** Post popularity gives the same answers and change-log rows on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { readChangesSince } from '@api/data/changes.ts';
import { addPopularity, listPopularPosts, popularityDateRange, popularPosts } from '@api/data/popular.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

async function seed(db: Store, ids: string[]): Promise<void> {
  await db.k.insertInto('creators').values({ service: 'patreon', id: '1', name: 'One', indexed: 0, updated: 0 }).execute();
  for (const [index, id] of ids.entries())
    await db.k
      .insertInto('posts')
      .values({
        service: 'patreon',
        user: '1',
        id,
        seq: index + 1,
        title: `Title ${id} ✓`,
        content: '<p>Hello wörld</p>',
        published: '2020-01-01',
        edited: null,
        added: '2030-01-01',
        file: null,
        embed: null,
        poll: null,
        incomplete_rewards: null,
      })
      .execute();
}

const day = (d: string, post_id: string, favorites?: number, views?: number) => ({
  day: d,
  service: 'patreon',
  user: '1',
  post_id,
  favorites,
  views,
});

describe.each(ENGINES)('popularity on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('is empty at first', async () => {
    await addPopularity(db, []);
    expect(await popularityDateRange(db)).toEqual({ min_day: null, max_day: null });
    expect(await listPopularPosts(db, { from: '2020-01-01', to: '2030-01-01' })).toEqual({ posts: [], count: 0 });
    expect(await readChangesSince(db, 0)).toEqual([]);
  });

  it('sums counts, logs one change per day and ranks by favourites, views, then newest', async () => {
    await seed(db, ['a', 'b', 'c', 'd']);
    await addPopularity(db, [
      day('2024-01-02', 'a', 2, 1),
      day('2024-01-01', 'a', 1),
      day('2024-01-02', 'a', 1, 1),
      day('2024-01-01', 'b', 3, 5),
      day('2024-01-01', 'c', 3, 5),
      day('2024-01-03', 'd', 9, 9),
    ]);
    const changes = await readChangesSince(db, 0);
    expect(changes.map((change) => [change.kind, change.action, change.ref])).toEqual([
      ['popularity', 'upsert', '2024-01-01'],
      ['popularity', 'upsert', '2024-01-02'],
      ['popularity', 'upsert', '2024-01-03'],
    ]);
    expect(await popularityDateRange(db)).toEqual({ min_day: '2024-01-01', max_day: '2024-01-03' });

    const found = await listPopularPosts(db, { from: '2024-01-01', to: '2024-01-02' });
    expect(found.count).toBe(3);
    // a: 4 favourites; c and b tie on favourites and views, c is newer (higher seq).
    expect(found.posts.map((post) => [post.id, post.fav_count])).toEqual([
      ['a', 4],
      ['c', 3],
      ['b', 3],
    ]);
    expect(found.posts[0]).toMatchObject({ title: 'Title a ✓', substring: 'Hello wörld', tags: [], shared_file: false });
    const paged = await listPopularPosts(db, { from: '2024-01-01', to: '2024-01-02', offset: 1, limit: 1 });
    expect(paged.posts.map((post) => post.id)).toEqual(['c']);
    expect(paged.count).toBe(3);
    // A page past the end still counts the period's posts.
    expect(await listPopularPosts(db, { from: '2024-01-01', to: '2024-01-02', offset: 3, limit: 1 })).toEqual({ posts: [], count: 3 });
  });

  it('answers the popular list of a period', async () => {
    await seed(db, ['a']);
    await addPopularity(db, [day('2024-01-01', 'a', 1)]);
    const answer = await popularPosts(db, { period: 'recent', offset: 0, limit: 10 }, '2024-01-05');
    expect(answer.info.min_date).toBe('2024-01-01');
    expect(answer.info.max_date).toBe('2024-01-01');
    expect(answer.props).toEqual({ count: answer.posts.length, earliest_date_for_popular: '2024-01-01', today: '2024-01-05' });
  });
});
