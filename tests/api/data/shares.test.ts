/** Shares on both engines: the same answers and the same 'share' change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countCreatorShares,
  countShares,
  createShare,
  createUploadedShare,
  deleteShare,
  getShare,
  iterateShareIds,
  listCreatorShares,
  listShares,
} from '@api/data/shares.ts';
import { countFiles, registerFile } from '@api/data/files.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe.each(ENGINES)('shares on %s', (engine) => {
  let db: Store;
  let mark = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    mark = 0;
    for (const id of ['1', '2']) {
      await db.k
        .insertInto('creators')
        .values({ service: 'fanbox', id, name: `c${id}`, indexed: 0, updated: 0 })
        .execute();
    }
  });

  /** The change rows since the previous call, as [kind, action, service, creator_id, ref]. */
  async function since(): Promise<(string | null)[][]> {
    const rows = await readChangesSince(db, mark);
    if (rows.length) mark = rows[rows.length - 1].id;
    return rows.map((c) => [c.kind, c.action, c.service, c.creator_id, c.ref]);
  }

  it('creates a share with its files and creators, reads it and logs one row per creator', async () => {
    await registerFile(db, { hash: A, size: 1, ext: '.png' });
    await since();
    const id = await createShare(db, {
      name: '共有 ✓',
      description: 'desc',
      added: '2030-01-01T00:00:00',
      files: [{ filename: 'pic.JPG', hash: A }, { filename: 'Notes.TXT', upload_url: 'https://example.com/u' }, { filename: 'noext' }],
      creators: [
        { service: 'fanbox', creator_id: '2' },
        { service: 'fanbox', creator_id: '1' },
        { service: 'fanbox', creator_id: '2' },
      ],
    });
    expect(await getShare(db, id)).toEqual({
      share: { id, name: '共有 ✓', description: 'desc', added: '2030-01-01T00:00:00' },
      share_files: [
        { hash: A, ext: '.png', filename: 'pic.JPG', upload_url: null, path: `/aa/aa/${A}.png` },
        { hash: null, ext: '.txt', filename: 'Notes.TXT', upload_url: 'https://example.com/u', path: null },
        { hash: null, ext: '', filename: 'noext', upload_url: null, path: null },
      ],
    });
    expect(await since()).toEqual([
      ['share', 'upsert', 'fanbox', '1', String(id)],
      ['share', 'upsert', 'fanbox', '2', String(id)],
    ]);
    const bare = await createShare(db, { name: 'bare', files: [] });
    expect(await getShare(db, bare)).toEqual({
      share: { id: bare, name: 'bare', description: '', added: expect.any(String) },
      share_files: [],
    });
    expect(await since()).toEqual([['share', 'upsert', null, null, String(bare)]]);
    expect(await getShare(db, bare + 100)).toBeUndefined();
  });

  it('lists and counts shares, newest first (ties by id), and per creator', async () => {
    expect(await listShares(db)).toEqual([]);
    expect(await countShares(db)).toBe(0);
    const one = await createShare(db, {
      name: 'one',
      added: '2030-01-02T00:00:00',
      files: [],
      creators: [{ service: 'fanbox', creator_id: '1' }],
    });
    const two = await createShare(db, {
      name: 'two',
      added: '2030-01-01T00:00:00',
      files: [],
      creators: [{ service: 'fanbox', creator_id: '1' }],
    });
    const three = await createShare(db, { name: 'three', added: '2030-01-02T00:00:00', files: [] });
    expect((await listShares(db)).map((s) => s.id)).toEqual([three, one, two]);
    expect((await listShares(db, 1, 1)).map((s) => s.id)).toEqual([one]);
    expect(await listShares(db, 3)).toEqual([]);
    expect(await countShares(db)).toBe(3);
    expect(await listCreatorShares(db, 'fanbox', '1')).toEqual([
      { id: two, name: 'two', description: '', added: '2030-01-01T00:00:00' },
      { id: one, name: 'one', description: '', added: '2030-01-02T00:00:00' },
    ]);
    expect((await listCreatorShares(db, 'fanbox', '1', 1, 5)).map((s) => s.id)).toEqual([one]);
    expect(await listCreatorShares(db, 'fanbox', '2')).toEqual([]);
    expect(await countCreatorShares(db, 'fanbox', '1')).toBe(2);
    expect(await countCreatorShares(db, 'patreon', '1')).toBe(0);
    const ids: number[] = [];
    for await (const id of iterateShareIds(db)) ids.push(id);
    expect(ids).toEqual([one, two, three]);
  });

  it('deletes a share with its links and logs the delete per creator', async () => {
    const id = await createShare(db, { name: 'gone', files: [{ filename: 'f' }], creators: [{ service: 'fanbox', creator_id: '1' }] });
    await since();
    expect(await deleteShare(db, id)).toBe(true);
    expect(await since()).toEqual([['share', 'delete', 'fanbox', '1', String(id)]]);
    expect(await getShare(db, id)).toBeUndefined();
    expect(await countCreatorShares(db, 'fanbox', '1')).toBe(0);
    expect(await db.k.selectFrom('share_files').selectAll().execute()).toEqual([]);
    expect(await deleteShare(db, id)).toBe(false);
    expect(await since()).toEqual([]);
    const ids: number[] = [];
    for await (const shareId of iterateShareIds(db)) ids.push(shareId);
    expect(ids).toEqual([]);
  });

  it('uploads files and their share in one transaction, or nothing', async () => {
    const id = await createUploadedShare(db, {
      name: 'upload',
      files: [
        { filename: 'a.png', hash: A, size: 1, ext: 'png' },
        { filename: 'b.zip', hash: B, size: 2, ext: '.zip' },
      ],
      creators: [{ service: 'fanbox', creator_id: '2' }],
    });
    expect((await getShare(db, id))?.share_files.map((f) => [f.filename, f.path])).toEqual([
      ['a.png', `/aa/aa/${A}.png`],
      ['b.zip', `/bb/bb/${B}.zip`],
    ]);
    expect(await since()).toEqual([
      ['file', 'upsert', null, null, A],
      ['file', 'upsert', null, null, B],
      ['share', 'upsert', 'fanbox', '2', String(id)],
    ]);
    // An unknown creator fails the link after the files were registered: all of it is rolled back.
    const C = 'c'.repeat(64);
    await expect(
      createUploadedShare(db, {
        name: 'bad',
        files: [{ filename: 'c', hash: C, size: 1, ext: '' }],
        creators: [{ service: 'fanbox', creator_id: '9' }],
      }),
    ).rejects.toThrow();
    expect(await countFiles(db)).toBe(2);
    expect(await countShares(db)).toBe(1);
    expect(await since()).toEqual([]);
  });
});
