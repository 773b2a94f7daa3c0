/** DMs on both engines: the same answers and the same 'dm' change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countCreatorDms,
  countDms,
  hasPendingDms,
  listCreatorDms,
  listDms,
  listDmsForReview,
  reviewDms,
  upsertDm,
  type DmInput,
} from '@api/data/dms.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('dms on %s', (engine) => {
  let db: Store;
  let mark = 0;
  let account = 0;
  let other = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'patreon', 'p', 'Pさん');
    await addCreator(db, 'fanbox', 'f');
    account = await addAccount(db, 'importer');
    other = await addAccount(db, 'other');
    mark = 0;
  });

  /** The change rows since the previous call, as [kind, action, service, creator_id, ref]. */
  async function since(): Promise<(string | null)[][]> {
    const rows = await readChangesSince(db, mark);
    if (rows.length) mark = rows[rows.length - 1].id;
    return rows.map((c) => [c.kind, c.action, c.service, c.creator_id, c.ref]);
  }

  const dm = (hash: string, extra: Partial<DmInput> = {}): DmInput => ({
    service: 'patreon',
    user: 'p',
    hash,
    content: `message ${hash}`,
    added: `2030-01-01T00:00:0${hash.length}`,
    ...extra,
  });
  const hashes = (list: { hash: string }[]) => list.map((d) => d.hash);

  it('upserts: new DMs pend, statuses stick unless given, public ones log changes', async () => {
    await upsertDm(db, dm('a', { account_id: account, import_id: 'imp' }));
    expect(await since()).toEqual([]);
    expect(await hasPendingDms(db, account)).toBe(true);
    expect(await hasPendingDms(db, other)).toBe(false);
    expect(await listCreatorDms(db, 'patreon', 'p')).toEqual([]);
    await upsertDm(
      db,
      dm('a', { status: 'approved', content: 'édité ✓', embed: { url: 'https://x' }, file: { name: 'f.png', path: '/f.png' } }),
    );
    expect(await since()).toEqual([['dm', 'upsert', 'patreon', 'p', 'a']]);
    // A later import without account or import id keeps them.
    const stored = await db.k.selectFrom('dms').select(['status', 'account_id', 'import_id']).executeTakeFirstOrThrow();
    expect([stored.status, Number(stored.account_id), stored.import_id]).toEqual(['approved', account, 'imp']);
    await upsertDm(db, dm('a', { content: 'again' }));
    expect(await since()).toEqual([['dm', 'upsert', 'patreon', 'p', 'a']]);
    expect(await listCreatorDms(db, 'patreon', 'p')).toEqual([
      {
        hash: 'a',
        service: 'patreon',
        user: 'p',
        user_id: 'p',
        content: 'again',
        embed: {},
        file: {},
        published: null,
        added: '2030-01-01T00:00:01',
      },
    ]);
    // Unpublishing logs too (it leaves the public lists).
    await upsertDm(db, dm('a', { status: 'ignored' }));
    expect(await since()).toEqual([['dm', 'upsert', 'patreon', 'p', 'a']]);
    await upsertDm(db, dm('a', { status: 'pending' }));
    expect(await since()).toEqual([]);
    expect(await hasPendingDms(db, account)).toBe(true);
  });

  it('keeps embed and file JSON', async () => {
    await upsertDm(db, dm('j', { status: 'approved', embed: { title: '埋め込み', n: 1 }, file: { name: null, path: '/a/b.png' } }));
    const [one] = await listCreatorDms(db, 'patreon', 'p');
    expect(one.embed).toEqual({ title: '埋め込み', n: 1 });
    expect(one.file).toEqual({ name: null, path: '/a/b.png' });
  });

  it("lists a creator's approved DMs newest published first, NULL dates last, ties by hash", async () => {
    await upsertDm(db, dm('n1', { status: 'approved', published: null }));
    await upsertDm(db, dm('x', { status: 'approved', published: '2030-02-01' }));
    await upsertDm(db, dm('y', { status: 'approved', published: '2030-03-01' }));
    await upsertDm(db, dm('z', { status: 'approved', published: '2030-02-01' }));
    await upsertDm(db, dm('n2', { status: 'approved', published: null }));
    await upsertDm(db, dm('p', { published: '2031-01-01' }));
    await upsertDm(db, dm('f', { service: 'fanbox', user: 'f', status: 'approved' }));
    expect(hashes(await listCreatorDms(db, 'patreon', 'p'))).toEqual(['y', 'z', 'x', 'n2', 'n1']);
    expect(hashes(await listCreatorDms(db, 'patreon', 'p', 1, 2))).toEqual(['z', 'x']);
    expect(await countCreatorDms(db, 'patreon', 'p')).toBe(5);
    expect(await countCreatorDms(db, 'patreon', 'missing')).toBe(0);
    expect(await listCreatorDms(db, 'patreon', 'missing')).toEqual([]);
  });

  it('lists all approved DMs with their artist, filters on content like SQLite (ASCII case, escaped wildcards)', async () => {
    expect(await listDms(db)).toEqual([]);
    expect(await countDms(db)).toBe(0);
    await upsertDm(db, dm('a', { status: 'approved', content: 'Hello World', added: '2030-01-01' }));
    await upsertDm(db, dm('b', { status: 'approved', content: '100% hello_there', added: '2030-01-02' }));
    await upsertDm(db, dm('c', { status: 'approved', content: 'ÉCOLE école', added: '2030-01-02' }));
    await upsertDm(db, dm('d', { content: 'hello pending', added: '2030-01-03' }));
    await upsertDm(db, dm('e', { service: 'fanbox', user: 'f', status: 'approved', content: 'hello fanbox', added: '2030-01-01' }));
    expect(hashes(await listDms(db))).toEqual(['c', 'b', 'e', 'a']);
    expect(hashes(await listDms(db, { offset: 1, limit: 2 }))).toEqual(['b', 'e']);
    expect(await countDms(db)).toBe(4);
    expect(hashes(await listDms(db, { q: 'HELLO' }))).toEqual(['b', 'e', 'a']);
    expect(await countDms(db, { q: 'HELLO' })).toBe(3);
    expect(hashes(await listDms(db, { q: '0%' }))).toEqual(['b']);
    expect(hashes(await listDms(db, { q: 'o_t' }))).toEqual(['b']);
    expect(await countDms(db, { q: 'o_w' })).toBe(0);
    // Only ASCII folds: 'é' does not find 'É' on either engine.
    expect(hashes(await listDms(db, { q: 'éco' }))).toEqual(['c']);
    expect(await countDms(db, { q: 'ÉCOLE é' })).toBe(1);
    expect(await countDms(db, { q: 'école école' })).toBe(0);
    const [first] = await listDms(db, { q: 'ÉCOLE' });
    expect(first.artist).toEqual({
      id: 'p',
      name: 'Pさん',
      service: 'patreon',
      indexed: '1970-01-01T00:00:01',
      updated: '1970-01-01T00:00:01',
      public_id: null,
      relation_id: null,
    });
  });

  it("lists an account's DMs for review with artist, newest first", async () => {
    await upsertDm(db, dm('a', { account_id: account, added: '2030-01-01' }));
    await upsertDm(db, dm('b', { account_id: account, added: '2030-01-02' }));
    await upsertDm(db, dm('c', { account_id: account, added: '2030-01-02', status: 'ignored' }));
    await upsertDm(db, dm('d', { account_id: other, added: '2030-01-03' }));
    expect(hashes(await listDmsForReview(db, account))).toEqual(['b', 'a']);
    expect(hashes(await listDmsForReview(db, account, 'ignored'))).toEqual(['c']);
    expect((await listDmsForReview(db, account))[0].artist?.name).toBe('Pさん');
    expect(await listDmsForReview(db, 12345)).toEqual([]);
  });

  it('reviews: approves the chosen ones (logged), deletes ignored, ignores the rest', async () => {
    await upsertDm(db, dm('a', { account_id: account }));
    await upsertDm(db, dm('b', { account_id: account }));
    await upsertDm(db, dm('c', { account_id: account }));
    await upsertDm(db, dm('old', { account_id: account, status: 'ignored' }));
    await upsertDm(db, dm('gone', { account_id: account, status: 'ignored' }));
    await upsertDm(db, dm('theirs', { account_id: other }));
    await since();
    expect(await reviewDms(db, account, [])).toEqual({ approved: 0, ignored: 0, deleted: 0 });
    expect(await reviewDms(db, account, ['a', 'a', 'old', 'theirs', 'missing'], { ignoreRest: true, deleteIgnored: true })).toEqual({
      approved: 2,
      ignored: 2,
      deleted: 1,
    });
    expect((await since()).sort()).toEqual([
      ['dm', 'upsert', 'patreon', 'p', 'a'],
      ['dm', 'upsert', 'patreon', 'p', 'old'],
    ]);
    expect(hashes(await listCreatorDms(db, 'patreon', 'p')).sort()).toEqual(['a', 'old']);
    expect(hashes(await listDmsForReview(db, account, 'ignored')).sort()).toEqual(['b', 'c']);
    expect(await hasPendingDms(db, account)).toBe(false);
    expect(hashes(await listDmsForReview(db, other))).toEqual(['theirs']);
  });

  it('reviews more hashes than one chunk', async () => {
    const many = Array.from({ length: 1_203 }, (_, i) => `h${String(i).padStart(4, '0')}`);
    await db.k
      .insertInto('dms')
      .values(
        many.map((hash) => ({ service: 'patreon', user: 'p', hash, content: '', added: '2030', status: 'pending', account_id: account })),
      )
      .execute();
    const result = await reviewDms(db, account, [...many.slice(0, 1_100), 'nope']);
    expect(result).toEqual({ approved: 1_100, ignored: 0, deleted: 0 });
    expect(await countCreatorDms(db, 'patreon', 'p')).toBe(1_100);
    expect(await since()).toHaveLength(1_100);
  });
});
