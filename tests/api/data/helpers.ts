/** Test helpers: a real, migrated SQLite file in a fresh temporary directory. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';

export interface TempDb {
  db: Db;
  dir: string;
  file: string;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-test-'));
  const file = path.join(dir, 'trove.sqlite');
  const db = openDatabase(file);
  migrate(db);
  return {
    db,
    dir,
    file,
    cleanup() {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
