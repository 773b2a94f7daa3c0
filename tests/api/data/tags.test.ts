/** Post tags on the store: the same answers (and change-log rows) on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { listAllTags, listCreatorTags, listPostTags, recordDroppedTags, setPostTags, tagExists } from '@api/data/tags.ts';
import { inTransaction } from '@api/data/util.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

const p1 = { service: 'patreon', user: 'c1', id: 'p1' };
const p2 = { service: 'patreon', user: 'c1', id: 'p2' };
const q1 = { service: 'fanbox', user: 'c2', id: 'q1' };

describe.each(ENGINES)('tags on %s', (engine) => {
  let db: Store;

  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'patreon', 'c1');
    await addCreator(db, 'fanbox', 'c2');
    await addPost(db, { ...p1, seq: 1 });
    await addPost(db, { ...p2, seq: 2 });
    await addPost(db, { ...q1, seq: 3 });
  });

  /** The change rows, without ids and times. */
  const changes = async () =>
    (await readChangesSince(db, 0)).map(({ kind, action, service, creator_id, post_id, ref }) => ({
      kind,
      action,
      service,
      creator_id,
      post_id,
      ref,
    }));

  it('reads nothing on an empty archive', async () => {
    expect(await listAllTags(db)).toEqual([]);
    expect(await listCreatorTags(db, 'patreon', 'c1')).toEqual([]);
    expect(await listPostTags(db, p1)).toEqual([]);
    expect(await tagExists(db, 'art')).toBe(false);
    await recordDroppedTags(db, p1);
    expect(await changes()).toEqual([]);
  });

  it('writes tags, counts them most used first then by binary name order, per creator and globally', async () => {
    await setPostTags(db, p1, ['art', 'Zeta', 'ünï'], '2030-01-01T00:00:00', 1, { replace: false });
    await setPostTags(db, p2, ['art', 'zeta'], null, 2, { replace: false });
    await setPostTags(db, q1, ['Zeta', 'ünï'], null, 3, { replace: false });
    await setPostTags(db, q1, [], null, 3, { replace: false });

    expect(await listAllTags(db)).toEqual([
      { tag: 'Zeta', post_count: 2 },
      { tag: 'art', post_count: 2 },
      { tag: 'ünï', post_count: 2 },
      { tag: 'zeta', post_count: 1 },
    ]);
    expect(await listCreatorTags(db, 'patreon', 'c1')).toEqual([
      { tag: 'art', post_count: 2 },
      { tag: 'Zeta', post_count: 1 },
      { tag: 'zeta', post_count: 1 },
      { tag: 'ünï', post_count: 1 },
    ]);
    expect(await listCreatorTags(db, 'fanbox', 'c1')).toEqual([]);
    expect(await listPostTags(db, p1)).toEqual(['Zeta', 'art', 'ünï']);
    expect(await tagExists(db, 'art')).toBe(true);
    expect(await tagExists(db, 'ART')).toBe(false);
    expect(await tagExists(db, 'ünï')).toBe(true);
    const rows = await db.k
      .selectFrom('post_tags')
      .select(['tag', 'published', 'post_seq'])
      .where('post_id', '=', 'p1')
      .orderBy('tag')
      .execute();
    expect(rows).toEqual([
      { tag: 'Zeta', published: '2030-01-01T00:00:00', post_seq: 1 },
      { tag: 'art', published: '2030-01-01T00:00:00', post_seq: 1 },
      { tag: 'ünï', published: '2030-01-01T00:00:00', post_seq: 1 },
    ]);
    // Plain writes log nothing: the post writers log the post itself.
    expect(await changes()).toEqual([]);
  });

  it('replaces a post’s tags, logging each tag it loses, in one transaction', async () => {
    await setPostTags(db, p1, ['art', 'gone', 'ünï'], null, 1, { replace: false });
    await inTransaction(db, async (db) => {
      await setPostTags(db, p1, ['art', 'new'], '2030-02-01T00:00:00', 1, { replace: true });
    });
    expect(await listPostTags(db, p1)).toEqual(['art', 'new']);
    expect(await tagExists(db, 'gone')).toBe(false);
    expect(await listAllTags(db)).toEqual([
      { tag: 'art', post_count: 1 },
      { tag: 'new', post_count: 1 },
    ]);
    const dropped = { kind: 'post', action: 'upsert', service: 'patreon', creator_id: 'c1', post_id: 'p1' };
    expect(await changes()).toEqual([
      { ...dropped, ref: 'tag:gone' },
      { ...dropped, ref: 'tag:ünï' },
    ]);
  });

  it('rolls the replacement back with its change rows when the transaction fails', async () => {
    await setPostTags(db, p1, ['art', 'gone'], null, 1, { replace: false });
    await expect(
      inTransaction(db, async (db) => {
        await setPostTags(db, p1, [], null, 1, { replace: true });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await listPostTags(db, p1)).toEqual(['art', 'gone']);
    expect(await changes()).toEqual([]);
  });

  it('logs dropped tags except those kept', async () => {
    await setPostTags(db, p2, ['a', 'b', 'c'], null, 2, { replace: false });
    await recordDroppedTags(db, p2, ['b']);
    expect((await changes()).map((change) => change.ref)).toEqual(['tag:a', 'tag:c']);
    expect(await listPostTags(db, p2)).toEqual(['a', 'b', 'c']);
  });
});
