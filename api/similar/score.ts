/**
 * How similar two creators are (docs/product.md#similar-creators): a weighted sum of the cosine of their
 * favouriter sets and the cosine of their tag profiles (tf-idf weights of each creator's top tags).
 * Both parts are symmetric, so the score is too. Every input is capped (SIMILAR_LIMITS), which bounds
 * the work for one creator whatever the archive's size (docs/decisions.md#similar-creators).
 */
import type { CreatorKey, SimilarEntry } from '../data/similar.ts';

export const SIMILAR_LIMITS = {
  /** A creator's list: at most this many, each scoring at least `threshold`. */
  topK: 12,
  threshold: 0.05,
  /** Weights of the two parts (they sum to 1, so a score is between 0 and 1). */
  favouriterWeight: 0.6,
  tagWeight: 0.4,
  /** The newest favouriters of a creator that the favouriter cosine compares. */
  favouritersScored: 500,
  /** Candidates: the newest favouriters walked, and the newest favourites taken from each. */
  favouritersWalked: 200,
  favouritesPerAccount: 100,
  /** Tags: a creator's profile keeps its top tags; each of them brings the creators it weighs most in. */
  topTags: 20,
  creatorsPerTag: 100,
  /** Candidates scored for one creator (those sharing the most favouriters and top tags). */
  candidates: 200,
  /** Creators listing a changed creator whose lists are recomputed with it, highest score first. */
  reverseNeighbours: 24,
} as const;

/** What scoring reads; the job gives it from the database (one creator) or from memory (all of them). */
export interface SimilaritySource {
  /** At most favouritersScored accounts. */
  favouriters(key: CreatorKey): ReadonlySet<number>;
  /** The accounts whose favourites bring candidates (at most favouritersWalked). */
  walkedFavouriters(key: CreatorKey): Iterable<number>;
  /** At most favouritesPerAccount creators. */
  favouritesOf(account: number): readonly CreatorKey[];
  /** Tag → weight, unit length, at most topTags tags. */
  tagProfile(key: CreatorKey): ReadonlyMap<string, number>;
  /** At most creatorsPerTag creators. */
  creatorsWithTag(tag: string): readonly CreatorKey[];
}

/**
 * A creator's tag profile from its per-tag post counts: weight (1 + ln n) × ln(1 + P / postsWithTag),
 * the top `topTags` by weight, scaled to unit length.
 */
export function tagProfile(
  counts: readonly { tag: string; n: number }[],
  postsWithTag: (tag: string) => number,
  totalPosts: number,
): Map<string, number> {
  const weighted = counts
    .map(({ tag, n }) => ({ tag, weight: (1 + Math.log(n)) * Math.log(1 + Math.max(totalPosts, 1) / Math.max(postsWithTag(tag), 1)) }))
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.tag < b.tag ? -1 : 1))
    .slice(0, SIMILAR_LIMITS.topTags);
  const norm = Math.hypot(...weighted.map((entry) => entry.weight));
  return new Map(weighted.map((entry) => [entry.tag, entry.weight / norm]));
}

function favouriterCosine(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const account of small) if (large.has(account)) shared += 1;
  return shared / Math.sqrt(a.size * b.size);
}

function tagCosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [tag, weight] of a) dot += weight * (b.get(tag) ?? 0);
  return dot;
}

/** The score of a pair (symmetric), rounded to 6 decimals so that both directions store the same number. */
export function pairScore(source: SimilaritySource, a: CreatorKey, b: CreatorKey): number {
  const favourites = favouriterCosine(source.favouriters(a), source.favouriters(b));
  const tags = tagCosine(source.tagProfile(a), source.tagProfile(b));
  return Math.round((SIMILAR_LIMITS.favouriterWeight * favourites + SIMILAR_LIMITS.tagWeight * tags) * 1e6) / 1e6;
}

/** The candidates of a creator: creators sharing a walked favouriter or a top tag, the most shared first. */
export function candidatesOf(source: SimilaritySource, key: CreatorKey): CreatorKey[] {
  const shared = new Map<CreatorKey, number>();
  const bump = (other: CreatorKey) => shared.set(other, (shared.get(other) ?? 0) + 1);
  for (const account of source.walkedFavouriters(key)) for (const other of source.favouritesOf(account)) bump(other);
  for (const tag of source.tagProfile(key).keys()) for (const other of source.creatorsWithTag(tag)) bump(other);
  shared.delete(key);
  return [...shared]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, SIMILAR_LIMITS.candidates)
    .map(([other]) => other);
}

/** A creator's list: its candidates scoring at least the threshold, best first, at most topK. */
export function similarTo(source: SimilaritySource, key: CreatorKey): SimilarEntry[] {
  return candidatesOf(source, key)
    .map((other) => ({ key: other, score: pairScore(source, key, other) }))
    .filter((entry) => entry.score >= SIMILAR_LIMITS.threshold)
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
    .slice(0, SIMILAR_LIMITS.topK);
}
