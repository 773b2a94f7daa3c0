/** The post page's one lookup gives the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { getPostPage, getPostPageUnlessListed } from '@api/data/post-page.ts';
import { upsertPost } from '@api/data/posts.ts';
import { upsertComment } from '@api/data/comments.ts';
import { flagPost } from '@api/data/flags.ts';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('the post page on %s', (engine) => {
  let db: Store;
  const put = (id: string, published: string, title = `t${id}`) => upsertPost(db, { service: 'fanbox', user: '1', id, title, published });
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'fanbox', '1');
    await put('a', '2020-01-01T00:00:00');
    await put('b', '2020-01-02T00:00:00');
    await put('c', '2020-01-03T00:00:00');
  });

  it('reads a plain post with its neighbours, no older versions and no comments', async () => {
    const { listed, page, hasComments } = await getPostPageUnlessListed(db, 'fanbox', '1', 'b', 'http://files');
    expect([listed, hasComments]).toEqual([false, false]);
    expect(page?.post).toMatchObject({ id: 'b', title: 'tb', prev: 'c', next: 'a' });
    expect(page?.props).toEqual({ flagged: false, revisions: [[0, page?.post]] });
    expect(await getPostPage(db, 'fanbox', '1', 'b', 'http://files')).toEqual(page);
  });

  it('says when a post has comments, older versions and a flag', async () => {
    await upsertComment(db, { service: 'fanbox', user: '1', post_id: 'b', id: 'c1', commenter: 'x', content: 'hi' });
    await put('b', '2020-01-02T00:00:00', 'renamed');
    await flagPost(db, { service: 'fanbox', user: '1', post_id: 'b', account_id: null, reason: 'x' });
    const { listed, page, hasComments } = await getPostPageUnlessListed(db, 'fanbox', '1', 'b');
    expect([listed, hasComments]).toEqual([false, true]);
    expect(page?.props.flagged).toBe(true);
    expect(page?.props.revisions.map(([index, version]) => [index, version.title, version.prev, version.next])).toEqual([
      [0, 'renamed', 'c', 'a'],
      [1, 'tb', 'c', 'a'],
    ]);
    // Another post of the same creator keeps its own answers.
    expect(await getPostPageUnlessListed(db, 'fanbox', '1', 'a')).toMatchObject({ listed: false, hasComments: false });
  });

  it('answers listed for a post removed by its own entry, with or without its row', async () => {
    await addDoNotPost(db, { service: 'fanbox', creator_id: '1', post_id: 'b', reason: 'owner request' });
    expect(await getPostPageUnlessListed(db, 'fanbox', '1', 'b')).toEqual({ listed: true, page: undefined, hasComments: false });
    await addDoNotPost(db, { service: 'fanbox', creator_id: '1', post_id: 'gone', reason: 'owner request' });
    expect(await getPostPageUnlessListed(db, 'fanbox', '1', 'gone')).toEqual({ listed: true, page: undefined, hasComments: false });
    // The API's answer is the row's, and the other posts are not listed.
    expect((await getPostPage(db, 'fanbox', '1', 'b'))?.post.id).toBe('b');
    expect((await getPostPageUnlessListed(db, 'fanbox', '1', 'a')).listed).toBe(false);
  });

  it("leaves the creator's own entry to the creator's lookup, and misses an unknown post", async () => {
    await addDoNotPost(db, { service: 'fanbox', creator_id: '1', reason: 'owner request' });
    expect((await getPostPageUnlessListed(db, 'fanbox', '1', 'a')).listed).toBe(false);
    expect(await getPostPageUnlessListed(db, 'fanbox', '1', 'missing')).toEqual({ listed: false, page: undefined, hasComments: false });
    expect(await getPostPage(db, 'fanbox', '1', 'missing')).toBeUndefined();
  });
});
