/** Similar creators' scores on a hand-built archive: what ranks first, symmetry, no self, and the caps. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { creatorKey, readSimilarList } from '@api/data/similar.ts';
import { recomputeAllSimilar } from '@api/similar/job.ts';
import { SIMILAR_LIMITS, candidatesOf, pairScore, similarTo } from '@api/similar/score.ts';
import { databaseSource, memorySource } from '@api/similar/sources.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { account, buildArchive, creator, favourite } from './fixture.ts';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

const ann = creatorKey('fanbox', 'ann');
const bea = creatorKey('fanbox', 'bea');
const cal = creatorKey('patreon', 'cal');
const dee = creatorKey('fanbox', 'dee');

describe('similar creators scores', () => {
  it('ranks two creators sharing favouriters and tags above unrelated ones, never the creator itself', async () => {
    await buildArchive(t.db);
    const source = await memorySource(t.db);
    const list = similarTo(source, ann);
    expect(list[0].key).toBe(bea);
    // Three shared favouriters of three each (cosine 1) and mostly shared tags.
    expect(list[0].score).toBeGreaterThan(0.8);
    expect(list.map((entry) => entry.key)).not.toContain(ann);
    expect(list.map((entry) => entry.key)).not.toContain(cal);
    expect(pairScore(source, ann, cal)).toBe(0);
    // Dee shares one tag only: listed, but below Bea.
    expect(pairScore(source, ann, dee)).toBeGreaterThan(0);
    expect(pairScore(source, ann, dee)).toBeLessThan(list[0].score);
    expect(similarTo(source, cal)).toEqual([]);
  });

  it('is symmetric, and the stored lists agree in both directions', async () => {
    await buildArchive(t.db);
    const source = await memorySource(t.db);
    for (const [a, b] of [
      [ann, bea],
      [ann, dee],
      [bea, dee],
      [ann, cal],
    ])
      expect(pairScore(source, a, b)).toBe(pairScore(source, b, a));
    await recomputeAllSimilar(t.db);
    const annToBea = (await readSimilarList(t.db, ann)).find((entry) => entry.key === bea);
    const beaToAnn = (await readSimilarList(t.db, bea)).find((entry) => entry.key === ann);
    expect(annToBea?.score).toBeGreaterThan(0);
    expect(annToBea?.score).toBe(beaToAnn?.score);
  });

  it('scores the same from the database as from memory', async () => {
    await buildArchive(t.db);
    await recomputeAllSimilar(t.db);
    const memory = await memorySource(t.db);
    const database = databaseSource(t.db);
    for (const key of [ann, bea, cal, dee]) {
      await database.load(key);
      expect(similarTo(database, key)).toEqual(similarTo(memory, key));
    }
  });

  it('keeps at most topK per creator and walks at most favouritesPerAccount favourites of one account', async () => {
    const fan = await account(t.db);
    await creator(t.db, 'fanbox', 'star');
    await favourite(t.db, fan, 'fanbox', 'star');
    const others = SIMILAR_LIMITS.favouritesPerAccount + 30;
    for (let i = 0; i < others; i += 1) {
      await creator(t.db, 'patreon', `p${i}`);
      await favourite(t.db, fan, 'patreon', `p${i}`);
    }
    const source = await memorySource(t.db);
    const candidates = candidatesOf(source, creatorKey('fanbox', 'star'));
    expect(candidates.length).toBeLessThanOrEqual(SIMILAR_LIMITS.favouritesPerAccount);
    // The newest favourites are the ones walked: the last favourited creator is a candidate, the first is not.
    expect(candidates).toContain(creatorKey('patreon', `p${others - 1}`));
    expect(candidates).not.toContain(creatorKey('patreon', 'p0'));
    const list = similarTo(source, creatorKey('fanbox', 'star'));
    expect(list).toHaveLength(SIMILAR_LIMITS.topK);
    expect(list.every((entry) => entry.score >= SIMILAR_LIMITS.threshold)).toBe(true);
    const database = databaseSource(t.db);
    await database.load(creatorKey('fanbox', 'star'));
    expect(similarTo(database, creatorKey('fanbox', 'star'))).toHaveLength(SIMILAR_LIMITS.topK);
  });
});
