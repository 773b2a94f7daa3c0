/**
 * `npm run db:types [-- --check] [--out FILE] [--from FILE]`: writes api/data/schema.ts, the Kysely `Schema` of the
 * archive database, from the migrations themselves: it migrates an in-memory SQLite database with
 * `migrate()` of api/data/db.ts and reads every table back (`sqlite_schema`, `pragma table_xinfo`).
 * FTS5 tables, their shadow tables and SQLite's own tables are left out: queries reach them through the
 * search modules' own SQL. `--check` writes nothing and exits 1 when the file differs from what it would
 * write (a migration added without running this command). `--out` names another file and `--from` reads an
 * existing SQLite file as it is instead of migrating a new one (tests use both).
 *
 * Types, from the declared column type: INTEGER and REAL → number, TEXT → string, BLOB → Buffer, anything
 * else → unknown; `| null` unless the column is NOT NULL or part of the primary key. `Generated<...>` for
 * what the database fills by itself (a rowid alias, a column with a DEFAULT), `GeneratedAlways<...>` for
 * generated columns. The output is already formatted as Biome formats it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { migrate, openDatabase } from '../api/data/db.ts';
import { sqliteStore } from '../api/data/store.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = 'api/data/schema.ts';
const FTS_SHADOW_SUFFIXES = ['data', 'idx', 'content', 'docsize', 'config'];
const TYPES: Record<string, string> = { INTEGER: 'number', REAL: 'number', TEXT: 'string', BLOB: 'Buffer' };

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  /** 0 ordinary, 1 hidden column of a virtual table, 2 generated VIRTUAL, 3 generated STORED. */
  hidden: number;
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const fieldName = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
const pascalCase = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The tables a query may name: not SQLite's own, not FTS5 tables, not the shadow tables FTS5 keeps. */
function tableNames(db: Database.Database): string[] {
  const rows = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'table'`).all() as Array<{ name: string; sql: string | null }>;
  const fts = rows.filter((row) => /^CREATE\s+VIRTUAL\s+TABLE\b[^(]*\bUSING\s+fts5\b/i.test(row.sql ?? '')).map((row) => row.name);
  const skipped = new Set(fts.flatMap((name) => [name, ...FTS_SHADOW_SUFFIXES.map((suffix) => `${name}_${suffix}`)]));
  return rows
    .map((row) => row.name)
    .filter((name) => !name.startsWith('sqlite_') && !skipped.has(name))
    .sort(byName);
}

/**
 * The rowid alias of a rowid table, if it has one: its only primary key column declared exactly INTEGER.
 * SQLite builds no index for that key (it is the b-tree's own key), and builds one (origin 'pk') for every
 * other primary key, a WITHOUT ROWID table's and `INTEGER PRIMARY KEY DESC` included.
 */
function rowidAlias(db: Database.Database, table: string, columns: ColumnInfo[]): string | undefined {
  const keys = columns.filter((column) => column.pk > 0);
  if (keys.length !== 1 || keys[0].type.toUpperCase() !== 'INTEGER') return undefined;
  const indexes = db.pragma(`index_list(${quoteName(table)})`) as Array<{ origin: string }>;
  return indexes.some((index) => index.origin === 'pk') ? undefined : keys[0].name;
}

function columnType(column: ColumnInfo, alias: string | undefined): string {
  const base = TYPES[column.type.toUpperCase()] ?? 'unknown';
  const nullable = column.notnull === 0 && column.pk === 0 && base !== 'unknown';
  const type = nullable ? `${base} | null` : base;
  if (column.hidden === 2 || column.hidden === 3) return `GeneratedAlways<${type}>`;
  if (column.name === alias || column.dflt_value !== null) return `Generated<${type}>`;
  return type;
}

/** The text of api/data/schema.ts for the database the migrations build (or the file `from`). */
function generate(from: string | undefined): { text: string; tables: number } {
  const db = from === undefined ? openDatabase(':memory:') : sqliteStore(new Database(from, { readonly: true, fileMustExist: true }));
  try {
    if (from === undefined) migrate(db);
    const interfaces: string[] = [];
    const entries: string[] = [];
    const seen = new Map<string, string>();
    for (const table of tableNames(db)) {
      const name = `${pascalCase(table)}Table`;
      const clash = seen.get(name);
      if (clash !== undefined) throw new Error(`Tables ${clash} and ${table} would both be typed ${name}; rename one.`);
      seen.set(name, table);
      const columns = (db.pragma(`table_xinfo(${quoteName(table)})`) as ColumnInfo[]).filter((column) => column.hidden !== 1);
      const alias = rowidAlias(db, table, columns);
      const fields = columns.map((column) => `  ${fieldName(column.name)}: ${columnType(column, alias)};`);
      interfaces.push(`export interface ${name} {\n${fields.join('\n')}\n}\n`);
      entries.push(`  ${fieldName(table)}: ${name};`);
    }
    const used = ['Generated', 'GeneratedAlways'].filter((type) => interfaces.some((text) => text.includes(`: ${type}<`)));
    const header = [
      '/**',
      ' * GENERATED by `npm run db:types` (scripts/db-types.ts) from the migrations in api/data/migrations.',
      ' * Do not edit by hand: add a migration, then run `npm run db:types` and commit this file.',
      ' *',
      ' * One interface per table of the SQLite database the migrations build (FTS5 search tables left out);',
      ' * `Schema` maps table names to them for `Kysely<Schema>`.',
      ' */',
    ].join('\n');
    const imports = used.length ? `import type { ${used.join(', ')} } from 'kysely';\n\n` : '';
    const schema = `export interface Schema {\n${entries.join('\n')}\n}\n`;
    // No blank line between the interfaces: the file stays under the 500 lines every source file keeps to.
    return { text: `${header}\n${imports}${interfaces.join('')}\n${schema}`, tables: entries.length };
  } finally {
    db.close();
  }
}

const firstDifference = (a: string, b: string) => {
  const left = a.split('\n');
  const right = b.split('\n');
  const line = left.findIndex((text, index) => text !== right[index]);
  return (line === -1 ? left.length : line) + 1;
};

const { values } = parseArgs({
  options: { check: { type: 'boolean', default: false }, out: { type: 'string' }, from: { type: 'string' } },
});
const file = path.resolve(values.out ?? path.join(ROOT, TARGET));
const shown = path.relative(process.cwd(), file) || file;
const { text, tables } = generate(values.from === undefined ? undefined : path.resolve(values.from));

if (values.check) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  if (current === null) {
    console.error(`${shown} does not exist: run \`npm run db:types\` to generate it from the migrations.`);
    process.exit(1);
  }
  if (current !== text) {
    console.error(
      `${shown} does not match the migrations (first difference on line ${firstDifference(current, text)}): ` +
        'run `npm run db:types` and commit the result.',
    );
    process.exit(1);
  }
  console.log(`${shown} matches the migrations (${tables} tables).`);
} else {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  console.log(`Wrote ${shown} (${tables} tables).`);
}
