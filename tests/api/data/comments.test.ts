/** Comments on both engines: insert, update with a revision, unchanged re-writes, order and change-log rows. */
import { beforeEach, describe, expect, it } from 'vitest';
import { readChangesSince } from '@api/data/changes.ts';
import { listComments, upsertComment, type CommentInput } from '@api/data/comments.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();

const comment = (id: string, extra: Partial<CommentInput> = {}): CommentInput => ({
  service: 'patreon',
  user: 'c1',
  post_id: 'p1',
  id,
  commenter: 'u1',
  content: `comment ${id}`,
  ...extra,
});

describe.each(ENGINES)('comments on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await db.k.insertInto('creators').values({ service: 'patreon', id: 'c1', name: 'One', indexed: 1, updated: 1 }).execute();
    await db.k
      .insertInto('posts')
      .values([
        { service: 'patreon', user: 'c1', id: 'p1', seq: 1, published: null, added: '2030-01-01' },
        { service: 'patreon', user: 'c1', id: 'p2', seq: 2, published: null, added: '2030-01-01' },
      ])
      .execute();
  });

  it('lists nothing for a post without comments or a missing post', async () => {
    expect(await listComments(db, 'patreon', 'c1', 'p1')).toEqual([]);
    expect(await listComments(db, 'patreon', 'c1', 'nope')).toEqual([]);
  });

  it('inserts, keeps the old content as a revision on change, ignores an identical re-write, logs writes only', async () => {
    expect(
      await upsertComment(
        db,
        comment('1', { content: 'first ✨', commenter_name: 'Ünïcode', published: '2030-01-02', added: '2030-01-03' }),
      ),
    ).toBe('inserted');
    expect(await upsertComment(db, comment('1', { content: 'first ✨', published: '2030-01-02' }))).toBe('unchanged');
    expect(
      await upsertComment(db, comment('1', { content: 'second', parent_id: '0', published: '2030-01-04', added: '2099-01-01' }), {
        now: '2030-02-01T00:00:00',
      }),
    ).toBe('updated');
    expect(await upsertComment(db, comment('1', { content: 'third', published: '2030-01-04' }), { now: '2030-03-01T00:00:00' })).toBe(
      'updated',
    );
    const [row] = await listComments(db, 'patreon', 'c1', 'p1');
    expect(row).toEqual({
      id: '1',
      parent_id: null,
      commenter: 'u1',
      commenter_name: null,
      content: 'third',
      published: '2030-01-04',
      added: '2030-01-03',
      revisions: [
        { id: expect.any(Number), content: 'first ✨', added: '2030-02-01T00:00:00' },
        { id: expect.any(Number), content: 'second', added: '2030-03-01T00:00:00' },
      ],
    });
    expect(row.revisions[1].id).toBeGreaterThan(row.revisions[0].id);
    const changes = await readChangesSince(db, 0);
    expect(changes.map((c) => [c.kind, c.action, c.service, c.creator_id, c.post_id, c.ref])).toEqual(
      Array(3).fill(['comment', 'upsert', 'patreon', 'c1', 'p1', null]),
    );
  });

  it('orders oldest first, undated first, ties by id in binary order, and keeps posts apart', async () => {
    await upsertComment(db, comment('b', { published: '2030-01-01' }));
    await upsertComment(db, comment('a', { published: '2030-01-01' }));
    await upsertComment(db, comment('Z', { published: null }));
    await upsertComment(db, comment('c', { published: null }));
    await upsertComment(db, comment('0', { published: '2029-12-31' }));
    await upsertComment(db, comment('other', { post_id: 'p2', published: '2000-01-01' }));
    expect((await listComments(db, 'patreon', 'c1', 'p1')).map((c) => c.id)).toEqual(['Z', 'c', '0', 'a', 'b']);
    expect((await listComments(db, 'patreon', 'c1', 'p2')).map((c) => [c.id, c.revisions])).toEqual([['other', []]]);
  });
});
