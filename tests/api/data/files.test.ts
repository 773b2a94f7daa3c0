/** File records and hash search on both engines, with the 'file' change rows they write. */
import { beforeEach, describe, expect, it } from 'vitest';
import { countFiles, getFileByHash, registerFile, searchHash } from '@api/data/files.ts';
import { setPostFiles } from '@api/data/post-files.ts';
import { upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe.each(ENGINES)('files on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('registers a file once, normalizing hash and extension, and logs the new record only', async () => {
    expect(await countFiles(db)).toBe(0);
    const file = await registerFile(db, { hash: A.toUpperCase(), size: 2 ** 40, ext: 'PNG', added: '2030-01-01T00:00:00' });
    expect(file).toEqual({
      id: file.id,
      hash: A,
      mime: 'image/png',
      size: 2 ** 40,
      ext: '.png',
      added: '2030-01-01T00:00:00',
      path: `/aa/aa/${A}.png`,
    });
    expect(await registerFile(db, { hash: A, size: 1, ext: '.jpg', mime: 'image/jpeg' })).toEqual(file);
    const bare = await registerFile(db, { hash: B, size: 0, ext: '', mime: null });
    expect(bare).toMatchObject({ hash: B, ext: '', size: 0, path: `/bb/bb/${B}` });
    expect(bare.id).toBeGreaterThan(file.id);
    expect(bare.added).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(await countFiles(db)).toBe(2);
    expect(await getFileByHash(db, A.toUpperCase())).toEqual(file);
    expect(await getFileByHash(db, 'c'.repeat(64))).toBeUndefined();
    expect((await readChangesSince(db, 0)).map((c) => [c.kind, c.action, c.ref])).toEqual([
      ['file', 'upsert', A],
      ['file', 'upsert', B],
    ]);
  });

  it('searches a hash: the record with the posts and Discord messages that carry it', async () => {
    expect(await searchHash(db, A)).toBeUndefined();
    await db.k.insertInto('creators').values({ service: 'fanbox', id: '1', name: 'c', indexed: 0, updated: 0 }).execute();
    await db.k
      .insertInto('posts')
      .values({ service: 'fanbox', user: '1', id: 'p1', seq: 1, title: 'ポスト', added: '2030-01-01T00:00:00' })
      .execute();
    await setPostFiles(db, 1, { path: `/aa/aa/${A}.png` }, [], { replace: false });
    const unrecorded = await searchHash(db, A.toUpperCase());
    expect(unrecorded).toMatchObject({ id: 0, hash: A, mime: null, ext: '', size: 0, added: '', discord_posts: [] });
    expect(unrecorded?.posts.map((p) => [p.id, p.title])).toEqual([['p1', 'ポスト']]);
    const file = await registerFile(db, { hash: A, size: 3, ext: '.png', added: '2030-01-02T00:00:00' });
    expect(await searchHash(db, A)).toMatchObject({ id: file.id, mime: 'image/png', ext: '.png', size: 3, added: '2030-01-02T00:00:00' });
    expect((await searchHash(db, A, { offset: 1 }))?.posts).toEqual([]);
    await registerFile(db, { hash: B, size: 3, ext: '.gif' });
    expect(await searchHash(db, B)).toMatchObject({ hash: B, ext: '.gif', posts: [], discord_posts: [] });
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'général' });
    await upsertDiscordMessages(db, [
      {
        id: 'm1',
        server_id: 's1',
        channel_id: 'c1',
        author: { id: 'u', username: 'u' },
        published: '2030-01-03T00:00:00',
        attachments: [{ path: `/cc/cc/${C}.png` }],
      },
    ]);
    expect(await searchHash(db, C)).toEqual({
      id: 0,
      hash: C,
      mime: null,
      ext: '',
      size: 0,
      added: '',
      posts: [],
      discord_posts: [
        {
          id: 'm1',
          server: 's1',
          server_name: null,
          channel: 'c1',
          channel_name: 'général',
          published: '2030-01-03T00:00:00',
          author: { id: 'u', username: 'u' },
          content: '',
        },
      ],
    });
  });
});
