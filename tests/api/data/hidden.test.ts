/** Hidden creators and tags on the store: the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countHidden,
  hiddenList,
  hideCreator,
  hideTag,
  listHiddenCreators,
  listHiddenTags,
  randomVisibleCreator,
  randomVisiblePost,
  unhideCreator,
  unhideTag,
} from '@api/data/hidden.ts';
import type { Store } from '@api/data/store.ts';
import { setPostTags } from '@api/data/tags.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

/** A "random" source that always answers `value`. */
const fixed = (value: number) => () => value;

describe.each(ENGINES)('hidden creators and tags on %s', (engine) => {
  let db: Store;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    db = await engines.fresh(engine);
    alice = await addAccount(db, 'alice');
    bob = await addAccount(db, 'bob');
  });

  it('hides idempotently (the first date stays), unhides, counts and lists newest first', async () => {
    expect(await countHidden(db, alice)).toEqual({ creators: 0, tags: 0 });
    expect(await listHiddenCreators(db, alice)).toEqual([]);
    expect(await listHiddenTags(db, alice)).toEqual([]);
    expect(await hiddenList(db, alice)).toEqual({ creators: [], tags: [] });

    await addCreator(db, 'patreon', 'c1', 'Ünïcode ☃');
    await hideCreator(db, alice, 'patreon', 'c1', '2030-01-01T00:00:00');
    await hideCreator(db, alice, 'patreon', 'c1', '2030-01-09T00:00:00');
    await hideCreator(db, alice, 'fanbox', 'gone', '2030-01-02T00:00:00');
    await hideCreator(db, alice, 'fanbox', 'also-gone', '2030-01-02T00:00:00');
    await hideCreator(db, bob, 'patreon', 'c1', '2030-01-05T00:00:00');
    await hideTag(db, alice, 'b-tag', '2030-01-03T00:00:00');
    await hideTag(db, alice, 'a-tag', '2030-01-03T00:00:00');
    await hideTag(db, alice, 'ß', '2030-01-04T00:00:00');
    await hideTag(db, alice, 'ß', '2030-01-08T00:00:00');

    expect(await countHidden(db, alice)).toEqual({ creators: 3, tags: 3 });
    expect(await countHidden(db, bob)).toEqual({ creators: 1, tags: 0 });
    expect(await listHiddenCreators(db, alice)).toEqual([
      { service: 'fanbox', id: 'also-gone', name: null, added: '2030-01-02T00:00:00' },
      { service: 'fanbox', id: 'gone', name: null, added: '2030-01-02T00:00:00' },
      { service: 'patreon', id: 'c1', name: 'Ünïcode ☃', added: '2030-01-01T00:00:00' },
    ]);
    expect(await listHiddenTags(db, alice)).toEqual([
      { tag: 'ß', added: '2030-01-04T00:00:00' },
      { tag: 'a-tag', added: '2030-01-03T00:00:00' },
      { tag: 'b-tag', added: '2030-01-03T00:00:00' },
    ]);
    const list = await hiddenList(db, alice);
    expect(list.creators.sort()).toEqual(['fanbox:also-gone', 'fanbox:gone', 'patreon:c1']);
    expect(list.tags.sort()).toEqual(['a-tag', 'b-tag', 'ß']);

    await unhideCreator(db, alice, 'patreon', 'c1');
    await unhideCreator(db, alice, 'patreon', 'never');
    await unhideTag(db, alice, 'ß');
    await unhideTag(db, alice, 'never');
    expect(await countHidden(db, alice)).toEqual({ creators: 2, tags: 2 });
    expect(await countHidden(db, bob)).toEqual({ creators: 1, tags: 0 });
  });

  it('picks a random visible post from the random seq on, wrapping round, skipping hidden creators and tags', async () => {
    expect(await randomVisiblePost(db, alice, fixed(0.5))).toBeUndefined();
    await addCreator(db, 'patreon', 'c1');
    await addCreator(db, 'patreon', 'c2');
    await addPost(db, { service: 'patreon', user: 'c1', id: 'p1', seq: 10 });
    await addPost(db, { service: 'patreon', user: 'c2', id: 'p2', seq: 20 });
    await addPost(db, { service: 'patreon', user: 'c1', id: 'p3', seq: 30 });
    await setPostTags(db, { service: 'patreon', user: 'c1', id: 'p3' }, ['spoiler'], null, 30, { replace: false });

    expect(await randomVisiblePost(db, alice, fixed(0))).toEqual({ service: 'patreon', user: 'c1', id: 'p1' });
    expect(await randomVisiblePost(db, alice, fixed(0.5))).toEqual({ service: 'patreon', user: 'c2', id: 'p2' });
    expect(await randomVisiblePost(db, alice, fixed(0.99))).toEqual({ service: 'patreon', user: 'c1', id: 'p3' });

    await hideTag(db, alice, 'spoiler');
    // From seq 30 on nothing is visible: the nearest visible post before it.
    expect(await randomVisiblePost(db, alice, fixed(0.99))).toEqual({ service: 'patreon', user: 'c2', id: 'p2' });
    await hideCreator(db, alice, 'patreon', 'c2');
    expect(await randomVisiblePost(db, alice, fixed(0.99))).toEqual({ service: 'patreon', user: 'c1', id: 'p1' });
    expect(await randomVisiblePost(db, bob, fixed(0.99))).toEqual({ service: 'patreon', user: 'c1', id: 'p3' });
    await hideCreator(db, alice, 'patreon', 'c1');
    expect(await randomVisiblePost(db, alice, fixed(0))).toBeUndefined();
  });

  it('picks a random visible creator in (service, id) order', async () => {
    expect(await randomVisibleCreator(db, alice, fixed(0))).toBeUndefined();
    await addCreator(db, 'patreon', 'b');
    await addCreator(db, 'patreon', 'B');
    await addCreator(db, 'fanbox', 'z');
    // Binary order on both engines: 'B' < 'b'.
    expect(await randomVisibleCreator(db, alice, fixed(0))).toEqual({ service: 'fanbox', id: 'z' });
    expect(await randomVisibleCreator(db, alice, fixed(0.4))).toEqual({ service: 'patreon', id: 'B' });
    expect(await randomVisibleCreator(db, alice, fixed(0.99))).toEqual({ service: 'patreon', id: 'b' });
    await hideCreator(db, alice, 'fanbox', 'z');
    await hideCreator(db, alice, 'patreon', 'b');
    expect(await randomVisibleCreator(db, alice, fixed(0.99))).toEqual({ service: 'patreon', id: 'B' });
    await hideCreator(db, alice, 'patreon', 'B');
    expect(await randomVisibleCreator(db, alice, fixed(0.5))).toBeUndefined();
    expect(await randomVisibleCreator(db, bob, fixed(0))).toEqual({ service: 'fanbox', id: 'z' });
  });
});
