/**
 * The key-leak test (issue 6): submitted keys go through everything that handles them — submission
 * over HTTP (kept, auto-import, a guest's, OnlyFans with its extra fields), the worker with an importer
 * that tries to log them and fails with them in its errors, an auto-import round, a revocation — and
 * then every byte under the data folder (database, its un-checkpointed WAL, -shm, secrets, operator
 * keys) and everything logged or answered is searched for each secret, in clear, base64 (any
 * alignment), hex and URL-encoded. Nothing is excluded: the working key and the operator keys are
 * random material that never holds a submitted value, so they are searched too.
 * A canary written into the database on purpose proves the search reads the WAL.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { getImport } from '@api/data/imports.ts';
import { runAutoImportRound } from '@api/importer/auto-import.ts';
import { parseOnlyfansCredential } from '@api/importer/credential.ts';
import type { PaysiteImporter } from '@api/importer/context.ts';
import { TransientError } from '@api/importer/errors.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { dataPaths, readConfig } from '@api/config.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const PATREON_KEY = 'LeakTestPatreonKey_q8Zr2Wm5Xv7Tn4Ks1Jd0Hf3G'.slice(0, 43);
const FANBOX_KEY = '90210_LeakTestFanboxGuestKey7Qp';
const ONLYFANS = {
  session_key: 'leak-test-of-sess-8c1d4e7f',
  auth_id: '73918264507',
  'x-bc': '5eed'.repeat(10),
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) LeakTest/42',
};
const SECRETS = [PATREON_KEY, FANBOX_KEY, ...Object.values(ONLYFANS)];
const CANARY = 'Canary-Written-On-Purpose-31337';

let t: TempDb;
const said: string[] = [];

/** The forms a secret could take in bytes: clear, base64 at each of the three alignments, hex, URL-encoded. */
function needles(secret: string): Buffer[] {
  const forms = [Buffer.from(secret), Buffer.from(Buffer.from(secret).toString('hex')), Buffer.from(encodeURIComponent(secret))];
  for (let skip = 0; skip < 3; skip++) {
    const tail = Buffer.from(secret).subarray(skip);
    const whole = Math.floor(tail.length / 3) * 3;
    forms.push(Buffer.from(tail.subarray(0, whole).toString('base64')));
    forms.push(Buffer.from(tail.subarray(0, whole).toString('base64url')));
  }
  return forms;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Where each secret was found: 'file: form' entries. */
function findSecrets(secrets: string[], files: string[], texts: string[]): string[] {
  const found: string[] = [];
  const sources = [
    ...files.map((file) => ({ name: path.relative(t.dir, file), bytes: fs.readFileSync(file) })),
    ...texts.map((text, i) => ({ name: `said #${i}`, bytes: Buffer.from(text) })),
  ];
  for (const secret of secrets) {
    for (const [form, needle] of needles(secret).entries()) {
      for (const source of sources) if (source.bytes.includes(needle)) found.push(`${source.name}: ${secret.slice(0, 6)}… form ${form}`);
    }
  }
  return found;
}

/** An importer that does its best to leak: logs every secret and fails with them in the message. */
const leaky: PaysiteImporter = {
  async run(ctx) {
    const parts = parseOnlyfansCredential(ctx.key) ?? { session_key: ctx.key };
    await ctx.log(`Signing in with ${ctx.key} (${Object.values(parts).join(' / ')})`);
    await ctx.step(() => upsertCreator(ctx.db, { service: ctx.service, id: `leak-${ctx.importId}`, name: 'Leak test' }), {
      cursor: { n: 1 },
      log: [`cookie=${ctx.key}`],
    });
    if (ctx.service === 'fanbox') throw new TransientError(`refused ${ctx.key}`);
    if (ctx.service === 'onlyfans') throw new Error(`unexpected with ${Object.values(parts).join(',')}`);
  },
};

beforeAll(() => {
  t = tempDb();
  // Keep every written page in the WAL (no checkpoint into the main file) so the search sees it there.
  if (t.engine === 'sqlite') t.db.pragma('wal_autocheckpoint = 0');
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) =>
        void said.push(args.map((a) => (a instanceof Error ? a.stack : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
    );
  }
});
afterAll(() => {
  vi.restoreAllMocks();
  t.cleanup();
});

describe('submitted keys never reach logs, answers or the data folder in clear', () => {
  it('survive submission, the worker, an auto-import round and revocation without leaking', async () => {
    const config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
    const app = createApp({
      db: t.db,
      config,
      logger: { error: (m, d) => said.push(m + JSON.stringify(d ?? {})), warn: (m, d) => said.push(m + JSON.stringify(d ?? {})) },
    });
    const alice = await signIn(t.db);
    const answers: string[] = [];
    const call = async (test: request.Test) => {
      const answer = await test;
      answers.push(answer.text, JSON.stringify(answer.headers));
      return answer;
    };
    const submit = (body: Record<string, string>, cookie?: string) => {
      const req = request(app).post('/api/v1/importer/submit');
      return call((cookie ? req.set('Cookie', cookie) : req).send(body));
    };

    const patreon = await submit({ service: 'patreon', session_key: PATREON_KEY, save_session_key: '1', auto_import: '1' }, alice.cookie);
    const onlyfans = await submit({ service: 'onlyfans', ...ONLYFANS, save_session_key: '1', auto_import: '1' }, alice.cookie);
    const fanbox = await submit({ service: 'fanbox', session_key: FANBOX_KEY, auto_import: '1' });
    const form = await call(
      request(app)
        .post('/api/v1/importer/submit')
        .set('Cookie', alice.cookie)
        .type('form')
        .send({ service: 'onlyfans', ...ONLYFANS }),
    );
    expect([patreon.status, onlyfans.status, fanbox.status, form.status]).toEqual([200, 200, 200, 200]);
    expect(form.body.import_id).toBe(onlyfans.body.import_id); // same session, pending

    const worker = startImportWorker(
      { db: t.db, config, log: (line) => said.push(line) },
      { autoStart: false, importers: () => leaky, backoffMs: 1 },
    );
    while (await worker.runOnce());
    for (const id of [patreon.body.import_id, onlyfans.body.import_id, fanbox.body.import_id]) {
      await call(request(app).get(`/api/v1/imports/${id}`));
      await call(request(app).get(`/api/v1/importer/logs/${id}`));
    }
    expect((await getImport(t.db, patreon.body.import_id))!.finished_at).not.toBeNull();

    // A day later the round imports both kept keys again, and the worker runs them.
    t.db.prepare("UPDATE imports SET created_at = '2020-01-01T00:00:00', finished_at = coalesce(finished_at, '2020-01-01T00:00:00')").run();
    const privateKey = fs.readFileSync(path.join(dataPaths(t.dir).operatorKeys, 'private.pem'));
    expect(await runAutoImportRound(t.db, config, privateKey, { log: (line) => said.push(line) })).toEqual({
      queued: 2,
      skipped: 0,
      failed: 0,
    });
    while (await worker.runOnce());
    await worker.stop();

    const keys = (await call(request(app).get('/api/v1/account/keys').set('Cookie', alice.cookie))).body.props.service_keys as {
      id: number;
      service: string;
    }[];
    expect(keys.map((k) => k.service).sort()).toEqual(['onlyfans', 'patreon']);
    const revoked = await call(
      request(app)
        .post('/api/v1/account/keys')
        .set('Cookie', alice.cookie)
        .send({ revoke: [keys.find((k) => k.service === 'patreon')!.id] }),
    );
    expect(revoked.status).toBe(200);

    // The control: a value written on purpose is found, in the WAL, so the search can fail.
    await upsertCreator(t.db, { service: 'patreon', id: 'canary', name: CANARY });
    const databaseFiles = t.databaseFiles();
    const files = filesUnder(t.dir);
    const databaseNames = t.engine === 'sqlite' ? ['trove.sqlite', 'trove.sqlite-wal', 'trove.sqlite-shm'] : ['postgres-rows.sql'];
    expect(files.map((f) => path.relative(t.dir, f))).toEqual(
      expect.arrayContaining([...databaseNames, 'secrets/import-work.key', 'operator-keys/private.pem']),
    );
    const canaryFiles = t.engine === 'sqlite' ? [path.join(t.dir, 'trove.sqlite-wal')] : databaseFiles;
    expect(findSecrets([CANARY], canaryFiles, [])).not.toEqual([]);
    expect(said.length).toBeGreaterThan(5);
    expect(said.some((line) => line.includes('[key]'))).toBe(true); // the worker's log line for the unexpected error, scrubbed

    // Read while the database is open: the WAL is not checkpointed away.
    expect(findSecrets(SECRETS, files, [...said, ...answers])).toEqual([]);
  }, 120_000);
});
