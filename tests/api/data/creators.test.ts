/** Creators on both engines: the same answers and the same change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countCreators,
  creatorTabCounts,
  findCreator,
  getCreator,
  getCreatorByPublicId,
  getCreatorProfile,
  getCreatorUnlessListed,
  hasLinkedCreators,
  iterateCreatorKeys,
  linkedCreators,
  listAllCreators,
  listCreatorsUpdated,
  randomCreator,
  recordLinkGroupChanges,
  setCreatorLastImported,
  touchCreatorUpdated,
  upsertCreator,
  withIsoDates,
} from '@api/data/creators.ts';
import { readChangesSince } from '@api/data/changes.ts';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('creators on %s', (engine) => {
  let db: Store;
  let mark = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    mark = 0;
  });

  /** The change rows since the previous call, as [kind, action, service, creator_id, ref]. */
  async function since(): Promise<(string | null)[][]> {
    const rows = await readChangesSince(db, mark);
    if (rows.length) mark = rows[rows.length - 1].id;
    return rows.map((c) => [c.kind, c.action, c.service, c.creator_id, c.ref]);
  }

  it('inserts, updates, keeps unchanged creators and logs each change', async () => {
    expect(await getCreator(db, 'fanbox', '1')).toBeUndefined();
    expect(await upsertCreator(db, { service: 'fanbox', id: '1', name: 'クリエイター ✓', indexed: 100, updated: 200 })).toBe('inserted');
    expect(await getCreator(db, 'fanbox', '1')).toEqual({
      id: '1',
      name: 'クリエイター ✓',
      service: 'fanbox',
      indexed: 100,
      updated: 200,
      public_id: null,
      relation_id: null,
      has_chats: false,
      last_imported: null,
    });
    expect(await since()).toEqual([['creator', 'upsert', 'fanbox', '1', null]]);
    expect(await upsertCreator(db, { service: 'fanbox', id: '1', name: 'クリエイター ✓' })).toBe('unchanged');
    expect(await since()).toEqual([]);
    expect(
      await upsertCreator(db, { service: 'fanbox', id: '1', name: 'renamed', public_id: 'pix', has_chats: true, last_imported: 5 }),
    ).toBe('updated');
    expect(await getCreator(db, 'fanbox', '1')).toMatchObject({
      name: 'renamed',
      public_id: 'pix',
      has_chats: true,
      last_imported: 5,
      indexed: 100,
      updated: 200,
    });
    expect(await since()).toEqual([['creator', 'upsert', 'fanbox', '1', 'renamed']]);
    // A new creator without dates gets now.
    const before = Math.floor(Date.now() / 1000) - 1;
    await upsertCreator(db, { service: 'fanbox', id: '2', name: 'two' });
    const two = (await getCreator(db, 'fanbox', '2'))!;
    expect(two.indexed).toBeGreaterThanOrEqual(before);
    expect(two.updated).toBe(two.indexed);
  });

  it('never writes a creator on the do-not-post list', async () => {
    await addDoNotPost(db, { service: 'fanbox', creator_id: '9', reason: 'asked' });
    await since();
    expect(await upsertCreator(db, { service: 'fanbox', id: '9', name: 'nope' })).toBe('unchanged');
    expect(await getCreator(db, 'fanbox', '9')).toBeUndefined();
    expect(await since()).toEqual([]);
  });

  it('finds creators by id or public id', async () => {
    await upsertCreator(db, { service: 'fanbox', id: '20', name: 'b', public_id: 'handle', indexed: 1, updated: 1 });
    await upsertCreator(db, { service: 'fanbox', id: '10', name: 'a', public_id: 'handle', indexed: 1, updated: 1 });
    expect((await getCreatorByPublicId(db, 'fanbox', 'handle'))?.id).toBe('10');
    expect(await getCreatorByPublicId(db, 'patreon', 'handle')).toBeUndefined();
    expect((await findCreator(db, 'fanbox', '20'))?.id).toBe('20');
    expect((await findCreator(db, 'fanbox', 'handle'))?.id).toBe('10');
    expect(await findCreator(db, 'fanbox', 'missing')).toBeUndefined();
  });

  it("answers a creator page's first lookup: listed or not, and the row when there is one", async () => {
    await upsertCreator(db, { service: 'fanbox', id: '10', name: 'a', indexed: 1, updated: 2, has_chats: true });
    expect(await getCreatorUnlessListed(db, 'fanbox', '10')).toEqual({ listed: false, creator: await getCreator(db, 'fanbox', '10') });
    expect((await getCreatorUnlessListed(db, 'fanbox', '10')).creator).toMatchObject({ id: '10', name: 'a', has_chats: true });
    expect(await getCreatorUnlessListed(db, 'fanbox', 'missing')).toEqual({ listed: false, creator: undefined });
    // A post's entry does not list its creator; the creator's own entry does, with or without the row.
    await addDoNotPost(db, { service: 'fanbox', creator_id: '10', post_id: 'p', reason: 'owner' });
    expect((await getCreatorUnlessListed(db, 'fanbox', '10')).listed).toBe(false);
    await addDoNotPost(db, { service: 'fanbox', creator_id: '10', reason: 'owner' });
    expect((await getCreatorUnlessListed(db, 'fanbox', '10')).listed).toBe(true);
    await addDoNotPost(db, { service: 'fanbox', creator_id: 'gone', reason: 'owner' });
    expect(await getCreatorUnlessListed(db, 'fanbox', 'gone')).toEqual({ listed: true, creator: undefined });
  });

  it('lists by updated (ties by service and id, descending), counts and lists all with favourites', async () => {
    expect(await countCreators(db)).toBe(0);
    expect(await listCreatorsUpdated(db, 0, 10)).toEqual([]);
    expect(await listAllCreators(db)).toEqual([]);
    await upsertCreator(db, { service: 'patreon', id: 'a', name: 'pa', indexed: 1, updated: 50 });
    await upsertCreator(db, { service: 'fanbox', id: 'b', name: 'fb', indexed: 1, updated: 50, has_chats: true });
    await upsertCreator(db, { service: 'fanbox', id: 'a', name: 'fa', indexed: 1, updated: 50 });
    await upsertCreator(db, { service: 'fanbox', id: 'B', name: 'fB', indexed: 1, updated: 90 });
    expect(await countCreators(db)).toBe(4);
    const keys = (list: { service: string; id: string }[]) => list.map((c) => `${c.service}/${c.id}`);
    expect(keys(await listCreatorsUpdated(db, 0, 10))).toEqual(['fanbox/B', 'patreon/a', 'fanbox/b', 'fanbox/a']);
    expect(keys(await listCreatorsUpdated(db, 1, 2))).toEqual(['patreon/a', 'fanbox/b']);
    const one = await addAccount(db, 'one');
    const two = await addAccount(db, 'two');
    for (const account of [one, two]) {
      await db.k
        .insertInto('favorite_creators')
        .values({ account_id: account, service: 'fanbox', creator_id: 'b', faved_seq: account })
        .execute();
    }
    const all = await listAllCreators(db);
    expect(keys(all)).toEqual(['fanbox/B', 'fanbox/a', 'fanbox/b', 'patreon/a']);
    expect(all[2]).toEqual({
      id: 'b',
      name: 'fb',
      service: 'fanbox',
      indexed: 1,
      updated: 50,
      favorited: 2,
      public_id: null,
      relation_id: null,
      has_chats: true,
    });
    expect(all[0].favorited).toBe(0);
    expect(Object.keys(all[0])).toEqual([
      'id',
      'name',
      'service',
      'indexed',
      'updated',
      'favorited',
      'public_id',
      'relation_id',
      'has_chats',
    ]);
  });

  it('answers the profile with its counts', async () => {
    expect(await getCreatorProfile(db, 'discord', 'srv')).toBeUndefined();
    await upsertCreator(db, { service: 'discord', id: 'srv', name: 'Server', indexed: 0, updated: 86_400 });
    await upsertCreator(db, { service: 'patreon', id: 'p', name: 'P', indexed: 0, updated: 0 });
    await db.k
      .insertInto('discord_channels')
      .values([
        { id: 'c1', server_id: 'srv', name: 'one' },
        { id: 'c2', server_id: 'srv', name: 'two' },
        { id: 'c3', server_id: 'p', name: 'elsewhere' },
      ])
      .execute();
    await db.k.insertInto('community_channels').values({ channel_id: 'cc', service: 'patreon', creator_id: 'p', name: 'ch' }).execute();
    await addPost(db, { service: 'patreon', user: 'p', id: '1', seq: 1 });
    await addPost(db, { service: 'patreon', user: 'p', id: '2', seq: 2 });
    const dm = { service: 'patreon', user: 'p', content: '', added: 'x' };
    await db.k
      .insertInto('dms')
      .values([
        { ...dm, hash: 'h1', status: 'approved' },
        { ...dm, hash: 'h2', status: 'pending' },
      ])
      .execute();
    const share = await db.k.insertInto('shares').values({ name: 's', added: 'x' }).returning('id').executeTakeFirstOrThrow();
    await db.k
      .insertInto('share_creators')
      .values({ share_id: Number(share.id), service: 'patreon', creator_id: 'p' })
      .execute();
    expect(await getCreatorProfile(db, 'discord', 'srv')).toEqual({
      id: 'srv',
      name: 'Server',
      service: 'discord',
      indexed: '1970-01-01T00:00:00',
      updated: '1970-01-02T00:00:00',
      public_id: null,
      relation_id: null,
      post_count: 0,
      dm_count: 0,
      share_count: 0,
      chat_count: 2,
      has_chats: false,
    });
    expect(await getCreatorProfile(db, 'patreon', 'p')).toMatchObject({ post_count: 2, dm_count: 1, share_count: 1, chat_count: 1 });
    // The header's tabs: the same counts (approved DMs only), and no linked accounts outside a group.
    expect(await creatorTabCounts(db, 'patreon', 'p')).toEqual({ hasLinks: false, dmCount: 1, shareCount: 1 });
    expect(await creatorTabCounts(db, 'discord', 'srv')).toEqual({ hasLinks: false, dmCount: 0, shareCount: 0 });
  });

  it('reads link groups and logs a link change per member when a group changes', async () => {
    for (const [service, id, name] of [
      ['fanbox', '1', 'Zed'],
      ['patreon', '2', 'amy'],
      ['fanbox', '3', 'Amy'],
      ['fanbox', '4', 'alone'],
    ]) {
      await upsertCreator(db, { service, id, name, indexed: 0, updated: 0 });
    }
    expect(await hasLinkedCreators(db, 'fanbox', '1')).toBe(false);
    expect(await linkedCreators(db, 'fanbox', '1')).toEqual([]);
    await since();
    await upsertCreator(db, { service: 'fanbox', id: '1', name: 'Zed', relation_id: 7 });
    expect(await since()).toEqual([
      ['creator', 'upsert', 'fanbox', '1', null],
      ['link', 'upsert', 'fanbox', '1', null],
    ]);
    // Alone in its group: nothing linked.
    expect(await hasLinkedCreators(db, 'fanbox', '1')).toBe(false);
    await upsertCreator(db, { service: 'patreon', id: '2', name: 'amy', relation_id: 7, has_chats: true });
    await upsertCreator(db, { service: 'fanbox', id: '3', name: 'Amy', relation_id: 7 });
    await since();
    expect(await hasLinkedCreators(db, 'fanbox', '1')).toBe(true);
    expect(await hasLinkedCreators(db, 'fanbox', '4')).toBe(false);
    expect(await hasLinkedCreators(db, 'fanbox', 'missing')).toBe(false);
    expect((await creatorTabCounts(db, 'fanbox', '1')).hasLinks).toBe(true);
    expect((await creatorTabCounts(db, 'fanbox', '4')).hasLinks).toBe(false);
    expect(await linkedCreators(db, 'fanbox', '1')).toEqual([
      {
        id: '3',
        name: 'Amy',
        service: 'fanbox',
        indexed: '1970-01-01T00:00:00',
        updated: '1970-01-01T00:00:00',
        public_id: null,
        relation_id: 7,
        has_chats: false,
      },
      {
        id: '2',
        name: 'amy',
        service: 'patreon',
        indexed: '1970-01-01T00:00:00',
        updated: '1970-01-01T00:00:00',
        public_id: null,
        relation_id: 7,
        has_chats: true,
      },
    ]);
    // Leaving the group logs the old group and the new one (none).
    await upsertCreator(db, { service: 'fanbox', id: '3', name: 'Amy', relation_id: null });
    expect(await since()).toEqual([
      ['creator', 'upsert', 'fanbox', '3', null],
      ['link', 'upsert', 'fanbox', '1', null],
      ['link', 'upsert', 'patreon', '2', null],
    ]);
    await recordLinkGroupChanges(db, null);
    await recordLinkGroupChanges(db, 99);
    expect(await since()).toEqual([]);
  });

  it('touches updated only forwards, sets last_imported without a change row', async () => {
    await upsertCreator(db, { service: 'fanbox', id: '1', name: 'a', indexed: 0, updated: 100 });
    await since();
    expect(await touchCreatorUpdated(db, 'fanbox', '1', 50)).toBe(false);
    expect(await touchCreatorUpdated(db, 'fanbox', '1', 100)).toBe(false);
    expect(await touchCreatorUpdated(db, 'fanbox', 'missing', 500)).toBe(false);
    expect(await since()).toEqual([]);
    expect(await touchCreatorUpdated(db, 'fanbox', '1', 150)).toBe(true);
    expect((await getCreator(db, 'fanbox', '1'))?.updated).toBe(150);
    expect(await since()).toEqual([['creator', 'upsert', 'fanbox', '1', null]]);
    expect(await setCreatorLastImported(db, 'fanbox', '1', 777)).toBe(true);
    expect(await setCreatorLastImported(db, 'fanbox', 'missing', 777)).toBe(false);
    expect((await getCreator(db, 'fanbox', '1'))?.last_imported).toBe(777);
    expect(await since()).toEqual([]);
  });

  it('iterates keys in batches and picks random creators in key order', async () => {
    expect(await randomCreator(db)).toBeUndefined();
    const ids = ['b', 'a', 'B', 'é', 'c'];
    for (const id of ids) await upsertCreator(db, { service: 'fanbox', id, name: id, indexed: 0, updated: 0 });
    await upsertCreator(db, { service: 'afdian', id: 'z', name: 'z', indexed: 0, updated: 0 });
    const order = ['afdian/z', 'fanbox/B', 'fanbox/a', 'fanbox/b', 'fanbox/c', 'fanbox/é'];
    for (const batch of [1, 2, 6, 100]) {
      const keys: string[] = [];
      for await (const key of iterateCreatorKeys(db, batch)) keys.push(`${key.service}/${key.id}`);
      expect(keys).toEqual(order);
    }
    expect(await randomCreator(db, () => 0)).toEqual({ service: 'afdian', id: 'z' });
    expect(await randomCreator(db, () => 0.5)).toEqual({ service: 'fanbox', id: 'b' });
    expect(await randomCreator(db, () => 0.9999)).toEqual({ service: 'fanbox', id: 'é' });
  });

  it('turns epoch dates into ISO ones', () => {
    expect(withIsoDates({ id: '1', name: 'n', service: 's', indexed: 0, updated: 60, public_id: null, relation_id: null })).toEqual({
      id: '1',
      name: 'n',
      service: 's',
      indexed: '1970-01-01T00:00:00',
      updated: '1970-01-01T00:01:00',
      public_id: null,
      relation_id: null,
    });
  });
});
