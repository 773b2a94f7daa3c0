/** Fancards on both engines: add, replace by id, find by file, list newest first with the file's fields. */
import { beforeEach, describe, expect, it } from 'vitest';
import { readChangesSince } from '@api/data/changes.ts';
import { findFancardId, listFancards, upsertFancard } from '@api/data/fancards.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

describe.each(ENGINES)('fancards on %s', (engine) => {
  let db: Store;
  let fileA: number;
  let fileB: number;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await db.k.insertInto('creators').values({ service: 'fanbox', id: 'c1', name: 'One', indexed: 1, updated: 1 }).execute();
    fileA = (
      await db.k
        .insertInto('files')
        .values({ hash: HASH_A, mime: 'image/png', size: 10, ext: '.png' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    fileB = (
      await db.k
        .insertInto('files')
        .values({ hash: HASH_B, mime: null, size: 3_000_000_000, ext: '.jpg' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('finds and lists nothing when there is nothing', async () => {
    expect(await findFancardId(db, 'fanbox', 'c1', fileA)).toBeUndefined();
    expect(await listFancards(db, 'fanbox', 'c1')).toEqual([]);
  });

  it('adds cards, lists them newest first (ties by id) with the file fields and server, and logs each', async () => {
    const first = await upsertFancard(db, { user_id: 'c1', file_id: fileA, price: '500円', added: '2030-01-01T00:00:00' });
    const second = await upsertFancard(db, { user_id: 'c1', file_id: fileB, added: '2030-01-01T00:00:00' });
    const third = await upsertFancard(db, { user_id: 'c1', file_id: fileA, price: '100円', added: '2029-01-01T00:00:00' });
    expect(second).toBeGreaterThan(first);
    expect(await listFancards(db, 'fanbox', 'c1', 'https://files.example')).toEqual([
      {
        id: second,
        user_id: 'c1',
        file_id: fileB,
        hash: HASH_B,
        path: `/bb/bb/${HASH_B}.jpg`,
        server: 'https://files.example',
        price: null,
        mime: null,
        ext: '.jpg',
        size: 3_000_000_000,
        added: '2030-01-01T00:00:00',
      },
      {
        id: first,
        user_id: 'c1',
        file_id: fileA,
        hash: HASH_A,
        path: `/aa/aa/${HASH_A}.png`,
        server: 'https://files.example',
        price: '500円',
        mime: 'image/png',
        ext: '.png',
        size: 10,
        added: '2030-01-01T00:00:00',
      },
      expect.objectContaining({ id: third, price: '100円', server: 'https://files.example' }),
    ]);
    expect(await findFancardId(db, 'fanbox', 'c1', fileA)).toBe(first);
    expect(await findFancardId(db, 'fanbox', 'c1', fileB)).toBe(second);
    expect(await findFancardId(db, 'patreon', 'c1', fileA)).toBeUndefined();
    const changes = await readChangesSince(db, 0);
    expect(changes.map((c) => [c.kind, c.action, c.service, c.creator_id, c.post_id, c.ref])).toEqual([
      ['fancard', 'upsert', 'fanbox', 'c1', null, String(first)],
      ['fancard', 'upsert', 'fanbox', 'c1', null, String(second)],
      ['fancard', 'upsert', 'fanbox', 'c1', null, String(third)],
    ]);
  });

  it('replaces a card by id, and numbers later cards after an id given by hand', async () => {
    expect(await upsertFancard(db, { id: 500, user_id: 'c1', file_id: fileA, price: '1円', added: '2030-01-01' })).toBe(500);
    expect(await upsertFancard(db, { id: 500, user_id: 'c1', file_id: fileB, price: null, added: '2030-02-01' })).toBe(500);
    expect(await listFancards(db, 'fanbox', 'c1')).toEqual([
      expect.objectContaining({ id: 500, file_id: fileB, price: null, added: '2030-02-01', server: '' }),
    ]);
    const next = await upsertFancard(db, { user_id: 'c1', file_id: fileA, added: '2030-03-01' });
    expect(next).toBe(501);
    expect((await listFancards(db, 'fanbox', 'c1')).map((card) => card.id)).toEqual([501, 500]);
  });
});
