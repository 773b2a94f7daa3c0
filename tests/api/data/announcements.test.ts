/** Announcements on both engines: upserts keep the first added date and log a change; newest first, undated last. */
import { beforeEach, describe, expect, it } from 'vitest';
import { listAnnouncements, upsertAnnouncement } from '@api/data/announcements.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();

describe.each(ENGINES)('announcements on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await db.k
      .insertInto('creators')
      .values([
        { service: 'fanbox', id: 'c1', name: 'One', indexed: 1, updated: 1 },
        { service: 'fanbox', id: 'c2', name: 'Two', indexed: 1, updated: 1 },
      ])
      .execute();
  });

  it('lists nothing for a creator without announcements', async () => {
    expect(await listAnnouncements(db, 'fanbox', 'c1')).toEqual([]);
    expect(await listAnnouncements(db, 'fanbox', 'missing')).toEqual([]);
  });

  it('inserts, updates content and date but keeps added, and logs each write', async () => {
    await upsertAnnouncement(db, {
      service: 'fanbox',
      user_id: 'c1',
      hash: 'h1',
      content: 'héllo 🌸',
      published: '2030-01-01T00:00:00',
      added: '2030-01-02T00:00:00',
    });
    await upsertAnnouncement(db, {
      service: 'fanbox',
      user_id: 'c1',
      hash: 'h1',
      content: 'changed',
      published: null,
      added: '2031-01-01T00:00:00',
    });
    expect(await listAnnouncements(db, 'fanbox', 'c1')).toEqual([
      { service: 'fanbox', user_id: 'c1', hash: 'h1', content: 'changed', published: null, added: '2030-01-02T00:00:00' },
    ]);
    const changes = await readChangesSince(db, 0);
    expect(
      changes.map(({ kind, action, service, creator_id, post_id, ref }) => ({ kind, action, service, creator_id, post_id, ref })),
    ).toEqual([
      { kind: 'announcement', action: 'upsert', service: 'fanbox', creator_id: 'c1', post_id: null, ref: 'h1' },
      { kind: 'announcement', action: 'upsert', service: 'fanbox', creator_id: 'c1', post_id: null, ref: 'h1' },
    ]);
  });

  it('orders newest first, undated last, ties by added then hash, and keeps creators apart', async () => {
    const add = (hash: string, published: string | null, added: string, user_id = 'c1') =>
      upsertAnnouncement(db, { service: 'fanbox', user_id, hash, content: hash, published, added });
    await add('a', '2030-01-01', '2030-01-05');
    await add('b', null, '2030-01-09');
    await add('c', '2030-02-01', '2030-01-01');
    await add('d', '2030-01-01', '2030-01-05');
    await add('e', '2030-01-01', '2030-01-06');
    await add('Z', null, '2030-01-09');
    await add('x', '2035-01-01', '2030-01-01', 'c2');
    expect((await listAnnouncements(db, 'fanbox', 'c1')).map((a) => a.hash)).toEqual(['c', 'e', 'd', 'a', 'b', 'Z']);
    expect((await listAnnouncements(db, 'fanbox', 'c2')).map((a) => a.hash)).toEqual(['x']);
    expect(await listAnnouncements(db, 'patreon', 'c1')).toEqual([]);
  });

  it('stamps added now when none is given', async () => {
    await upsertAnnouncement(db, { service: 'fanbox', user_id: 'c2', hash: 'n', content: '' });
    const [row] = await listAnnouncements(db, 'fanbox', 'c2');
    expect(row.added).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(row.published).toBeNull();
  });
});
