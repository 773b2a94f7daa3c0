/**
 * The similar-creators job. After each rebuild of the page store (api/pages/rebuild-loop.ts), the
 * creators the consumed change-log rows touched (their favourites or posts changed, or they were taken
 * down) are scored again together with their neighbours (the creators in their old and new lists, and
 * the creators listing them); `npm run similar` scores every creator. A creator whose shown list changed
 * gets a 'similar' change row, so the next rebuild renders its page again; the job ignores those rows,
 * so that rebuild starts no further run.
 */
import type { Change } from '../data/changes.ts';
import { recordChange } from '../data/changes.ts';
import type { Store } from '../data/store.ts';
import { inTransaction } from '../data/store.ts';
import { countPosts } from '../data/posts.ts';
import {
  creatorExists,
  creatorKey,
  creatorsListing,
  deleteCreatorSimilarity,
  pruneGoneSimilarity,
  readSimilarList,
  splitCreatorKey,
  writeSimilarList,
  writeTagProfile,
  type CreatorKey,
  type SimilarEntry,
} from '../data/similar.ts';
import { iterateCreatorKeys } from '../data/creators.ts';
import { SIMILAR_PAGE_CARDS } from '@shared/constants.ts';
import { SIMILAR_LIMITS, similarTo } from './score.ts';
import { databaseSource, freshTagProfile, memorySource } from './sources.ts';

/** What a run of change-log rows asks of the job. */
export class TouchedCreators {
  /** Favourites, posts or tags changed, or the creator is gone: scored again with their neighbours. */
  readonly scored = new Set<CreatorKey>();
  /** Renamed: the pages listing them show the old name until rendered again. */
  readonly renamed = new Set<CreatorKey>();

  add(change: Change): void {
    if (!change.service || !change.creator_id) return;
    const key = creatorKey(change.service, change.creator_id);
    if (change.kind === 'favorite') this.scored.add(key);
    // A post row: its tags may have changed. Neighbour and revision rows change no tag.
    else if (change.kind === 'post' && change.ref === null) this.scored.add(key);
    else if (change.kind === 'creator' && change.action === 'delete') this.scored.add(key);
    else if (change.kind === 'creator' && change.ref === 'renamed') this.renamed.add(key);
  }

  get size(): number {
    return this.scored.size + this.renamed.size;
  }
}

export interface SimilarRunSummary {
  /** Creators whose lists were computed. */
  scored: number;
  /** Creators whose pages were marked for rendering (a 'similar' change row each). */
  marked: number;
  seconds: number;
}

/** The part of a list the creator page shows: a change of it needs the page rendered again. */
function shownPart(list: readonly SimilarEntry[]): string {
  return list
    .slice(0, SIMILAR_PAGE_CARDS)
    .map((entry) => entry.key)
    .join('\u0001');
}

async function markForRender(db: Store, key: CreatorKey): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  await recordChange(db, { kind: 'similar', action: 'upsert', service, creator_id: id });
}

/** Scores the touched creators and their neighbours again and stores their lists. */
/** Creators scored between two returns to the event loop, so a server's requests wait one slice at most. */
const SCORES_PER_SLICE = 10;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rescores the touched creators and their neighbours. It runs inside the server after rebuilds, so the
 * scoring (reads only) gives the event loop back every SCORES_PER_SLICE creators; the writes stay in
 * two short transactions.
 */
export async function updateSimilar(db: Store, touched: TouchedCreators): Promise<SimilarRunSummary> {
  const started = performance.now();
  if (touched.size === 0) return { scored: 0, marked: 0, seconds: 0 };
  const rescore = new Set<CreatorKey>();
  const render = new Set<CreatorKey>();
  const totalPosts = await countPosts(db);
  await inTransaction(db, async (db) => {
    for (const key of touched.scored) {
      const listing = await creatorsListing(db, key, SIMILAR_LIMITS.reverseNeighbours);
      if (!(await creatorExists(db, key))) {
        for (const other of listing) render.add(other);
        await deleteCreatorSimilarity(db, key);
      } else {
        await writeTagProfile(db, key, await freshTagProfile(db, key, totalPosts));
        rescore.add(key);
        for (const entry of await readSimilarList(db, key)) rescore.add(entry.key);
      }
      for (const other of listing) rescore.add(other);
    }
    for (const key of touched.renamed)
      for (const other of await creatorsListing(db, key, SIMILAR_LIMITS.reverseNeighbours)) render.add(other);
  });
  const source = databaseSource(db);
  const lists = new Map<CreatorKey, SimilarEntry[]>();
  // The touched creators first: the creators new in their lists are scored again too.
  const score = async (key: CreatorKey) => {
    await source.load(key);
    const list = similarTo(source, key);
    lists.set(key, list);
    if (lists.size % SCORES_PER_SLICE === 0) await nextTick();
    return list;
  };
  for (const key of touched.scored) {
    if (!rescore.has(key)) continue;
    for (const entry of await score(key)) rescore.add(entry.key);
  }
  for (const key of rescore) if (!lists.has(key) && (await creatorExists(db, key))) await score(key);
  await inTransaction(db, async (db) => {
    for (const [key, list] of lists) {
      if (shownPart(await readSimilarList(db, key)) !== shownPart(list)) render.add(key);
      await writeSimilarList(db, key, list);
    }
    for (const key of render) if (await creatorExists(db, key)) await markForRender(db, key);
  });
  return { scored: lists.size, marked: render.size, seconds: (performance.now() - started) / 1000 };
}

/** Scores every creator (`npm run similar`), in transactions of `batch` creators. */
export async function recomputeAllSimilar(
  db: Store,
  options: { batch?: number; onStart?: (total: number) => void; onProgress?: (done: number) => void } = {},
): Promise<SimilarRunSummary> {
  const started = performance.now();
  const source = await memorySource(db);
  const keys: CreatorKey[] = [];
  for await (const { service, id } of iterateCreatorKeys(db)) keys.push(creatorKey(service, id));
  options.onStart?.(keys.length);
  let marked = 0;
  const batch = options.batch ?? 500;
  for (let from = 0; from < keys.length; from += batch) {
    const part = keys.slice(from, from + batch);
    const lists = part.map((key) => [key, similarTo(source, key)] as const);
    await inTransaction(db, async (db) => {
      for (const [key, list] of lists) {
        await writeTagProfile(db, key, source.tagProfile(key));
        if (shownPart(await readSimilarList(db, key)) !== shownPart(list)) {
          await markForRender(db, key);
          marked += 1;
        }
        await writeSimilarList(db, key, list);
      }
    });
    options.onProgress?.(from + part.length);
  }
  await inTransaction(db, async (db) => pruneGoneSimilarity(db));
  return { scored: keys.length, marked, seconds: (performance.now() - started) / 1000 };
}
