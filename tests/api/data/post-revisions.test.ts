/** Post revisions and the post page (post-revisions.ts, post-page.ts) give the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { flagPost } from '@api/data/flags.ts';
import { findRevision, getPostPage, getPostRevisionPage } from '@api/data/post-page.ts';
import {
  iterateRevisionKeys,
  listPostRevisions,
  listRevisionIds,
  revisionsWithNeighbours,
  storePostRevision,
} from '@api/data/post-revisions.ts';
import { getPost, upsertPost, type PostInput } from '@api/data/posts.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';

const engines = engineDatabases();
const HASH = 'c'.repeat(64);

describe.each(ENGINES)('post revisions and pages on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'fanbox', '1');
  });
  const put = (id: string, more: Partial<PostInput> = {}, now?: string) =>
    upsertPost(db, { service: 'fanbox', user: '1', id, published: `2020-01-0${id}T00:00:00`, ...more }, { now });

  it('answers empty and missing', async () => {
    expect(await listPostRevisions(db, 'fanbox', '1', '1')).toEqual([]);
    expect(await listRevisionIds(db, 'fanbox', '1', '1')).toEqual([]);
    expect(await getPostPage(db, 'fanbox', '1', '1')).toBeUndefined();
    expect(await getPostRevisionPage(db, 'fanbox', '1', '1', 1)).toBeUndefined();
    const keys = [];
    for await (const key of iterateRevisionKeys(db)) keys.push(key);
    expect(keys).toEqual([]);
    await put('1');
    expect(await getPostRevisionPage(db, 'fanbox', '1', '1', 99)).toBeUndefined();
  });

  it('keeps previous versions newest first with the current neighbours, and iterates them', async () => {
    await put('1');
    await put('2', { title: 'first ✓', content: '<p>一</p>' });
    await put('3');
    await put('2', { title: 'second', content: '<p>二</p>' }, '2031-01-01T00:00:00');
    await put('2', { title: 'third', content: '<p>三</p>' }, '2031-02-01T00:00:00');
    expect(await listRevisionIds(db, 'fanbox', '1', '2')).toEqual([2, 1]);
    const revisions = await listPostRevisions(db, 'fanbox', '1', '2');
    expect(revisions.map((rev) => [rev.revision_id, rev.title, rev.content, rev.added, rev.prev, rev.next])).toEqual([
      [2, 'second', '<p>二</p>', '2031-02-01T00:00:00', '3', '1'],
      [1, 'first ✓', '<p>一</p>', '2031-01-01T00:00:00', '3', '1'],
    ]);
    expect(await revisionsWithNeighbours(db, 'fanbox', '1', '2', { prev: 'p', next: null })).toMatchObject([
      { revision_id: 2, prev: 'p', next: null },
      { revision_id: 1, prev: 'p', next: null },
    ]);
    const keys = [];
    for await (const key of iterateRevisionKeys(db, 1)) keys.push(key);
    expect(keys).toEqual([
      { service: 'fanbox', user: '1', id: '2', revision_id: 1 },
      { service: 'fanbox', user: '1', id: '2', revision_id: 2 },
    ]);
    const post = await getPost(db, 'fanbox', '1', '3');
    expect(await storePostRevision(db, post!, '2032-01-01T00:00:00')).toBe(3);
    expect(await listRevisionIds(db, 'fanbox', '1', '3')).toEqual([3]);
  });

  it('builds the post page and a revision page', async () => {
    const file = { name: 'a.png', path: `/${HASH.slice(0, 2)}/${HASH.slice(2, 4)}/${HASH}.png` };
    await put('1', { title: 'old', file });
    await put('1', { title: 'new', file }, '2031-01-01T00:00:00');
    await flagPost(db, { service: 'fanbox', user: '1', post_id: '1', account_id: null, reason: 'other' });
    const page = await getPostPage(db, 'fanbox', '1', '1', 'http://files');
    expect(page?.post.title).toBe('new');
    expect(page?.props.flagged).toBe(true);
    expect(page?.props.revisions.map(([index, version]) => [index, version.title])).toEqual([
      [0, 'new'],
      [1, 'old'],
    ]);
    expect(page?.previews).toMatchObject([{ server: 'http://files', path: file.path }]);
    expect(findRevision(page!, 1)?.title).toBe('old');
    const revision = await getPostRevisionPage(db, 'fanbox', '1', '1', 1, 'http://files');
    expect([revision?.post.title, revision?.props.revisions.length]).toEqual(['old', 2]);
  });
});
