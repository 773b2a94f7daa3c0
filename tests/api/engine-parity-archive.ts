/**
 * The demo archive on both engines, for the parity tests (tests/api/engine-parity*.test.ts): seeded into
 * a real SQLite file as `npm start` seeds an empty archive (default size), then copied with
 * `copyToPostgres` (`npm run db:copy`) into a real PostgreSQL database of a throwaway cluster, and the
 * seeded DATA_DIR copied for PostgreSQL's side (a takedown deletes files on one side only).
 *
 * Why a copy rather than a second seed: the seed is deterministic except where it cannot be, and those
 * parts would differ between two seeds. 7-Zip draws the AES salt of the two password-protected zips from
 * /dev/urandom and the clock (so their bytes, hashes and file rows differ from run to run), and argon2
 * salts the demo passwords. The copy gives both engines the same rows, so any difference in an answer
 * is the engines'.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataPaths } from '@api/config.ts';
import { copyToPostgres } from '@api/data/copy-to-postgres.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { closeStore, postgresPool, postgresStore, type Store } from '@api/data/store.ts';
import { DEMO_ACCOUNTS, seedDemoArchive } from '../../scripts/seed/index.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../scripts/lib/postgres-cluster.ts';
import { databaseUrl } from '../helpers/test-engine.ts';

export const ENGINE_NAMES = ['SQLite', 'PostgreSQL'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export interface DemoOnBothEngines {
  sqlite: Db;
  postgres: Store;
  dataDirs: Record<EngineName, string>;
  ids: DemoIds;
  close(): Promise<void>;
}

/**
 * A database whose own collation is ICU's en-US, as many a managed PostgreSQL is created (the throwaway
 * cluster's is C.UTF-8, which sorts as SQLite does and would hide a text comparison or ORDER BY that
 * lost its COLLATE "C"). Answers its URL.
 */
async function icuDatabase(clusterUrl: string): Promise<string> {
  const admin = postgresPool(clusterUrl, { max: 1 });
  try {
    await admin.query(
      `CREATE DATABASE trove_parity TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
    );
  } finally {
    await admin.end();
  }
  return databaseUrl(clusterUrl, 'trove_parity');
}

/** The demo accounts the parity tests sign in as, by the name the cases use (their usernames). */
const DEMO_CALLERS = ['consumer', 'moderator', 'admin'] as const;
export type DemoCaller = (typeof DEMO_CALLERS)[number];

/** Signs every demo caller in on a server and answers their Cookie header values. */
export async function signInDemoCallers(origin: string): Promise<Record<DemoCaller, string>> {
  const cookies: Partial<Record<DemoCaller, string>> = {};
  for (const caller of DEMO_CALLERS) cookies[caller] = await signInDemo(origin, caller);
  return cookies as Record<DemoCaller, string>;
}

/** Signs a demo account in on a server (the login route, JSON, same-origin) and answers its Cookie header value. */
async function signInDemo(origin: string, username: string): Promise<string> {
  const password = DEMO_ACCOUNTS.find((account) => account.username === username)?.password;
  const response = await fetch(`${origin}/api/v1/authentication/login`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
  if (response.status !== 200 || !cookie) throw new Error(`${origin}: signing in ${username} answered ${response.status}`);
  const account = (await response.json()) as { username?: string };
  if (account.username !== username) throw new Error(`${origin}: signing in ${username} answered ${account.username}`);
  return cookie.split(';')[0];
}

/** Seeds, copies and opens; `close` undoes what was done even when a step failed. */
export async function demoOnBothEngines(prefix: string): Promise<DemoOnBothEngines> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `trove-${prefix}-`));
  const dataDirs = { SQLite: path.join(dir, 'sqlite'), PostgreSQL: path.join(dir, 'postgres') };
  let sqlite: Db | undefined;
  let cluster: ThrowawayCluster | undefined;
  let postgres: Store | undefined;
  const close = async () => {
    if (postgres) await closeStore(postgres);
    await cluster?.stop();
    sqlite?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const started = startThrowawayCluster({ fast: true });
  try {
    sqlite = openDatabase(dataPaths(dataDirs.SQLite).database);
    migrate(sqlite);
    await seedDemoArchive(sqlite, { dataDir: dataDirs.SQLite });
    const database = path.basename(dataPaths(dataDirs.SQLite).database);
    fs.cpSync(dataDirs.SQLite, dataDirs.PostgreSQL, { recursive: true, filter: (from) => !path.basename(from).startsWith(database) });
    cluster = await started;
    const url = await icuDatabase(cluster.url);
    const pool = postgresPool(url, { max: 2 });
    try {
      await copyToPostgres(sqlite, pool);
    } finally {
      await pool.end();
    }
    postgres = postgresStore(url, { max: 4 });
    return { sqlite, postgres, dataDirs, ids: demoIds(sqlite), close };
  } catch (error) {
    cluster ??= await started.catch(() => undefined);
    await close();
    throw error;
  }
}

/** Ids of the demo archive that the cases call. */
export interface DemoIds {
  /** The showcase post (revisions, comments, poll, many tags) and its creator (the busiest patreon one). */
  showcase: { service: string; user: string; id: string };
  revision: number;
  /** The creator with the most posts (more than one page). */
  busiest: { service: string; id: string };
  /** A creator with linked profiles. */
  linked: { service: string; id: string };
  fanbox: string;
  announced: { service: string; id: string };
  dmCreator: { service: string; id: string };
  sharer: { service: string; id: string };
  similar: { service: string; id: string };
  discordServer: string;
  discordChannel: string;
  community: { creator: string; channel: string };
  share: number;
  /** A plain zip, the zip whose password is stored, and the one whose password is not. */
  zip: string;
  lockedKnown: string;
  lockedUnknown: string;
  image: string;
  importId: string;
  consumerId: number;
  flagged: { service: string; user: string; id: string };
  tag: string;
  /** A word of a post title. */
  word: string;
  popularDay: string;
  /** For the writes: a DM of the consumer's import waiting for review, a creator not linked to the busiest one, the next link request's id, a consumer other than the demo one. */
  pendingDm: string;
  unlinked: { service: string; id: string };
  nextLinkRequest: number;
  otherConsumerId: number;
  /** The creator with the fewest posts (taken down), and the next do-not-post entry's id. */
  smallest: { service: string; id: string };
  nextDoNotPost: number;
  /** Every creator, every Discord channel and community channel, and a sample of the posts. */
  all: {
    creators: { service: string; id: string }[];
    posts: { service: string; user: string; id: string }[];
    discordChannels: string[];
    communityChannels: string[];
    postCount: number;
  };
}

const one = <T>(db: Db, query: string, ...args: unknown[]): T => {
  const row = db.prepare(query).get(...args) as T | undefined;
  if (row === undefined) throw new Error(`the demo archive has nothing for: ${query}`);
  return row;
};

function demoIds(db: Db): DemoIds {
  const showcase = one<{ service: string; user: string; id: string }>(
    db,
    `SELECT service, "user", id FROM posts WHERE title LIKE 'Dragon keep%'`,
  );
  const zip = (required: number, password: 'IS' | 'IS NOT') =>
    one<{ hash: string }>(
      db,
      `SELECT file_hash AS hash FROM archive_files WHERE password_required = ? AND password ${password} NULL ORDER BY file_hash LIMIT 1`,
      required,
    ).hash;
  // The most frequent Latin word of five letters or more in the titles: a search with several pages.
  const words = new Map<string, number>();
  for (const { title } of db.prepare('SELECT title FROM posts').all() as { title: string }[]) {
    for (const word of new Set(title.toLowerCase().match(/[a-z]{5,}/g) ?? [])) words.set(word, (words.get(word) ?? 0) + 1);
  }
  const word = [...words].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  if (!word) throw new Error('the demo archive has no title words');
  return {
    showcase,
    revision: one<{ r: number }>(
      db,
      `SELECT min(revision_id) AS r FROM post_revisions WHERE service = ? AND "user" = ? AND post_id = ?`,
      showcase.service,
      showcase.user,
      showcase.id,
    ).r,
    busiest: one(db, `SELECT service, "user" AS id FROM posts GROUP BY service, "user" ORDER BY count(*) DESC, service, "user" LIMIT 1`),
    linked: one(db, 'SELECT service, id FROM creators WHERE relation_id IS NOT NULL ORDER BY service, id LIMIT 1'),
    fanbox: one<{ id: string }>(db, 'SELECT user_id AS id FROM fancards ORDER BY id LIMIT 1').id,
    announced: one(db, 'SELECT service, user_id AS id FROM announcements ORDER BY service, user_id LIMIT 1'),
    dmCreator: one(
      db,
      `SELECT service, "user" AS id FROM dms WHERE status = 'approved' GROUP BY service, "user" ORDER BY count(*) DESC LIMIT 1`,
    ),
    sharer: one(db, 'SELECT service, creator_id AS id FROM share_creators ORDER BY share_id LIMIT 1'),
    similar: one(db, 'SELECT service, creator_id AS id FROM similar_creators ORDER BY service, creator_id LIMIT 1'),
    discordServer: one<{ id: string }>(db, 'SELECT server_id AS id FROM discord_channels ORDER BY server_id LIMIT 1').id,
    discordChannel: one<{ id: string }>(
      db,
      'SELECT channel_id AS id FROM discord_messages GROUP BY channel_id ORDER BY count(*) DESC LIMIT 1',
    ).id,
    community: one(
      db,
      `SELECT c.creator_id AS creator, c.channel_id AS channel FROM community_channels c
       ORDER BY (SELECT count(*) FROM community_messages m WHERE m.channel_id = c.channel_id) DESC LIMIT 1`,
    ),
    share: one<{ id: number }>(db, 'SELECT min(id) AS id FROM shares').id,
    zip: zip(0, 'IS'),
    lockedKnown: zip(1, 'IS NOT'),
    lockedUnknown: zip(1, 'IS'),
    image: one<{ hash: string }>(db, `SELECT hash FROM files WHERE ext LIKE '%png' ORDER BY id LIMIT 1`).hash,
    importId: one<{ id: string }>(db, 'SELECT id FROM imports ORDER BY id LIMIT 1').id,
    consumerId: one<{ id: number }>(db, `SELECT id FROM accounts WHERE username = 'consumer'`).id,
    flagged: one(db, 'SELECT service, "user", post_id AS id FROM flags ORDER BY id LIMIT 1'),
    tag: one<{ tag: string }>(db, 'SELECT tag FROM post_tags GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 1').tag,
    word,
    popularDay: one<{ day: string }>(db, 'SELECT max(day) AS day FROM post_popularity').day,
    pendingDm: one<{ hash: string }>(db, `SELECT hash FROM dms WHERE status = 'pending' ORDER BY hash LIMIT 1`).hash,
    unlinked: one(
      db,
      'SELECT service, id FROM creators WHERE relation_id IS NULL AND service NOT IN (?, ?) ORDER BY service, id LIMIT 1',
      'discord',
      'patreon',
    ),
    nextLinkRequest: one<{ id: number }>(db, 'SELECT coalesce(max(id), 0) + 1 AS id FROM link_requests').id,
    otherConsumerId: one<{ id: number }>(db, `SELECT id FROM accounts WHERE username = 'kiwi_fan'`).id,
    smallest: one(
      db,
      `SELECT c.service, c.id FROM creators c JOIN posts p ON p.service = c.service AND p."user" = c.id
        GROUP BY c.service, c.id ORDER BY count(*), c.service, c.id LIMIT 1`,
    ),
    nextDoNotPost: one<{ id: number }>(db, 'SELECT coalesce(max(id), 0) + 1 AS id FROM do_not_post').id,
    all: {
      creators: db.prepare('SELECT service, id FROM creators ORDER BY service, id').all() as { service: string; id: string }[],
      // Every 16th post, and every post with revisions.
      posts: db
        .prepare(
          `SELECT service, "user", id FROM posts p WHERE seq % 16 = 0
             OR EXISTS (SELECT 1 FROM post_revisions r WHERE r.service = p.service AND r."user" = p."user" AND r.post_id = p.id)
           ORDER BY seq`,
        )
        .all() as { service: string; user: string; id: string }[],
      discordChannels: (db.prepare('SELECT id FROM discord_channels ORDER BY id').all() as { id: string }[]).map((row) => row.id),
      communityChannels: (db.prepare('SELECT channel_id AS id FROM community_channels ORDER BY channel_id').all() as { id: string }[]).map(
        (row) => row.id,
      ),
      postCount: one<{ n: number }>(db, 'SELECT count(*) AS n FROM posts').n,
    },
  };
}
