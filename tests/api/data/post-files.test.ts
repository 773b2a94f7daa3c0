/** A post's file links and the posts carrying a file (hash search), on both engines. */
import { beforeEach, describe, expect, it } from 'vitest';
import { listPostsWithFile, setPostFiles } from '@api/data/post-files.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe.each(ENGINES)('post files on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await db.k.insertInto('creators').values({ service: 'fanbox', id: '1', name: 'c', indexed: 0, updated: 0 }).execute();
    for (const seq of [1, 2, 3]) {
      await db.k
        .insertInto('posts')
        .values({
          service: 'fanbox',
          user: '1',
          id: `p${seq}`,
          seq,
          title: `タイトル ${seq}`,
          content: seq === 1 ? '<p>Hello&amp;  <b>wörld</b></p>' : '',
          added: '2030-01-01T00:00:00',
          tags: '["a","ü"]',
        })
        .execute();
    }
  });

  async function links(seq: number): Promise<[string, number, string][]> {
    const rows = await db.k
      .selectFrom('post_files')
      .select(['kind', 'idx', 'hash'])
      .where('post_seq', '=', seq)
      .orderBy('kind')
      .orderBy('idx')
      .execute();
    return rows.map((r) => [r.kind, r.idx, r.hash]);
  }

  it('links the file and the attachments whose hash is known, and replaces them', async () => {
    await setPostFiles(
      db,
      1,
      { path: `/aa/aa/${A}.png` },
      [{ path: '/not/addressed.png' }, { path: 'x', hash: B.toUpperCase() }, { path: `/cc/cc/${C}` }],
      { replace: false },
    );
    expect(await links(1)).toEqual([
      ['attachment', 1, B],
      ['attachment', 2, C],
      ['file', 0, A],
    ]);
    await setPostFiles(db, 1, null, [{ path: `/bb/bb/${B}.jpg` }], { replace: true });
    expect(await links(1)).toEqual([['attachment', 0, B]]);
    await setPostFiles(db, 1, { path: '' }, [], { replace: true });
    expect(await links(1)).toEqual([]);
    const many = Array.from({ length: 1201 }, (_, i) => ({ path: `/aa/aa/${A}.png`, hash: i % 2 ? B : C }));
    await setPostFiles(db, 2, null, many, { replace: false });
    expect((await links(2)).length).toBe(1201);
  });

  it('lists the posts carrying a file once each, newest archived first, by pages', async () => {
    await setPostFiles(db, 1, { path: `/aa/aa/${A}.png` }, [{ path: `/aa/aa/${A}.png` }], { replace: false });
    await setPostFiles(db, 3, null, [{ path: `/aa/aa/${A}.png` }], { replace: false });
    await setPostFiles(db, 2, { path: `/bb/bb/${B}.png` }, [], { replace: false });
    expect((await listPostsWithFile(db, A.toUpperCase())).map((p) => p.id)).toEqual(['p3', 'p1']);
    expect((await listPostsWithFile(db, A, 1, 1)).map((p) => p.id)).toEqual(['p1']);
    expect((await listPostsWithFile(db, A, 0, 1)).map((p) => p.id)).toEqual(['p3']);
    expect(await listPostsWithFile(db, A, 2)).toEqual([]);
    expect(await listPostsWithFile(db, C)).toEqual([]);
    const [summary] = await listPostsWithFile(db, A, 1);
    expect(summary).toEqual({
      id: 'p1',
      user: '1',
      service: 'fanbox',
      title: 'タイトル 1',
      substring: 'Hello& wörld',
      published: null,
      added: '2030-01-01T00:00:00',
      edited: null,
      tags: ['a', 'ü'],
      file: {},
      attachments: [],
      poll: null,
      incomplete_rewards: null,
      embed: {},
      shared_file: false,
    });
  });
});
