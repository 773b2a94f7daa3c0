/** Flags on the store: the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { clearPostFlags, countFlaggedPosts, flagPost, isPostFlagged, listFlaggedPosts } from '@api/data/flags.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('flags on %s', (engine) => {
  let db: Store;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    db = await engines.fresh(engine);
    alice = await addAccount(db, 'alice');
    bob = await addAccount(db, 'bob');
    await addCreator(db, 'patreon', 'c1', 'Créateur ☃');
    await addPost(db, { service: 'patreon', user: 'c1', id: 'p1', seq: 1, title: 'first' });
    await addPost(db, { service: 'patreon', user: 'c1', id: 'p2', seq: 2, title: 'second' });
  });

  const flag = (id: string, account: number | null, reason: string, at: string) =>
    flagPost(db, { service: 'patreon', user: 'c1', post_id: id, account_id: account, reason, created_at: at });

  it('flags once per account, keeps guests apart, and reads nothing on an empty table', async () => {
    expect(await countFlaggedPosts(db)).toBe(0);
    expect(await listFlaggedPosts(db, { offset: 0, limit: 10 })).toEqual([]);
    expect(await isPostFlagged(db, 'patreon', 'c1', 'p1')).toBe(false);

    expect(await flag('p1', alice, 'broken', '2030-02-01T00:00:00')).toBe(true);
    expect(await flag('p1', alice, 'again', '2030-02-02T00:00:00')).toBe(false);
    expect(await flag('p1', null, 'guest', '2030-02-03T00:00:00')).toBe(true);
    expect(await flag('p1', null, 'guest', '2030-02-03T00:00:00')).toBe(true);
    expect(await isPostFlagged(db, 'patreon', 'c1', 'p1')).toBe(true);
    expect(await isPostFlagged(db, 'patreon', 'c1', 'p2')).toBe(false);
    expect(await isPostFlagged(db, 'patreon', 'C1', 'p1')).toBe(false);
    expect(await countFlaggedPosts(db)).toBe(1);
  });

  it('lists flagged posts newest flag first with distinct reasons newest first, paged', async () => {
    await flag('p1', alice, 'broken', '2030-02-01T00:00:00');
    await flag('p1', bob, 'missing ✓', '2030-02-05T00:00:00');
    await flag('p1', null, 'broken', '2030-02-04T00:00:00');
    await flag('p2', alice, 'wrong', '2030-02-03T00:00:00');

    const all = await listFlaggedPosts(db, { offset: 0, limit: 10 });
    expect(all).toEqual([
      {
        service: 'patreon',
        user: 'c1',
        id: 'p1',
        title: 'first',
        creator_name: 'Créateur ☃',
        flagged_at: '2030-02-05T00:00:00',
        flag_count: 3,
        reasons: ['missing ✓', 'broken'],
      },
      {
        service: 'patreon',
        user: 'c1',
        id: 'p2',
        title: 'second',
        creator_name: 'Créateur ☃',
        flagged_at: '2030-02-03T00:00:00',
        flag_count: 1,
        reasons: ['wrong'],
      },
    ]);
    expect(await listFlaggedPosts(db, { offset: 1, limit: 1 })).toEqual([all[1]]);
    expect(await listFlaggedPosts(db, { offset: 2, limit: 1 })).toEqual([]);
    expect(await countFlaggedPosts(db)).toBe(2);
  });

  it('breaks ties on the flag time by the latest flag', async () => {
    await flag('p2', alice, 'one', '2030-02-01T00:00:00');
    await flag('p1', alice, 'two', '2030-02-01T00:00:00');
    await flag('p1', bob, 'three', '2030-02-01T00:00:00');
    const listed = await listFlaggedPosts(db, { offset: 0, limit: 10 });
    expect(listed.map((row) => [row.id, row.reasons])).toEqual([
      ['p1', ['three', 'two']],
      ['p2', ['one']],
    ]);
  });

  it('clears a post’s flags and counts them', async () => {
    await flag('p1', alice, 'a', '2030-02-01T00:00:00');
    await flag('p1', bob, 'b', '2030-02-02T00:00:00');
    await flag('p2', bob, 'c', '2030-02-02T00:00:00');
    expect(await clearPostFlags(db, 'patreon', 'c1', 'p1')).toBe(2);
    expect(await clearPostFlags(db, 'patreon', 'c1', 'p1')).toBe(0);
    expect(await clearPostFlags(db, 'patreon', 'c1', 'missing')).toBe(0);
    expect(await isPostFlagged(db, 'patreon', 'c1', 'p1')).toBe(false);
    expect(await countFlaggedPosts(db)).toBe(1);
  });

  it('names the creator of each flagged post', async () => {
    await addCreator(db, 'fanbox', 'c2', 'ファン');
    await addPost(db, { service: 'fanbox', user: 'c2', id: 'p9', seq: 9, title: '' });
    await flagPost(db, { service: 'fanbox', user: 'c2', post_id: 'p9', account_id: null, reason: 'r', created_at: '2030-03-01T00:00:00' });
    await flag('p1', alice, 'a', '2030-02-01T00:00:00');
    const listed = await listFlaggedPosts(db, { offset: 0, limit: 10 });
    expect(listed.map((row) => [row.service, row.id, row.title, row.creator_name, row.flag_count])).toEqual([
      ['fanbox', 'p9', '', 'ファン', 1],
      ['patreon', 'p1', 'first', 'Créateur ☃', 1],
    ]);
  });
});
