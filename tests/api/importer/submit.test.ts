/**
 * The import submission service without HTTP: a submission becomes a queued import with its log line,
 * the same key while pending answers the same import, and DMs need an account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getImport, getImportLogs } from '@api/data/imports.ts';
import { listAccountKeys } from '@api/data/auto-import-keys.ts';
import { IMPORTER_MESSAGES, SUBMITTED_PRIORITY, submitImport } from '@api/importer/submit.ts';
import { readConfig, type Config } from '@api/config.ts';
import { importSubmissionSchema } from '@shared/importer.ts';
import { validSubmission } from '../../helpers/import-keys.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let config: Config;
const submission = (seed: string, extra: Record<string, string> = {}) =>
  importSubmissionSchema.parse({ ...validSubmission('patreon', seed), ...extra });

beforeAll(() => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
});
afterAll(() => t.cleanup());

describe('submitImport', () => {
  it('queues an import and answers it again for the same pending key', async () => {
    const deps = { db: t.db, config };
    const id = await submitImport(deps, submission('1'), { account: null, address: '192.0.2.1' });
    const queued = (await getImport(t.db, id))!;
    expect([queued.service, queued.priority, queued.account_id]).toEqual(['patreon', SUBMITTED_PRIORITY, null]);
    expect(await getImportLogs(t.db, id)).toEqual([IMPORTER_MESSAGES.queued]);
    expect(await submitImport(deps, submission('1'), { account: null, address: '192.0.2.2' })).toBe(id);
    expect(await submitImport(deps, submission('2'), { account: null, address: '192.0.2.1' })).not.toBe(id);
  });

  it('refuses DMs without an account and keeps the key only for a signed-in account that asks', async () => {
    const deps = { db: t.db, config };
    await expect(submitImport(deps, submission('3', { save_dms: '1' }), { account: null, address: '192.0.2.3' })).rejects.toMatchObject({
      status: 403,
      message: IMPORTER_MESSAGES.dmsNeedAccount,
    });
    const { account } = await signIn(t.db);
    const id = await submitImport(deps, submission('4', { save_session_key: '1' }), { account, address: '192.0.2.3' });
    expect(await getImport(t.db, id)).toMatchObject({ account_id: account.id, save_session_key: true });
    expect(await listAccountKeys(t.db, account.id)).toHaveLength(1);
  });
});
