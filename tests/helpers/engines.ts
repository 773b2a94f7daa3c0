/**
 * Both engines for the data modules' tests: a real migrated SQLite file and a real PostgreSQL database
 * migrated by the twin migrations, in one throwaway cluster per test file (scripts/lib/postgres-cluster.ts).
 *
 *   const engines = engineDatabases();
 *   describe.each(ENGINES)('widgets on %s', (engine) => {
 *     let db: Store;
 *     beforeEach(async () => { db = await engines.fresh(engine); });
 *     it('...', async () => { ... });
 *   });
 *
 * `fresh` gives an empty migrated database each time (PostgreSQL: a copy of a migrated template).
 */
import { afterAll, beforeAll } from 'vitest';
import { closeStore, postgresPool, postgresStore, type Store } from '@api/data/store.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../scripts/lib/postgres-cluster.ts';
import { tempSqliteDb, type TempDb } from '../api/data/helpers.ts';
import { createMigratedTemplate, databaseUrl, POSTGRES_TEMPLATE } from './test-engine.ts';

export const ENGINES = ['SQLite', 'PostgreSQL'] as const;
export type EngineName = (typeof ENGINES)[number];

export interface Engines {
  /** An empty migrated database on the engine, closed after the file's tests. */
  fresh(engine: EngineName): Promise<Store>;
}

export function engineDatabases(): Engines {
  let cluster: ThrowawayCluster | undefined;
  const opened: { sqlite: TempDb[]; postgres: Store[] } = { sqlite: [], postgres: [] };
  let databases = 0;

  beforeAll(async () => {
    cluster = await startThrowawayCluster({ fast: true });
    await createMigratedTemplate(cluster.url);
  }, 60_000);

  afterAll(async () => {
    for (const store of opened.postgres) await closeStore(store);
    for (const temp of opened.sqlite) temp.cleanup();
    await cluster?.stop();
  });

  return {
    async fresh(engine) {
      if (engine === 'SQLite') {
        const temp = tempSqliteDb();
        opened.sqlite.push(temp);
        return temp.db;
      }
      if (!cluster) throw new Error('engineDatabases: the cluster starts in beforeAll');
      databases += 1;
      const name = `trove_${databases}`;
      const admin = postgresPool(cluster.url, { max: 1 });
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${POSTGRES_TEMPLATE}`);
      await admin.end();
      const store = postgresStore(databaseUrl(cluster.url, name), { max: 4 });
      opened.postgres.push(store);
      return store;
    },
  };
}
