/**
 * What the OnlyFans importer tests share: a fake OnlyFans, a real SQLite data folder, the credential
 * sealed for the worker and the real worker running the importer.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createImport, getImportLogs } from '@api/data/imports.ts';
import { onlyfansImporter } from '@api/importer/paysites/onlyfans/importer.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import type { FakeOnlyfans } from '../../fakes/onlyfans.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

export const FAKE_RULES_FILE = 'tests/fakes/onlyfans-rules.json';

export interface Harness {
  t: TempDb;
  fake: FakeOnlyfans;
  config: ReturnType<typeof readConfig>;
  env: Record<string, string>;
  workers: ImportWorker[];
}

export function harness(fake: FakeOnlyfans, env: Record<string, string> = {}): Harness {
  const t = tempDb();
  const all = {
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_ONLYFANS_URL: fake.url,
    IMPORTER_ONLYFANS_RULES: FAKE_RULES_FILE,
    IMPORTER_MAX_FILE_MB: '1',
    ...env,
  };
  return { t, fake, config: readConfig(all), env: all, workers: [] };
}

export async function closeHarness(h: Harness) {
  await Promise.all(h.workers.splice(0).map((w) => w.stop()));
  h.t.cleanup();
}

export const credentialText = (fake: FakeOnlyfans) => JSON.stringify(fake.credential);

export async function queue(h: Harness, id: string, keyId?: number) {
  await createImport(h.t.db, {
    id,
    service: 'onlyfans',
    key_id: keyId ?? null,
    work_key: sealForWorker(h.config, id, credentialText(h.fake)),
  });
  return id;
}

export function worker(h: Harness) {
  const w = startImportWorker({ db: h.t.db, config: h.config }, { autoStart: false, backoffMs: 1000, importers: () => onlyfansImporter });
  h.workers.push(w);
  return w;
}

export const count = (h: Harness, sql: string, ...args: unknown[]) => (h.t.db.prepare(sql).get(...args) as { n: number }).n;
export const counts = (h: Harness) => ({
  posts: count(h, "SELECT count(*) AS n FROM posts WHERE service = 'onlyfans'"),
  files: count(h, 'SELECT count(*) AS n FROM files'),
  revisions: count(h, 'SELECT count(*) AS n FROM post_revisions'),
  creators: count(h, "SELECT count(*) AS n FROM creators WHERE service = 'onlyfans'"),
});

/** The stored file behind an archive path exists and its bytes hash to its name; returns the bytes. */
export function stored(h: Harness, archivePath: string): Buffer {
  const m = /^\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(archivePath);
  expect(m, archivePath).not.toBeNull();
  const bytes = fs.readFileSync(path.join(h.t.dir, 'files', archivePath));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(m![3]);
  return bytes;
}

/** None of the credential's four values in the import log. */
export async function expectNoKeyInLogs(h: Harness, id: string) {
  const logs = (await getImportLogs(h.t.db, id)).join('\n');
  for (const value of Object.values(h.fake.credential)) expect(logs).not.toContain(value);
  expect(logs).not.toMatch(/Policy=|Signature=|Key-Pair-Id/);
}

/** None of the credential's four values, in clear, anywhere under the data folder (database, WAL, files). */
export function expectNoKeyInDataDir(h: Harness) {
  const files = fs.readdirSync(h.t.dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(h.t.dir, f));
  for (const file of files.filter((f) => fs.statSync(f).isFile())) {
    const bytes = fs.readFileSync(file);
    for (const value of Object.values(h.fake.credential)) expect(bytes.includes(value), `${value} in ${file}`).toBe(false);
  }
}
