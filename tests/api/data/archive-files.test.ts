/** Archive listings and passwords on both engines, with their 'file' change rows. */
import { beforeEach, describe, expect, it } from 'vitest';
import { getArchiveFile, getArchiveRecord, setArchiveInfo } from '@api/data/archive-files.ts';
import { registerFile } from '@api/data/files.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe.each(ENGINES)('archive files on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('stores, replaces and reads a listing with its password state', async () => {
    expect(await getArchiveFile(db, A)).toBeUndefined();
    const file = await registerFile(db, { hash: A, size: 10, ext: '.zip', added: '2030-01-01T00:00:00' });
    expect(await getArchiveFile(db, A)).toBeUndefined();

    await setArchiveInfo(db, { hash: A.toUpperCase(), file_list: ['a.txt', 'ディレクトリ/b.png'] });
    expect(await getArchiveRecord(db, A)).toEqual({ info: { file, file_list: ['a.txt', 'ディレクトリ/b.png'] }, status: null });

    await setArchiveInfo(db, { hash: A, file_list: [], password_required: true, list_status: 'unreadable' });
    expect(await getArchiveRecord(db, A.toUpperCase())).toEqual({ info: { file, file_list: [], password: '' }, status: 'unreadable' });

    await setArchiveInfo(db, { hash: A, file_list: ['c'], password: 'pässword', list_status: 'truncated' });
    expect(await getArchiveFile(db, A)).toEqual({ file, file_list: ['c'], password: 'pässword' });
    expect((await getArchiveRecord(db, A))?.status).toBe('truncated');

    const changes = await readChangesSince(db, 0);
    expect(changes.map((c) => [c.kind, c.action, c.ref])).toEqual(Array(4).fill(['file', 'upsert', A]));
  });

  it('refuses a listing for an unknown file and writes nothing', async () => {
    await expect(setArchiveInfo(db, { hash: B, file_list: ['x'] })).rejects.toThrow();
    expect(await readChangesSince(db, 0)).toEqual([]);
    expect(await db.k.selectFrom('archive_files').selectAll().execute()).toEqual([]);
  });
});
