/**
 * The demo archive: seedDemoArchive() fills an (empty) database and DATA_DIR with a deterministic,
 * realistic archive: creators on every paysite, posts in several languages with generated images,
 * zips (one password-protected with a known password, one with an unknown one), revisions,
 * comments, polls, tags, DMs, announcements, fancards, shares, linked creators, a Discord server,
 * Patreon community chats, popularity data, and accounts of each role with fixed credentials.
 *
 * It writes through the data modules, so every write lands in the change log like an import would
 * (one 'creator' row per creator, one 'post' row per post, ...): a rebuild after seeding renders
 * exactly the seeded pages. A scale run (--posts 1000000) therefore also leaves ~1M change rows;
 * `npm run rebuild -- --all` is the cheaper way to render such an archive.
 */
import { hash as argon2Hash } from '@node-rs/argon2';
import type { Store } from '@api/data/store.ts';
import { inTransaction } from '@api/data/store.ts';
import { countCreators, touchCreatorUpdated, upsertCreator } from '@api/data/creators.ts';
import { addPopularity, type PopularityInput } from '@api/data/popular.ts';
import { countPosts, upsertPost, type PostFileInput, type PostInput } from '@api/data/posts.ts';
import { upsertComment } from '@api/data/comments.ts';
import { countFiles } from '@api/data/files.ts';
import { dataPaths } from '@api/config.ts';
import { PAYSITES, hasTab, takesAttachmentThumbnail, type Paysite } from '@shared/paysites/index.ts';
import { createRng, type Rng } from './random.ts';
import { COMMENTER_NAMES, COMMENTS, TAGS, creatorName, handle, pickLanguage, postContent, postTitle, sentence } from './text.ts';
import { creatorId as makeCreatorId, PostIdGenerator } from './ids.ts';
import { createMediaPool, writeCreatorImages, type MediaPool, type PoolFile } from './media.ts';
import { seedExtras, type SeededCreator } from './extras.ts';
import { DAY, iso } from './time.ts';
import { recomputeAllSimilar } from '@api/similar/job.ts';

export const DEFAULT_CREATORS = 30;
export const DEFAULT_POSTS = 800;
export const DEFAULT_SEED = 1;
export const DEFAULT_IMAGES = 40;

/** The fixed demo accounts (printed by the CLI and by `npm start`). */
export const DEMO_ACCOUNTS = [
  { role: 'administrator', username: 'admin', password: 'admin-password' },
  { role: 'moderator', username: 'moderator', password: 'moderator-password' },
  { role: 'consumer', username: 'consumer', password: 'consumer-password' },
] as const;

/** Archive timeline: posts are added between these instants (never "now"). */
export const TIMELINE = { start: Date.UTC(2024, 0, 1), end: Date.UTC(2025, 11, 31, 23, 59, 59) };

export interface SeedProgress {
  phase: 'media' | 'accounts' | 'creators' | 'posts' | 'extras' | 'done';
  done: number;
  total: number;
}

export interface SeedOptions {
  dataDir: string;
  /** Number of creators (default 30; at least 12 puts one on every paysite). */
  creators?: number;
  /** Total number of posts (default 800). */
  posts?: number;
  /** PRNG seed (default 1): the same seed gives the same archive. */
  seed?: number | string;
  /** Size of the generated image pool (default 40). */
  images?: number;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedResult {
  credentials: { role: string; username: string; password: string }[];
  counts: { creators: number; posts: number; files: number };
  seconds: number;
}

const POSTS_PER_TRANSACTION = 5_000;

/** How many creators each paysite gets: an even share, the remainder to random paysites. */
function planServices(rng: Rng, total: number): Paysite[] {
  const services: Paysite[] = [];
  const each = Math.floor(total / PAYSITES.length);
  for (const service of PAYSITES) for (let i = 0; i < each; i += 1) services.push(service);
  const extra = rng.sample(PAYSITES, total - services.length);
  services.push(...extra);
  // Keep the list grouped by paysite order for readable ids; rng decides nothing else here.
  return services.sort((a, b) => PAYSITES.indexOf(a) - PAYSITES.indexOf(b));
}

/**
 * Seeds the demo archive into `db` and options.dataDir (files, video posters, icons, banners). Deterministic for a
 * given seed, creator count and post count (except the two AES-encrypted zips, whose bytes carry a
 * random salt). Default size (30 creators, 800 posts) takes a few seconds; 1,000,000 posts take a
 * few minutes (the image pool is reused, posts are written in transactions of 5,000).
 * Records changes like any other write (see the module comment).
 */
export async function seedDemoArchive(db: Store, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const creatorCount = Math.max(1, options.creators ?? DEFAULT_CREATORS);
  const postCount = Math.max(0, options.posts ?? DEFAULT_POSTS);
  const root = createRng(options.seed ?? DEFAULT_SEED);
  const progress = options.onProgress ?? (() => {});
  const paths = dataPaths(options.dataDir);
  const scale = postCount > 20_000;
  const baseAdded = iso(TIMELINE.start);

  // Media --------------------------------------------------------------------------------------------
  const imageCount = Math.max(3, options.images ?? DEFAULT_IMAGES);
  progress({ phase: 'media', done: 0, total: imageCount });
  const pool = await createMediaPool(db, paths.files, root.fork('media'), {
    imageCount,
    thumbnailsDir: paths.thumbnails,
    added: baseAdded,
    onImage: (done, total) => progress({ phase: 'media', done, total }),
  });

  // Accounts (argon2id hashes computed before any transaction) -------------------------------------
  progress({ phase: 'accounts', done: 0, total: DEMO_ACCOUNTS.length });
  const passwordHashes = await Promise.all(DEMO_ACCOUNTS.map((account) => argon2Hash(account.password)));
  const extraHash = await argon2Hash('demo-password');

  // Creators -----------------------------------------------------------------------------------------
  const creatorRng = root.fork('creators');
  const services = planServices(creatorRng, creatorCount);
  const creators: SeededCreator[] = [];
  progress({ phase: 'creators', done: 0, total: creatorCount });
  await inTransaction(db, async (db) => {
    for (const [index, service] of services.entries()) {
      const userHandle = handle(creatorRng, index);
      const id = makeCreatorId(creatorRng, service, index, userHandle);
      const name = creatorName(creatorRng, index);
      const indexed = Math.floor((TIMELINE.start + creatorRng.int(0, 60) * DAY) / 1000);
      const creator: SeededCreator = { service, id, name, index, postIds: [] };
      await upsertCreator(db, {
        service,
        id,
        name,
        public_id: service === 'fanbox' ? userHandle : service === 'gumroad' ? userHandle : null,
        indexed,
        updated: indexed,
        last_imported: indexed,
      });
      writeCreatorImages(paths, pool, service, id, index);
      creators.push(creator);
    }
  });
  progress({ phase: 'creators', done: creatorCount, total: creatorCount });

  // Posts --------------------------------------------------------------------------------------------
  const posting = creators.filter((c) => c.service !== 'discord');
  await seedPosts(db, root.fork('posts'), posting, pool, postCount, scale, progress);

  // Everything else ----------------------------------------------------------------------------------
  progress({ phase: 'extras', done: 0, total: 1 });
  await seedExtras(db, root.fork('extras'), {
    creators,
    pool,
    accounts: DEMO_ACCOUNTS.map((account, i) => ({ ...account, password_hash: passwordHashes[i] })),
    extraAccountHash: extraHash,
    timeline: TIMELINE,
  });
  progress({ phase: 'extras', done: 1, total: 1 });
  // Similar creators from the demo's favourites and tags, as `npm run similar` scores them.
  await recomputeAllSimilar(db);

  progress({ phase: 'done', done: 1, total: 1 });
  return {
    credentials: DEMO_ACCOUNTS.map(({ role, username, password }) => ({ role, username, password })),
    counts: { creators: await countCreators(db), posts: await countPosts(db), files: await countFiles(db) },
    seconds: (performance.now() - started) / 1000,
  };
}

/** Cumulative weights for picking creators: a few prolific creators, a long tail. */
function creatorPicker(rng: Rng, count: number): () => number {
  const order = rng.shuffle(Array.from({ length: count }, (_, i) => i));
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 0; rank < count; rank += 1) {
    sum += 1 / (rank + 1) ** 0.7;
    cumulative.push(sum);
  }
  return () => {
    const roll = rng.next() * sum;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < roll) lo = mid + 1;
      else hi = mid;
    }
    return order[lo];
  };
}

function fileInput(file: PoolFile): PostFileInput {
  return { name: file.name, path: file.path, hash: file.hash };
}

function pickAttachment(rng: Rng, pool: MediaPool): PoolFile {
  const roll = rng.next();
  if (roll < 0.62) return rng.pick(pool.images);
  if (roll < 0.82) return rng.pick(pool.zips);
  if (roll < 0.92) return rng.pick(pool.videos);
  return rng.pick(pool.documents);
}

async function seedPosts(
  db: Store,
  rng: Rng,
  creators: SeededCreator[],
  pool: MediaPool,
  total: number,
  scale: boolean,
  progress: (p: SeedProgress) => void,
): Promise<void> {
  if (creators.length === 0 || total === 0) return;
  const ids = new PostIdGenerator(rng.fork('ids'));
  const pick = creatorPicker(rng, creators.length);
  const span = TIMELINE.end - TIMELINE.start;
  const step = span / total;
  const rates = scale
    ? { revision: 0.002, comment: 0.005, popularity: 0.05, popularityDays: 3 }
    : { revision: 0.03, comment: 0.12, popularity: 0.4, popularityDays: 6 };
  const lastAdded = new Map<SeededCreator, number>();
  // Posts that must exist for the archive-file pages: a gumroad post per encrypted zip.
  const special = [pool.lockedKnown, pool.lockedUnknown];
  let commentId = 5_000_000;
  // Fewer, larger WAL checkpoints during a bulk load: each checkpoint rewrites the hot index pages.
  const previousCheckpoint = db.sqlite?.pragma('wal_autocheckpoint', { simple: true }) as number | undefined;
  if (scale) db.sqlite?.pragma('wal_autocheckpoint = 131072');
  let popularity: PopularityInput[] = [];
  let revisions: { post: PostInput; at: string }[] = [];
  progress({ phase: 'posts', done: 0, total });

  try {
    for (let start = 0; start < total; start += POSTS_PER_TRANSACTION) {
      const end = Math.min(total, start + POSTS_PER_TRANSACTION);
      await inTransaction(db, async (db) => {
        for (let i = start; i < end; i += 1) {
          // Every creator gets at least one post, then a skewed pick.
          const creator = i < creators.length ? creators[i] : creators[pick()];
          const service = creator.service as Paysite;
          const addedMs = Math.floor(TIMELINE.start + i * step + rng.next() * step * 0.9);
          const publishedMs = Math.max(TIMELINE.start, addedMs - rng.int(0, 3 * DAY));
          const lang = pickLanguage(rng);
          const n = creator.postIds.length + 1;
          const post: PostInput = {
            service,
            user: creator.id,
            id: ids.next(service),
            title: postTitle(rng, lang, n),
            content: postContent(rng, lang, n),
            published: iso(publishedMs),
            added: iso(addedMs),
            edited:
              rng.chance(0.1) && addedMs - publishedMs > 3_600_000 ? iso(publishedMs + rng.int(3_600_000, addedMs - publishedMs)) : null,
            attachments: [],
            tags: hasTab('tags', service) ? rng.sample(TAGS, rng.int(0, 4)) : [],
          };
          // Every 101st post, one of the titles a post card must cut or replace (docs/product.md#post-cards); no
          // random draw, so the rest of the archive stays as it was.
          if (i % 101 === 50) post.title = `${post.title}: ${'a much longer title than a card can show '.repeat(2).trim()}`;
          if (i % 101 === 51) post.title = 'DM';
          if (i % 101 === 52) post.title = '';
          const attachmentOnly = takesAttachmentThumbnail(service) && rng.chance(0.3);
          if (!attachmentOnly && rng.chance(0.85)) post.file = fileInput(rng.pick(pool.images));
          const attachmentCount = attachmentOnly ? rng.int(1, 3) : [0, 0, 0, 0, 1, 1, 1, 2, 2, 3][rng.int(0, 9)];
          const used = new Set<string>();
          for (let a = 0; a < attachmentCount; a += 1) {
            const file = attachmentOnly && a === 0 ? rng.pick(pool.images) : pickAttachment(rng, pool);
            if (used.has(file.hash)) continue;
            used.add(file.hash);
            post.attachments!.push(fileInput(file));
          }
          if (service === 'gumroad' && special.length > 0) post.attachments!.push(fileInput(special.shift()!));
          if (service === 'patreon' && rng.chance(0.04)) {
            const choices = rng.sample(['Cats', 'Dragons', 'Robots', 'Landscapes', 'Portraits', 'Comics'], rng.int(2, 4)).map((text) => ({
              text,
              votes: rng.int(0, 300),
            }));
            post.poll = {
              title: 'What should I draw next?',
              description: rng.chance(0.5) ? 'Vote for the next big piece!' : null,
              choices,
              total_votes: choices.reduce((sum, c) => sum + c.votes, 0),
              created_at: iso(publishedMs),
              closes_at: rng.chance(0.7) ? iso(publishedMs + 7 * DAY) : null,
              allow_multiple: rng.chance(0.3),
            };
          }
          if (rng.chance(0.03)) {
            post.embed = {
              url: `https://www.youtube.com/watch?v=${rng.hex(11)}`,
              subject: `Process video ${n}`,
              description: sentence(rng, lang),
            };
          }
          if ((service === 'patreon' || service === 'fanbox') && rng.chance(0.03)) {
            post.incomplete_rewards = 'Some rewards of this post are locked: upgrade your tier to see them.';
          }
          await upsertPost(db, post);
          creator.postIds.push(post.id);
          lastAdded.set(creator, addedMs);

          if (rng.chance(rates.revision)) {
            // Applied after the batch's inserts: an FTS delete forces a flush of the pending index.
            const at = iso(Math.min(addedMs + DAY, TIMELINE.end));
            revisions.push({
              post: {
                ...post,
                title: `${post.title} (updated)`,
                content: `${post.content}<p>${lang === 'ja' ? '追記：ファイルを更新しました。' : 'Update: files were re-uploaded.'}</p>`,
                edited: at,
              },
              at,
            });
          }
          if (rng.chance(rates.comment)) {
            const count = rng.int(1, 3);
            let firstId: string | null = null;
            for (let c = 0; c < count; c += 1) {
              commentId += rng.int(1, 50);
              const id = String(commentId);
              await upsertComment(
                db,
                {
                  service,
                  user: creator.id,
                  post_id: post.id,
                  id,
                  parent_id: c > 0 && firstId && rng.chance(0.4) ? firstId : null,
                  commenter: String(rng.int(100_000, 999_999)),
                  commenter_name: rng.pick(COMMENTER_NAMES),
                  content: rng.pick(COMMENTS),
                  published: iso(publishedMs + rng.int(60_000, 2 * DAY)),
                  added: iso(addedMs),
                },
                { now: iso(addedMs) },
              );
              firstId ??= id;
            }
          }
          if (rng.chance(rates.popularity)) {
            const days = rng.int(1, rates.popularityDays);
            for (let d = 0; d < days; d += 1) {
              const dayMs = Math.min(publishedMs + d * DAY * rng.int(1, 3), TIMELINE.end);
              popularity.push({
                day: iso(dayMs).slice(0, 10),
                service,
                user: creator.id,
                post_id: post.id,
                favorites: rng.int(0, 40),
                views: rng.int(5, 2000),
              });
            }
          }
        }
        for (const revision of revisions) await upsertPost(db, revision.post, { now: revision.at });
        revisions = [];
        if (popularity.length > 0) {
          await addPopularity(db, popularity);
          popularity = [];
        }
      });
      progress({ phase: 'posts', done: end, total });
      // Let the event loop breathe between transactions (progress bars, signals).
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    if (previousCheckpoint !== undefined) db.sqlite?.pragma(`wal_autocheckpoint = ${previousCheckpoint}`);
  }
  await inTransaction(db, async (db) => {
    for (const [creator, addedMs] of lastAdded) await touchCreatorUpdated(db, creator.service, creator.id, Math.floor(addedMs / 1000));
  });
}
