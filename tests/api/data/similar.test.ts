/** Similar creators' reads and writes give the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  accountFavouriteKeys,
  allTagPostCounts,
  creatorExists,
  creatorFavouriters,
  creatorKey,
  creatorsListing,
  creatorsWithTopTag,
  creatorTagCounts,
  deleteCreatorSimilarity,
  iterateAllCreatorTagCounts,
  iterateAllFavourites,
  listSimilarCreators,
  pruneGoneSimilarity,
  readSimilarList,
  readTagProfile,
  splitCreatorKey,
  tagPostCount,
  writeSimilarList,
  writeTagProfile,
} from '@api/data/similar.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const A = creatorKey('patreon', 'a');
const B = creatorKey('patreon', 'b');
const C = creatorKey('fanbox', 'ç');

async function seed(db: Store): Promise<number[]> {
  await db.k
    .insertInto('creators')
    .values([
      { service: 'patreon', id: 'a', name: 'Ay', indexed: 1_700_000_000, updated: 1_700_000_100, public_id: 'ay' },
      { service: 'patreon', id: 'b', name: 'Bee', indexed: 1_700_000_000, updated: 1_700_000_000 },
      { service: 'fanbox', id: 'ç', name: 'Çé ✓', indexed: 1_700_000_000, updated: 1_700_000_000 },
    ])
    .execute();
  const accounts: number[] = [];
  for (const name of ['one', 'two']) {
    const row = await db.k.insertInto('accounts').values({ username: name, password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    accounts.push(row.id);
  }
  const favourites: [number, string, string, number][] = [
    [accounts[0], 'patreon', 'a', 1],
    [accounts[0], 'fanbox', 'ç', 3],
    [accounts[1], 'patreon', 'a', 2],
    [accounts[1], 'patreon', 'b', 4],
  ];
  for (const [account_id, service, creator_id, faved_seq] of favourites)
    await db.k.insertInto('favorite_creators').values({ account_id, service, creator_id, faved_seq }).execute();
  let seq = 0;
  const tagged: [string, string, string[]][] = [
    ['a', 'p1', ['cat', 'dög']],
    ['a', 'p2', ['cat']],
    ['b', 'p3', ['cat', 'zebra']],
  ];
  for (const [user, id, tags] of tagged) {
    seq += 1;
    await db.k
      .insertInto('posts')
      .values({
        service: 'patreon',
        user,
        id,
        seq,
        published: null,
        edited: null,
        added: '2030-01-01',
        file: null,
        embed: null,
        poll: null,
        incomplete_rewards: null,
      })
      .execute();
    for (const tag of tags)
      await db.k.insertInto('post_tags').values({ service: 'patreon', user, post_id: id, tag, published: null, post_seq: seq }).execute();
  }
  return accounts;
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe.each(ENGINES)('similar creators on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('splits and joins keys', () => {
    expect(splitCreatorKey(C)).toEqual({ service: 'fanbox', id: 'ç' });
  });

  it('is empty at first', async () => {
    expect(await creatorExists(db, A)).toBe(false);
    expect(await creatorFavouriters(db, A, 10)).toEqual([]);
    expect(await collect(iterateAllFavourites(db))).toEqual([]);
    expect(await collect(iterateAllCreatorTagCounts(db))).toEqual([]);
    expect(await tagPostCount(db, 'cat')).toBe(0);
    expect(await allTagPostCounts(db)).toEqual(new Map());
    expect(await readTagProfile(db, A)).toEqual(new Map());
    expect(await readSimilarList(db, A)).toEqual([]);
    expect(await listSimilarCreators(db, 'patreon', 'a', 10)).toEqual([]);
    expect(await pruneGoneSimilarity(db)).toBe(0);
  });

  it('reads favourites and tag counts', async () => {
    const [one, two] = await seed(db);
    expect(await creatorExists(db, A)).toBe(true);
    expect(await creatorExists(db, C)).toBe(true);
    expect(await creatorFavouriters(db, A, 10)).toEqual([two, one]);
    expect(await creatorFavouriters(db, A, 1)).toEqual([two]);
    expect(await accountFavouriteKeys(db, one, 10)).toEqual([C, A]);
    expect(await accountFavouriteKeys(db, two, 1)).toEqual([B]);
    expect(await collect(iterateAllFavourites(db))).toEqual([
      { account_id: one, key: C, faved_seq: 3 },
      { account_id: one, key: A, faved_seq: 1 },
      { account_id: two, key: B, faved_seq: 4 },
      { account_id: two, key: A, faved_seq: 2 },
    ]);
    const counts = await creatorTagCounts(db, A);
    expect(counts.sort((x, y) => (x.tag < y.tag ? -1 : 1))).toEqual([
      { tag: 'cat', n: 2 },
      { tag: 'dög', n: 1 },
    ]);
    expect(await collect(iterateAllCreatorTagCounts(db))).toEqual([
      { key: A, tag: 'cat', n: 2 },
      { key: A, tag: 'dög', n: 1 },
      { key: B, tag: 'cat', n: 1 },
      { key: B, tag: 'zebra', n: 1 },
    ]);
    expect(await tagPostCount(db, 'cat')).toBe(3);
    expect(await allTagPostCounts(db)).toEqual(
      new Map([
        ['cat', 3],
        ['dög', 1],
        ['zebra', 1],
      ]),
    );
  });

  it('writes and reads profiles and lists, ties by key', async () => {
    await seed(db);
    await writeTagProfile(
      db,
      A,
      new Map([
        ['cat', 0.5],
        ['dög', 0.25],
      ]),
    );
    await writeTagProfile(db, B, new Map([['cat', 0.5]]));
    await writeTagProfile(
      db,
      A,
      new Map([
        ['cat', 0.5],
        ['dög', 0.75],
      ]),
    );
    expect(await readTagProfile(db, A)).toEqual(
      new Map([
        ['cat', 0.5],
        ['dög', 0.75],
      ]),
    );
    expect(await creatorsWithTopTag(db, 'cat', 10)).toEqual([A, B]);
    expect(await creatorsWithTopTag(db, 'cat', 1)).toEqual([A]);
    expect(await creatorsWithTopTag(db, 'none', 10)).toEqual([]);

    await writeSimilarList(db, A, [
      { key: C, score: 0.9 },
      { key: B, score: 0.9 },
    ]);
    await writeSimilarList(db, B, [{ key: A, score: 0.5 }]);
    await writeSimilarList(db, C, [{ key: A, score: 0.5 }]);
    expect(await readSimilarList(db, A)).toEqual([
      { key: C, score: 0.9 },
      { key: B, score: 0.9 },
    ]);
    expect(await creatorsListing(db, A, 10)).toEqual([C, B]);
    expect(await creatorsListing(db, A, 1)).toEqual([C]);
    expect(await listSimilarCreators(db, 'patreon', 'a', 10)).toEqual([
      {
        id: 'ç',
        name: 'Çé ✓',
        service: 'fanbox',
        indexed: expect.any(String),
        updated: expect.any(String),
        public_id: null,
        relation_id: null,
        score: 0.9,
      },
      {
        id: 'b',
        name: 'Bee',
        service: 'patreon',
        indexed: expect.any(String),
        updated: expect.any(String),
        public_id: null,
        relation_id: null,
        score: 0.9,
      },
    ]);
    const [b] = await listSimilarCreators(db, 'patreon', 'b', 1);
    expect(b).toMatchObject({ id: 'a', public_id: 'ay', score: 0.5 });
    expect(b.updated > b.indexed).toBe(true);
  });

  it('removes a deleted creator everywhere and prunes creators that are gone', async () => {
    await seed(db);
    await writeTagProfile(db, A, new Map([['cat', 1]]));
    await writeTagProfile(db, B, new Map([['cat', 1]]));
    await writeSimilarList(db, A, [{ key: B, score: 1 }]);
    await writeSimilarList(db, B, [
      { key: A, score: 1 },
      { key: C, score: 0.5 },
    ]);
    await writeSimilarList(db, C, [{ key: B, score: 1 }]);
    await deleteCreatorSimilarity(db, A);
    expect(await readSimilarList(db, A)).toEqual([]);
    expect(await readTagProfile(db, A)).toEqual(new Map());
    expect(await readSimilarList(db, B)).toEqual([{ key: C, score: 0.5 }]);

    await db.k.deleteFrom('creators').where('service', '=', 'fanbox').execute();
    // C's own list and its place in B's list.
    expect(await pruneGoneSimilarity(db)).toBe(2);
    expect(await readSimilarList(db, B)).toEqual([]);
    expect(await readTagProfile(db, B)).toEqual(new Map([['cat', 1]]));
    expect(await pruneGoneSimilarity(db)).toBe(0);
  });
});
