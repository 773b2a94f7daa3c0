/**
 * The two SimilaritySources: one reading the database per creator (the job after a rebuild, which
 * scores a few creators), one holding the whole archive's favourites and tag profiles in memory (the
 * full recompute, which scores them all). Both apply the same caps, so they give the same scores.
 */
import type { Store } from '../data/store.ts';
import { countPosts } from '../data/posts.ts';
import {
  accountFavouriteKeys,
  allTagPostCounts,
  creatorFavouriters,
  creatorsWithTopTag,
  creatorTagCounts,
  iterateAllCreatorTagCounts,
  iterateAllFavourites,
  readTagProfile,
  tagPostCount,
  type CreatorKey,
} from '../data/similar.ts';
import { SIMILAR_LIMITS, candidatesOf, tagProfile, type SimilaritySource } from './score.ts';

/** A creator's tag profile computed from its posts' tags now (the stored one may be older). */
export async function freshTagProfile(db: Store, key: CreatorKey, totalPosts?: number): Promise<Map<string, number>> {
  const counts = await creatorTagCounts(db, key);
  const postsWithTag = new Map<string, number>();
  for (const { tag } of counts) postsWithTag.set(tag, await tagPostCount(db, tag));
  return tagProfile(counts, (tag) => postsWithTag.get(tag) ?? 0, totalPosts ?? (await countPosts(db)));
}

/**
 * A source read from the database, once per creator, account or tag. Scoring is synchronous, so
 * `load(key)` reads beforehand what scoring `key` looks at: the creator's favouriters and tag profile,
 * the favourites of its walked favouriters and the creators of its tags (which make its candidates),
 * then each candidate's favouriters and tag profile.
 */
export function databaseSource(db: Store): SimilaritySource & { load(key: CreatorKey): Promise<void> } {
  const favouriters = new Map<CreatorKey, number[]>();
  const favouriterSets = new Map<CreatorKey, ReadonlySet<number>>();
  const profiles = new Map<CreatorKey, ReadonlyMap<string, number>>();
  const favourites = new Map<number, CreatorKey[]>();
  const tagged = new Map<string, CreatorKey[]>();
  const loadCreator = async (key: CreatorKey) => {
    if (!favouriters.has(key)) {
      const accounts = await creatorFavouriters(db, key, SIMILAR_LIMITS.favouritersScored);
      favouriters.set(key, accounts);
      favouriterSets.set(key, new Set(accounts));
    }
    if (!profiles.has(key)) profiles.set(key, await readTagProfile(db, key));
  };
  const source: SimilaritySource = {
    favouriters: (key) => favouriterSets.get(key) ?? NO_ACCOUNTS,
    walkedFavouriters: (key) => (favouriters.get(key) ?? []).slice(0, SIMILAR_LIMITS.favouritersWalked),
    favouritesOf: (account) => favourites.get(account) ?? [],
    tagProfile: (key) => profiles.get(key) ?? NO_TAGS,
    creatorsWithTag: (tag) => tagged.get(tag) ?? [],
  };
  const load = async (key: CreatorKey) => {
    await loadCreator(key);
    for (const account of source.walkedFavouriters(key))
      if (!favourites.has(account)) favourites.set(account, await accountFavouriteKeys(db, account, SIMILAR_LIMITS.favouritesPerAccount));
    for (const tag of source.tagProfile(key).keys())
      if (!tagged.has(tag)) tagged.set(tag, await creatorsWithTopTag(db, tag, SIMILAR_LIMITS.creatorsPerTag));
    for (const candidate of candidatesOf(source, key)) await loadCreator(candidate);
  };
  return { ...source, load };
}

export interface MemorySource extends SimilaritySource {
  /** Every creator's computed tag profile (the full recompute stores them). */
  profiles: Map<CreatorKey, Map<string, number>>;
}

const NO_TAGS: ReadonlyMap<string, number> = new Map();
const NO_ACCOUNTS: ReadonlySet<number> = new Set();

/** Loads every favourite and every creator's tag counts once; profiles are computed here. */
export async function memorySource(db: Store): Promise<MemorySource> {
  const byCreator = new Map<CreatorKey, { account: number; seq: number }[]>();
  const byAccount = new Map<number, CreatorKey[]>();
  for await (const { account_id, key, faved_seq } of iterateAllFavourites(db)) {
    const creators = byAccount.get(account_id) ?? [];
    if (creators.length === 0) byAccount.set(account_id, creators);
    if (creators.length < SIMILAR_LIMITS.favouritesPerAccount) creators.push(key);
    const accounts = byCreator.get(key) ?? [];
    if (accounts.length === 0) byCreator.set(key, accounts);
    accounts.push({ account: account_id, seq: faved_seq });
  }
  // Newest favourite first per creator, as the database source reads them.
  const newestFirst = new Map<CreatorKey, number[]>();
  for (const [key, accounts] of byCreator)
    newestFirst.set(
      key,
      accounts.sort((a, b) => b.seq - a.seq).map((entry) => entry.account),
    );
  const favouriterSets = new Map<CreatorKey, Set<number>>();
  for (const [key, accounts] of newestFirst) favouriterSets.set(key, new Set(accounts.slice(0, SIMILAR_LIMITS.favouritersScored)));

  const totalPosts = await countPosts(db);
  const postsWithTag = await allTagPostCounts(db);
  const profiles = new Map<CreatorKey, Map<string, number>>();
  let current: CreatorKey | undefined;
  let counts: { tag: string; n: number }[] = [];
  const flush = () => {
    if (current !== undefined && counts.length > 0)
      profiles.set(
        current,
        tagProfile(counts, (tag) => postsWithTag.get(tag) ?? 0, totalPosts),
      );
  };
  for await (const row of iterateAllCreatorTagCounts(db)) {
    if (row.key !== current) {
      flush();
      current = row.key;
      counts = [];
    }
    counts.push({ tag: row.tag, n: row.n });
  }
  flush();
  const byTag = new Map<string, { key: CreatorKey; weight: number }[]>();
  for (const [key, profile] of profiles) {
    for (const [tag, weight] of profile) {
      const list = byTag.get(tag) ?? [];
      if (list.length === 0) byTag.set(tag, list);
      list.push({ key, weight });
    }
  }
  const withTag = new Map<string, CreatorKey[]>();
  for (const [tag, list] of byTag) {
    list.sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : 1));
    withTag.set(
      tag,
      list.slice(0, SIMILAR_LIMITS.creatorsPerTag).map((entry) => entry.key),
    );
  }
  return {
    profiles,
    favouriters: (key) => favouriterSets.get(key) ?? NO_ACCOUNTS,
    walkedFavouriters: (key) => (newestFirst.get(key) ?? []).slice(0, SIMILAR_LIMITS.favouritersWalked),
    favouritesOf: (account) => byAccount.get(account) ?? [],
    tagProfile: (key) => profiles.get(key) ?? NO_TAGS,
    creatorsWithTag: (tag) => withTag.get(tag) ?? [],
  };
}
