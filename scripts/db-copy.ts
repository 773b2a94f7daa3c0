/**
 * `npm run db:copy -- --to postgres://...`: copies the SQLite archive of DATA_DIR into an empty
 * PostgreSQL database (api/data/copy-to-postgres.ts), with a progress bar per table. The server should
 * be stopped (or at least not importing) while it runs; the SQLite file is only read. Files, icons,
 * banners and stored pages stay where they are: only the database moves.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { dataPaths } from '../api/config.ts';
import { copyToPostgres, TargetNotEmptyError } from '../api/data/copy-to-postgres.ts';
import { migrate, openDatabase } from '../api/data/db.ts';
import { createProgress, type Progress } from './lib/progress.ts';

const USAGE = 'Usage: npm run db:copy -- --to postgres://user@host:port/database';
const { values } = parseArgs({ options: { to: { type: 'string' } } });
const target = values.to ?? '';
if (!/^postgres(ql)?:\/\//.test(target)) {
  console.error(target ? `--to must be a postgres:// URL. ${USAGE}` : USAGE);
  process.exit(2);
}

const db = openDatabase(dataPaths().database);
migrate(db);
const pool = new pg.Pool({ connectionString: target, max: 2 });
let progress: Progress | undefined;
const started = performance.now();
try {
  const summary = await copyToPostgres(db, pool, {
    onTable: (table, rows) => {
      progress?.stop();
      progress = createProgress(table.padEnd(24));
      progress.start(rows);
    },
    onRows: (_table, done) => progress?.update(done),
  });
  progress?.stop();
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Copied ${rows} rows of ${summary.tables.length} tables in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  progress?.stop();
  if (!(error instanceof TargetNotEmptyError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await pool.end();
  db.close();
}
