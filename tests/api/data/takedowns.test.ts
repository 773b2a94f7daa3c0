/** Takedown rows on both engines: the same counts, file uses and change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  emptyCounts,
  fileRecorded,
  hashesInText,
  postTitle,
  releaseFiles,
  removeCreatorRows,
  removePostRows,
  type FileUses,
} from '@api/data/takedowns.ts';
import { readChangesSince } from '@api/data/changes.ts';
import { registerFile } from '@api/data/files.ts';
import { inTransaction, type Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();
const hash = (c: string) => c.repeat(64);
const pathOf = (h: string, ext = 'png') => `${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.${ext}`;
const [DM, DM_FILE, NEWS, CARD, SHARE, OTHER_SHARE, CHAT, DISCORD, DISCORD_PATH] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map(hash);

/** The uses as sorted [hash, sorted extensions]. */
const usesOf = (uses: FileUses) => [...uses].map(([h, exts]) => [h, [...exts].sort()]).sort();

describe('hashesInText and emptyCounts', () => {
  it('finds content-addressed paths only where the directories match the hash', () => {
    const uses: FileUses = new Map();
    hashesInText(`<img src="/data/${pathOf(DM)}"> /${pathOf(NEWS, 'jpeg')} f${pathOf(CARD)} 12/34/${CARD}`, uses);
    hashesInText(null, uses);
    hashesInText(`/data/${DM.slice(0, 2)}/${DM.slice(2, 4)}/${DM}`, uses);
    expect(usesOf(uses)).toEqual([
      [DM, ['.png']],
      [NEWS, ['.jpeg']],
    ]);
    expect(Object.values(emptyCounts()).every((n) => n === 0)).toBe(true);
  });
});

describe.each(ENGINES)('takedowns on %s', (engine) => {
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

  /** fanbox/1 with no posts but a DM, an announcement, a fancard, shares, a community, favourites and a link request. */
  async function seedCreator(): Promise<{ own: number; shared: number }> {
    const account = await addAccount(db, 'fan');
    await addCreator(db, 'fanbox', '1', 'ひとり');
    await addCreator(db, 'fanbox', '2');
    await db.k
      .insertInto('dms')
      .values([
        {
          service: 'fanbox',
          user: '1',
          hash: 'dm1',
          content: `see /data/${pathOf(DM)}`,
          file: `/${pathOf(DM_FILE, 'zip')}`,
          added: 'x',
          status: 'approved',
        },
        { service: 'fanbox', user: '1', hash: 'dm2', content: 'pending', added: 'x', status: 'pending' },
      ])
      .execute();
    await db.k
      .insertInto('announcements')
      .values({ service: 'fanbox', user_id: '1', hash: 'n1', content: `<img src="/data/${pathOf(NEWS)}">`, added: 'x' })
      .execute();
    const card = await registerFile(db, { hash: CARD, size: 1, ext: '.gif' });
    await db.k.insertInto('fancards').values({ service: 'fanbox', user_id: '1', file_id: card.id, added: 'x' }).execute();
    for (const h of [SHARE, OTHER_SHARE]) await registerFile(db, { hash: h, size: 1, ext: '.png' });
    const own = await db.k.insertInto('shares').values({ name: 'own', added: 'x' }).returning('id').executeTakeFirstOrThrow();
    const shared = await db.k.insertInto('shares').values({ name: 'shared', added: 'x' }).returning('id').executeTakeFirstOrThrow();
    await db.k
      .insertInto('share_files')
      .values([
        { share_id: own.id, idx: 0, filename: 'a.png', hash: SHARE },
        { share_id: own.id, idx: 1, filename: 'b', hash: null },
        { share_id: shared.id, idx: 0, filename: 'c.png', hash: OTHER_SHARE },
      ])
      .execute();
    await db.k
      .insertInto('share_creators')
      .values([
        { share_id: own.id, service: 'fanbox', creator_id: '1' },
        { share_id: shared.id, service: 'fanbox', creator_id: '1' },
        { share_id: shared.id, service: 'fanbox', creator_id: '2' },
      ])
      .execute();
    await db.k.insertInto('community_channels').values({ channel_id: 'ch1', service: 'fanbox', creator_id: '1', name: 'chat' }).execute();
    await db.k
      .insertInto('community_messages')
      .values([
        { message_id: 'm1', channel_id: 'ch1', created_at: 'x', added: 'x', attachments: JSON.stringify([{ path: `/${pathOf(CHAT)}` }]) },
        { message_id: 'm2', channel_id: 'ch1', created_at: 'x', added: 'x', attachments: '[]' },
      ])
      .execute();
    await db.k.insertInto('favorite_creators').values({ account_id: account, service: 'fanbox', creator_id: '1', faved_seq: 1 }).execute();
    await db.k
      .insertInto('link_requests')
      .values([
        { from_service: 'fanbox', from_id: '2', to_service: 'fanbox', to_id: '1' },
        { from_service: 'fanbox', from_id: '1', to_service: 'fanbox', to_id: '2' },
      ])
      .execute();
    return { own: own.id, shared: shared.id };
  }

  it('answers undefined for a missing creator or post and reads post titles and file records', async () => {
    expect(await removeCreatorRows(db, 'fanbox', 'missing')).toBeUndefined();
    expect(await removePostRows(db, 'fanbox', '1', 'missing')).toBeUndefined();
    await addCreator(db, 'fanbox', '1');
    await addPost(db, { service: 'fanbox', user: '1', id: 'p1', seq: 1, title: 'タイトル ✓' });
    expect(await postTitle(db, 'fanbox', '1', 'p1')).toBe('タイトル ✓');
    expect(await postTitle(db, 'fanbox', '1', 'p2')).toBeUndefined();
    expect(await postTitle(db, 'fanbox', '2', 'p1')).toBeUndefined();
    expect(await fileRecorded(db, DM)).toBe(false);
    await registerFile(db, { hash: DM, size: 1, ext: '.png' });
    expect(await fileRecorded(db, DM)).toBe(true);
    expect(await since()).toEqual([['file', 'upsert', null, null, DM]]);
  });

  it('removes a creator without posts: its rows, the counts, the files they used and the change rows', async () => {
    const { own, shared } = await seedCreator();
    await since();
    const result = await inTransaction(db, (db) => removeCreatorRows(db, 'fanbox', '1'));
    expect(result?.postIds).toEqual([]);
    expect(result?.counts).toEqual({
      ...emptyCounts(),
      creators: 1,
      favorite_creators: 1,
      dms: 2,
      announcements: 1,
      fancards: 1,
      link_requests: 2,
      shares: 1,
      share_links: 1,
      community_channels: 1,
      community_messages: 2,
    });
    expect(usesOf(result?.uses ?? new Map())).toEqual(
      [
        [DM, ['.png']],
        [DM_FILE, ['.zip']],
        [NEWS, ['.png']],
        [CARD, ['.gif']],
        [SHARE, []],
        [CHAT, ['.png']],
      ].sort(),
    );
    expect(await since()).toEqual([
      ['share', 'delete', 'fanbox', '1', String(own)],
      ['share', 'upsert', 'fanbox', '2', String(shared)],
      ['dm', 'delete', 'fanbox', '1', 'dm1'],
      ['community', 'delete', 'fanbox', '1', 'ch1'],
      ['creator', 'delete', 'fanbox', '1', null],
    ]);
    for (const table of [
      'creators',
      'dms',
      'announcements',
      'fancards',
      'community_channels',
      'community_messages',
      'link_requests',
    ] as const) {
      const left = await db.k
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect([table, Number(left.n)]).toEqual([table, table === 'creators' ? 1 : 0]);
    }
    expect((await db.k.selectFrom('shares').select('id').execute()).map((s) => s.id)).toEqual([shared]);
    expect(await db.k.selectFrom('share_creators').select(['share_id', 'creator_id']).execute()).toEqual([
      { share_id: shared, creator_id: '2' },
    ]);
  });

  it("removes a Discord server's channels, messages and attachments", async () => {
    await addCreator(db, 'discord', '900');
    await db.k
      .insertInto('discord_channels')
      .values([
        { id: 'c1', server_id: '900', name: 'one' },
        { id: 'c2', server_id: '900', name: 'two' },
        { id: 'c3', server_id: '901', name: 'elsewhere' },
      ])
      .execute();
    const message = (id: string, channel: string) => ({
      id,
      server_id: '900',
      channel_id: channel,
      author: '{}',
      published: 'x',
      added: 'x',
    });
    await db.k
      .insertInto('discord_messages')
      .values([message('m1', 'c1'), message('m2', 'c2'), message('m3', 'c3')])
      .execute();
    await db.k
      .insertInto('discord_attachments')
      .values([
        { message_id: 'm1', idx: 0, path: `/${pathOf(DISCORD)}`, hash: DISCORD },
        { message_id: 'm2', idx: 0, path: `https://cdn.example/${pathOf(DISCORD_PATH, 'webp')}`, hash: null },
        { message_id: 'm3', idx: 0, path: `/${pathOf(DM)}`, hash: DM },
      ])
      .execute();
    await since();
    const result = await inTransaction(db, (db) => removeCreatorRows(db, 'discord', '900'));
    expect(result?.counts).toEqual({ ...emptyCounts(), creators: 1, discord_channels: 2, discord_messages: 2, discord_attachments: 2 });
    expect(usesOf(result?.uses ?? new Map())).toEqual([
      [DISCORD, ['.png']],
      [DISCORD_PATH, ['.webp']],
    ]);
    expect(await since()).toEqual([
      ['discord', 'delete', 'discord', '900', 'c1'],
      ['discord', 'delete', 'discord', '900', 'c2'],
      ['discord', 'delete', 'discord', '900', null],
      ['creator', 'delete', 'discord', '900', null],
    ]);
    expect(await db.k.selectFrom('discord_attachments').select('message_id').execute()).toEqual([{ message_id: 'm3' }]);
  });

  it('removes one post, then a creator with posts, counting their rows and files', async () => {
    const account = await addAccount(db, 'fan');
    await addCreator(db, 'fanbox', '1');
    await registerFile(db, { hash: DM, size: 1, ext: '.png' });
    await addPost(db, { service: 'fanbox', user: '1', id: 'p1', seq: 1, content: `<img src="/data/${pathOf(NEWS)}">` });
    await addPost(db, { service: 'fanbox', user: '1', id: 'p2', seq: 2 });
    await db.k.insertInto('post_files').values({ post_seq: 1, kind: 'file', idx: 0, hash: DM }).execute();
    await db.k.insertInto('post_tags').values({ service: 'fanbox', user: '1', post_id: 'p1', tag: 'タグ', post_seq: 1 }).execute();
    await db.k
      .insertInto('post_revisions')
      .values({ service: 'fanbox', user: '1', post_id: 'p2', data: `{"file":"/${pathOf(CARD, 'gif')}"}`, added: 'x' })
      .execute();
    await db.k
      .insertInto('favorite_posts')
      .values({ account_id: account, service: 'fanbox', user: '1', post_id: 'p1', faved_seq: 1 })
      .execute();
    const one = await inTransaction(db, (db) => removePostRows(db, 'fanbox', '1', 'p1'));
    expect(one?.counts).toEqual({ ...emptyCounts(), posts: 1, search_rows: 1, post_files: 1, tags: 1, favorite_posts: 1 });
    expect(usesOf(one?.uses ?? new Map())).toEqual([
      [DM, []],
      [NEWS, ['.png']],
    ]);
    expect(await postTitle(db, 'fanbox', '1', 'p1')).toBeUndefined();
    const all = await inTransaction(db, (db) => removeCreatorRows(db, 'fanbox', '1'));
    expect(all?.postIds).toEqual(['p2']);
    expect(all?.counts).toEqual({ ...emptyCounts(), creators: 1, posts: 1, search_rows: 1, revisions: 1 });
    expect(usesOf(all?.uses ?? new Map())).toEqual([[CARD, ['.gif']]]);
  });

  it('releases the files nothing else uses, inside a transaction or not, and keeps the others', async () => {
    const [LINKED, NAMED, REVISED, DM_NAMED, FREE, UNRECORDED, CHAT_NAMED, DISCORD_NAMED] = ['a', 'b', 'c', 'd', 'e', 'f', '0', '1'].map(
      hash,
    );
    for (const h of [LINKED, NAMED, REVISED, DM_NAMED, FREE, CHAT_NAMED, DISCORD_NAMED])
      await registerFile(db, { hash: h, size: 1, ext: '.png' });
    await db.k.insertInto('archive_files').values({ file_hash: FREE }).execute();
    await addCreator(db, 'fanbox', '1');
    await addPost(db, { service: 'fanbox', user: '1', id: 'p1', seq: 1, content: `<img src="/data/${pathOf(NAMED)}">` });
    await db.k.insertInto('post_files').values({ post_seq: 1, kind: 'file', idx: 0, hash: LINKED }).execute();
    await db.k
      .insertInto('post_revisions')
      .values({ service: 'fanbox', user: '1', post_id: 'p1', data: `{"file":"/${pathOf(REVISED)}"}`, added: 'x' })
      .execute();
    await db.k
      .insertInto('dms')
      .values({ service: 'fanbox', user: '1', hash: 'd', file: `/${pathOf(DM_NAMED)}`, added: 'x' })
      .execute();
    await db.k.insertInto('community_channels').values({ channel_id: 'ch', service: 'fanbox', creator_id: '1', name: 'c' }).execute();
    await db.k
      .insertInto('community_messages')
      .values({ message_id: 'm', channel_id: 'ch', created_at: 'x', added: 'x', embeds: `["/${pathOf(CHAT_NAMED)}"]` })
      .execute();
    await db.k.insertInto('discord_channels').values({ id: 'c', server_id: '9', name: 'c' }).execute();
    await db.k
      .insertInto('discord_messages')
      .values({ id: 'm', server_id: '9', channel_id: 'c', author: '{}', published: 'x', added: 'x' })
      .execute();
    await db.k
      .insertInto('discord_attachments')
      .values({ message_id: 'm', idx: 0, path: `/${pathOf(DISCORD_NAMED)}`, hash: null })
      .execute();
    await since();

    const uses: FileUses = new Map([LINKED, NAMED, REVISED, DM_NAMED, CHAT_NAMED, DISCORD_NAMED].map((h) => [h, new Set<string>()]));
    expect(await inTransaction(db, (db) => releaseFiles(db, uses))).toEqual({ removed: [], kept: 6 });
    expect(await releaseFiles(db, new Map())).toEqual({ removed: [], kept: 0 });
    expect(await since()).toEqual([]);

    const gone: FileUses = new Map([
      [FREE, new Set(['.jpg'])],
      [UNRECORDED, new Set(['.webm'])],
      [NAMED, new Set<string>()],
    ]);
    expect(await inTransaction(db, (db) => releaseFiles(db, gone))).toEqual({
      removed: [
        { hash: FREE, exts: ['.jpg', '.png'] },
        { hash: UNRECORDED, exts: ['.webm'] },
      ],
      kept: 1,
    });
    expect(await since()).toEqual([['file', 'delete', null, null, FREE]]);
    expect(await fileRecorded(db, FREE)).toBe(false);
    expect(await db.k.selectFrom('archive_files').select('file_hash').execute()).toEqual([]);
    // Outside a transaction (PostgreSQL reads in one go instead of through a cursor).
    await db.k.deleteFrom('posts').execute();
    expect(await releaseFiles(db, new Map([[NAMED, new Set<string>()]]))).toEqual({ removed: [{ hash: NAMED, exts: ['.png'] }], kept: 0 });
  });
});
