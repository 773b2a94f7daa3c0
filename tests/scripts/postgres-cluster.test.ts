/**
 * The throwaway PostgreSQL cluster: starts from Debian's package in its own folder (as an unprivileged
 * account when run as root), answers on its port with a UTF-8 locale whose trigrams see Japanese text,
 * and leaves nothing behind when stopped. Without the server programs it says what to install.
 */
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES_MISSING, postgresBinDir, startThrowawayCluster } from '../../scripts/lib/postgres-cluster.ts';

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('throwaway PostgreSQL cluster', () => {
  it('runs PostgreSQL 15 or newer with a UTF-8 locale, and stops without a trace', async () => {
    const cluster = await startThrowawayCluster({ fast: true, database: 'trove_probe' });
    const client = new pg.Client(cluster.url);
    try {
      await client.connect();
      const { rows } = await client.query<{ version: number; ctype: string; db: string }>(
        `SELECT current_setting('server_version_num')::int AS version, current_setting('lc_ctype') AS ctype, current_database() AS db`,
      );
      expect(rows[0].version).toBeGreaterThanOrEqual(150000);
      expect(rows[0].ctype).toBe('C.UTF-8');
      expect(rows[0].db).toBe('trove_probe');
      await client.query('CREATE EXTENSION pg_trgm');
      const trigrams = await client.query<{ n: number }>(`SELECT cardinality(show_trgm('バイノーラル')) AS n`);
      expect(trigrams.rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
      await cluster.stop();
    }
    expect(fs.existsSync(cluster.dir)).toBe(false);
    expect(await refused(cluster.port)).toBe(true);
  }, 60_000);

  it('says what to install when the server programs are missing', () => {
    expect(() => postgresBinDir({ PG_BIN: '/nonexistent/postgresql/bin' })).toThrow(POSTGRES_MISSING);
  });
});
