/**
 * The similar-creators job after a rebuild: it scores again only the creators the consumed change-log
 * rows touched (and their neighbours), marks the pages whose shown list changed, and the rows it writes
 * start no further run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readChangesSince, lastChangeId } from '@api/data/changes.ts';
import { inTransaction } from '@api/data/store.ts';
import { setKv } from '@api/data/kv.ts';
import { creatorKey, readSimilarList } from '@api/data/similar.ts';
import { removeCreatorRows } from '@api/data/takedowns.ts';
import { LAST_REBUILT_KEY, planRebuild } from '@api/pages/rebuild.ts';
import { recomputeAllSimilar, TouchedCreators, updateSimilar } from '@api/similar/job.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { buildArchive, creator, favourite } from './fixture.ts';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

const ann = creatorKey('fanbox', 'ann');
const cal = creatorKey('patreon', 'cal');

/** What the rebuild loop does: plan a rebuild (which consumes the pending rows), then run the job. */
async function rebuildThenJob() {
  const touched = new TouchedCreators();
  const plan = await planRebuild(t.db, { onChange: (change) => touched.add(change) });
  await setKv(t.db, LAST_REBUILT_KEY, String(plan.upTo));
  return { touched, plan, summary: await updateSimilar(t.db, touched) };
}

function computedAt(service: string, id: string): string[] {
  const rows = t.db.prepare('SELECT computed_at FROM similar_creators WHERE service = ? AND creator_id = ?').all(service, id);
  return (rows as Array<{ computed_at: string }>).map((row) => row.computed_at);
}

describe('the similar-creators job', () => {
  it('scores only the touched creators and their neighbours, and marks their pages once', async () => {
    const { fans } = await buildArchive(t.db);
    await creator(t.db, 'gumroad', 'fay', [['knitting', 'wool']]);
    await creator(t.db, 'gumroad', 'gil', [['knitting', 'wool'], ['wool']]);
    await recomputeAllSimilar(t.db);
    await rebuildThenJob(); // consumes the seeding rows
    // A sentinel date on the lists of creators nobody touches: a rewrite would replace it.
    t.db.prepare("UPDATE similar_creators SET computed_at = '2000-01-01T00:00:00'").run();

    const from = await lastChangeId(t.db);
    // Two of Ann's favouriters favourite Cal: Cal's list and Ann's change; Fay and Gil stay as they were.
    expect((await readSimilarList(t.db, ann)).map((entry) => entry.key)).not.toContain(cal);
    await favourite(t.db, fans[0], 'patreon', 'cal');
    await favourite(t.db, fans[1], 'patreon', 'cal');
    const { touched, summary } = await rebuildThenJob();
    expect([...touched.scored]).toEqual([cal]);
    expect((await readSimilarList(t.db, cal))[0].key).toBe(ann);
    expect((await readSimilarList(t.db, ann)).map((entry) => entry.key)).toContain(cal);
    expect(summary.scored).toBeGreaterThan(0);
    const sentinel = computedAt('gumroad', 'fay').concat(computedAt('gumroad', 'gil'));
    expect(sentinel).toEqual(['2000-01-01T00:00:00', '2000-01-01T00:00:00']);
    expect(computedAt('patreon', 'cal').every((at) => at !== '2000-01-01T00:00:00')).toBe(true);

    // The pages whose shown list changed get a 'similar' row each, and Fay's and Gil's none.
    const marked = (await readChangesSince(t.db, from)).filter((change) => change.kind === 'similar').map((change) => change.creator_id);
    expect(marked).toContain('cal');
    expect(marked).toContain('ann');
    expect(marked).not.toContain('fay');
    expect(marked).not.toContain('gil');

    // The rebuild consuming those rows touches nothing: no further run, no further rows.
    const before = await lastChangeId(t.db);
    const next = await rebuildThenJob();
    expect(next.plan.changes).toBeGreaterThan(0);
    expect(next.touched.size).toBe(0);
    expect(next.summary.scored).toBe(0);
    expect(await lastChangeId(t.db)).toBe(before);
  });

  it('the rebuild plan renders the first posts page of a marked creator', async () => {
    await buildArchive(t.db);
    await rebuildThenJob();
    await recomputeAllSimilar(t.db);
    const plan = await planRebuild(t.db);
    expect(plan.keys).toContain('/fanbox/user/ann');
    expect(plan.keys).not.toContain('/patreon/user/cal');
  });

  it('a taken-down creator leaves every list', async () => {
    await buildArchive(t.db);
    await recomputeAllSimilar(t.db);
    await rebuildThenJob();
    expect((await readSimilarList(t.db, ann)).map((entry) => entry.key)).toContain(creatorKey('fanbox', 'bea'));
    await inTransaction(t.db, async (db) => removeCreatorRows(db, 'fanbox', 'bea'));
    await rebuildThenJob();
    expect((await readSimilarList(t.db, ann)).map((entry) => entry.key)).not.toContain(creatorKey('fanbox', 'bea'));
    expect(t.db.prepare("SELECT count(*) AS n FROM similar_creators WHERE creator_id = 'bea' OR similar_id = 'bea'").get()).toEqual({
      n: 0,
    });
  });

  it('gives the event loop back while it scores, so a server keeps answering', async () => {
    for (let i = 0; i < 24; i += 1) await creator(t.db, 'gumroad', `maker${i}`, [['knitting', 'wool', `pattern${i % 3}`]]);
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    // Every maker's posts were just written: all 24 are touched and scored in this run.
    const { summary } = await rebuildThenJob().then((run) => {
      order.push('job done');
      return run;
    });
    expect(summary.scored).toBeGreaterThanOrEqual(24);
    expect(order).toEqual(['other work', 'job done']);
  });
});
