/**
 * Cluster locks on a real PostgreSQL: two stores over the same database stand for two machines. A
 * leader whose connection is killed (as a dead machine's is, by PostgreSQL) hands its role on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLeadership, tryClusterLock, withClusterLock, type Leadership } from '@api/cluster/locks.ts';
import { closeStore, postgresStore, type Store } from '@api/data/store.ts';
import { engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

function urlOf(db: Store): string {
  const url = db.pool?.options.connectionString;
  if (!url) throw new Error('not a PostgreSQL store');
  return url;
}

/** A promise and its resolve, to hold a lock until the test lets go. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const started: Leadership[] = [];
const others: Store[] = [];
afterEach(async () => {
  for (const leadership of started.splice(0)) await leadership.stop();
  for (const store of others.splice(0)) await closeStore(store);
});

async function twoMachines(): Promise<[Store, Store]> {
  const first = await engines.fresh('PostgreSQL');
  const second = postgresStore(urlOf(first), { max: 2 });
  others.push(second);
  return [first, second];
}

describe('cluster locks on PostgreSQL', () => {
  it('lets one process run at a time: a try skips while another holds the lock, a wait runs after it', async () => {
    const [first, second] = await twoMachines();
    const held = gate();
    const entered = gate();
    const holder = withClusterLock(first, 'page-rebuild', async () => {
      entered.open();
      await held.opened;
      return 'first';
    });
    await entered.opened;
    expect(await tryClusterLock(second, 'page-rebuild', async () => 'second')).toEqual({ ran: false });
    // Another lock's name is not blocked.
    expect(await tryClusterLock(second, 'auto-import', async () => 'other')).toEqual({ ran: true, value: 'other' });

    const order: string[] = [];
    const waiter = withClusterLock(second, 'page-rebuild', async () => order.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual([]);
    order.push('first released');
    held.open();
    expect(await holder).toBe('first');
    await waiter;
    expect(order).toEqual(['first released', 'second']);
    expect(await tryClusterLock(second, 'page-rebuild', async () => 'free again')).toEqual({ ran: true, value: 'free again' });
  });

  it('gives the lock back when the work throws', async () => {
    const [first, second] = await twoMachines();
    await expect(
      withClusterLock(first, 'page-rebuild', async () => {
        throw new Error('render failed');
      }),
    ).rejects.toThrow('render failed');
    expect(await tryClusterLock(second, 'page-rebuild', async () => true)).toEqual({ ran: true, value: true });
  });

  it('hands a leadership to another process when the leader’s connection dies, and stops the old work', async () => {
    const [first] = await twoMachines();
    const url = urlOf(first);
    const events: string[] = [];
    const leadership = (name: string) =>
      startLeadership({
        databaseUrl: url,
        name: 'auto-import',
        retryMs: 150,
        lead: () => {
          events.push(`${name} leads`);
          return () => events.push(`${name} stops`);
        },
      });
    const a = leadership('a');
    started.push(a);
    await expect.poll(() => a.leading).toBe(true);
    const b = leadership('b');
    started.push(b);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(b.leading).toBe(false);
    expect(events).toEqual(['a leads']);

    // PostgreSQL ends the leader's session, as it does when a machine dies: its work stops, and the
    // role goes to whichever process asks first (the old leader too: it is still alive here).
    const { rows } = await first.pool!.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_locks
        WHERE locktype = 'advisory' AND objid = 7465002 AND granted`,
    );
    expect(rows).toEqual([{ killed: true }]);
    await expect.poll(() => events.includes('a stops'), { timeout: 5000 }).toBe(true);
    await expect.poll(() => a.leading || b.leading, { timeout: 5000 }).toBe(true);
    expect(a.leading && b.leading).toBe(false);
    const [winner, other] = a.leading ? [a, b] : [b, a];
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(other.leading).toBe(false);

    // The leader stops for good: the other one takes over.
    await winner.stop();
    expect(winner.leading).toBe(false);
    await expect.poll(() => other.leading, { timeout: 5000 }).toBe(true);
    expect(events.filter((event) => event.endsWith('leads')).length).toBe(events.filter((event) => event.endsWith('stops')).length + 1);
  });

  it('leads at once without a PostgreSQL database (SQLite: one machine)', async () => {
    let stopped = false;
    const alone = startLeadership({ databaseUrl: undefined, name: 'auto-import', lead: () => () => (stopped = true) });
    expect(alone.leading).toBe(true);
    await alone.stop();
    expect(stopped).toBe(true);
    expect(alone.leading).toBe(false);
  });
});
