/** A post's neighbours and position in its creator's listing are the same on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { creatorPostPosition, postPageNeighbours } from '@api/data/post-neighbours.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

/** Posts of creator patreon/1 as [id, published], plus one of another creator. */
async function seed(db: Store, posts: [string, string | null][]): Promise<void> {
  await db.k
    .insertInto('creators')
    .values([
      { service: 'patreon', id: '1', name: 'One', indexed: 0, updated: 0 },
      { service: 'patreon', id: '2', name: 'Two', indexed: 0, updated: 0 },
    ])
    .execute();
  let seq = 0;
  const rows = [...posts.map(([id, published]) => ({ user: '1', id, published })), { user: '2', id: 'x', published: '2020-06-01' }];
  for (const row of rows) {
    seq += 1;
    await db.k
      .insertInto('posts')
      .values({
        service: 'patreon',
        user: row.user,
        id: row.id,
        seq,
        published: row.published,
        edited: null,
        added: '2030-01-01',
        file: null,
        embed: null,
        poll: null,
        incomplete_rewards: null,
      })
      .execute();
  }
}

describe.each(ENGINES)('post neighbours on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('answers undefined for a missing post and nulls for a lone one', async () => {
    await seed(db, [['a', '2020-01-01']]);
    expect(await postPageNeighbours(db, 'patreon', '1', 'missing')).toBeUndefined();
    expect(await creatorPostPosition(db, 'patreon', '1', 'missing')).toBeUndefined();
    expect(await postPageNeighbours(db, 'patreon', '1', 'a')).toEqual({ prev: null, next: null });
    expect(await creatorPostPosition(db, 'patreon', '1', 'a')).toBe(0);
  });

  it('walks the listing newest first, ties by id, undated last', async () => {
    // The listing: d (2020-03), c and b (2020-02, tie: c first), é (2020-01), then undated z, y.
    await seed(db, [
      ['b', '2020-02-01'],
      ['c', '2020-02-01'],
      ['d', '2020-03-01'],
      ['é', '2020-01-01'],
      ['y', null],
      ['z', null],
    ]);
    const listing = ['d', 'c', 'b', 'é', 'z', 'y'];
    for (const [index, id] of listing.entries()) {
      expect(await postPageNeighbours(db, 'patreon', '1', id)).toEqual({
        prev: listing[index - 1] ?? null,
        next: listing[index + 1] ?? null,
      });
      expect(await creatorPostPosition(db, 'patreon', '1', id)).toBe(index);
    }
    // The other creator's lone post sees none of these.
    expect(await postPageNeighbours(db, 'patreon', '2', 'x')).toEqual({ prev: null, next: null });
  });

  it('goes from the last dated post to the first undated one and back', async () => {
    await seed(db, [
      ['a', '2020-01-01'],
      ['b', null],
    ]);
    expect(await postPageNeighbours(db, 'patreon', '1', 'a')).toEqual({ prev: null, next: 'b' });
    expect(await postPageNeighbours(db, 'patreon', '1', 'b')).toEqual({ prev: 'a', next: null });
    expect(await creatorPostPosition(db, 'patreon', '1', 'b')).toBe(1);
  });
});
