/**
 * The e2e data folder's database, for expectations taken from the data rather than from the page under
 * test. Each read opens it read-only and closes it again, so it always sees the server's latest writes.
 */
import Database from 'better-sqlite3';
import type { BrowserContext } from '@playwright/test';
import { E2E_DATA_DIR, E2E_PORT } from '../../playwright.config.ts';
import { openDatabase } from '@api/data/db.ts';
import { signIn, type TestSession } from '../helpers/session.ts';
import { dataPaths } from '@api/config.ts';

export const E2E_DB_FILE = dataPaths(E2E_DATA_DIR).database;

export function readE2eDb<T>(read: (db: Database.Database) => T): T {
  const db = new Database(E2E_DB_FILE, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The first row a query answers. */
export function e2eRow<T>(sql: string, ...params: unknown[]): T {
  return readE2eDb((db) => db.prepare(sql).get(...params) as T);
}

/** Signs the browser context in as a new account of the E2E database (a session row and its cookie). */
export async function signInBrowser(context: BrowserContext, options: Parameters<typeof signIn>[1] = {}): Promise<TestSession> {
  const db = openDatabase(E2E_DB_FILE);
  let session: TestSession;
  try {
    session = await signIn(db, options);
  } finally {
    db.close();
  }
  await context.addCookies([{ name: 'session', value: session.token, url: `http://127.0.0.1:${E2E_PORT}` }]);
  return session;
}
