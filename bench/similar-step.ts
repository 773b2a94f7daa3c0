/**
 * Similar-creators benchmark step (run by `npm run bench -- similar` with DATA_DIR set): generates, once,
 * an archive of 10,000 creators, 5,000 accounts with 50,000 creator favourites and 200,000 posts with
 * tags (each creator draws most of its tags from a few themes of a 500-tag vocabulary), then times in
 * one run: the baseline (reading the job's inputs into memory, which every full recompute has to do),
 * the full recompute (`npm run similar`), and the job after a rebuild that touched 20 creators.
 * Prints one JSON line.
 */
import { migrate, openDatabase, type Db } from '../api/data/db.ts';
import { inTransaction } from '../api/data/store.ts';
import { dataPaths } from '../api/config.ts';
import { addFavoriteCreator } from '../api/data/favorites.ts';
import { recomputeAllSimilar, TouchedCreators, updateSimilar } from '../api/similar/job.ts';
import { memorySource } from '../api/similar/sources.ts';
import { readChangesSince, lastChangeId } from '../api/data/changes.ts';

const CREATORS = 10_000;
const ACCOUNTS = 5_000;
const FAVOURITES = 50_000;
const POSTS = 200_000;
const TAGS = 500;
const THEMES = 50;

/** Deterministic pseudo-random numbers (mulberry32), so every run generates the same archive. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function generate(db: Db): Promise<void> {
  const rng = random(17);
  const int = (n: number) => Math.floor(rng() * n);
  // A theme is 10 tags; a creator has one or two themes; its fans mostly like creators of its themes.
  const themeTags = Array.from({ length: THEMES }, () => Array.from({ length: 10 }, () => `tag${int(TAGS)}`));
  const themesOf = Array.from({ length: CREATORS }, () => (rng() < 0.5 ? [int(THEMES)] : [int(THEMES), int(THEMES)]));
  const byTheme = Array.from({ length: THEMES }, () => [] as number[]);
  themesOf.forEach((themes, creator) => {
    for (const theme of themes) byTheme[theme].push(creator);
  });
  await inTransaction(db, async (db) => {
    const creator = db.prepare(
      "INSERT INTO creators (service, id, name, indexed, updated) VALUES ('patreon', ?, ?, 1600000000, 1700000000)",
    );
    for (let i = 0; i < CREATORS; i += 1) creator.run(`c${i}`, `Creator ${i}`);
    const post = db.prepare(
      "INSERT INTO posts (service, \"user\", id, seq, title, published, added, tags) VALUES ('patreon', ?, ?, ?, '', ?, '2024-01-01T00:00:00', ?)",
    );
    const postTag = db.prepare(
      'INSERT INTO post_tags (service, "user", post_id, tag, published, post_seq) VALUES (\'patreon\', ?, ?, ?, ?, ?)',
    );
    for (let seq = 1; seq <= POSTS; seq += 1) {
      // A long tail: low creator numbers post more.
      const c = Math.floor(CREATORS * rng() ** 1.5);
      const themes = themesOf[c];
      const tags = new Set<string>();
      for (let k = 1 + int(3); k > 0; k -= 1) tags.add(rng() < 0.85 ? themeTags[themes[int(themes.length)]][int(10)] : `tag${int(TAGS)}`);
      const published = new Date(Date.UTC(2020, 0, 1) + seq * 60_000).toISOString().slice(0, 19);
      post.run(`c${c}`, `p${seq}`, seq, published, JSON.stringify([...tags]));
      for (const tag of tags) postTag.run(`c${c}`, `p${seq}`, tag, published, seq);
    }
    const account = db.prepare(
      "INSERT INTO accounts (username, password_hash, role, created_at) VALUES (?, 'x', 'consumer', '2024-01-01T00:00:00')",
    );
    const favourite = db.prepare(
      "INSERT OR IGNORE INTO favorite_creators (account_id, service, creator_id, faved_seq) VALUES (?, 'patreon', ?, ?)",
    );
    const accountIds: number[] = [];
    for (let i = 0; i < ACCOUNTS; i += 1) accountIds.push(Number(account.run(`bench-fan-${i}`).lastInsertRowid));
    const tastes = accountIds.map(() => int(THEMES));
    for (let seq = 1; seq <= FAVOURITES; seq += 1) {
      const who = Math.floor(ACCOUNTS * rng() ** 2);
      const pool = rng() < 0.8 ? byTheme[tastes[who]] : undefined;
      const c = pool && pool.length > 0 ? pool[int(pool.length)] : int(CREATORS);
      favourite.run(accountIds[who], `c${c}`, seq);
    }
    db.prepare("INSERT INTO kv (key, value) VALUES ('seq:faved', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(FAVOURITES),
    );
  });
}

const db = openDatabase(dataPaths().database);
migrate(db);
if ((db.prepare('SELECT count(*) FROM creators').pluck().get() as number) === 0) {
  const started = performance.now();
  await generate(db);
  console.error(`Generated the archive in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}
const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await run();
  return [value, (performance.now() - started) / 1000];
};

const [, baselineSeconds] = await time(() => memorySource(db));
const [full, fullSeconds] = await time(() => recomputeAllSimilar(db));
const listed = db.prepare('SELECT count(*) FROM similar_creators').pluck().get() as number;
const withList = db.prepare('SELECT count(DISTINCT creator_id) FROM similar_creators').pluck().get() as number;

// The job after a rebuild: 20 creators gain a favourite each.
const from = await lastChangeId(db);
const fan = db.prepare('SELECT id FROM accounts ORDER BY id LIMIT 1').pluck().get() as number;
for (let i = 0; i < 20; i += 1) await addFavoriteCreator(db, fan, 'patreon', `c${i * 37}`);
const touched = new TouchedCreators();
for (const change of await readChangesSince(db, from)) touched.add(change);
const jobStarted = performance.now();
const job = await updateSimilar(db, touched);
const jobSeconds = (performance.now() - jobStarted) / 1000;

console.log(
  JSON.stringify({
    creators: CREATORS,
    accounts: ACCOUNTS,
    favourites: FAVOURITES,
    posts: POSTS,
    baselineSeconds,
    fullSeconds,
    fullPerCreatorMs: (fullSeconds * 1000) / full.scored,
    ratioToBaseline: fullSeconds / baselineSeconds,
    rowsStored: listed,
    creatorsWithList: withList,
    job: { touched: touched.scored.size, scored: job.scored, marked: job.marked, seconds: jobSeconds },
  }),
);
db.close();
