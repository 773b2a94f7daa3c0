import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { getAccountByUsername } from '@api/data/accounts.ts';
import { getArchiveFile } from '@api/data/archive-files.ts';
import { PAYSITES } from '@shared/paysites/index.ts';
import { dataPaths } from '@api/config.ts';
import { DEMO_ACCOUNTS, seedDemoArchive, type SeedResult } from '../../scripts/seed/index.ts';

const OPTIONS = { creators: 24, posts: 150, seed: 7, images: 6 };

interface Seeded {
  dir: string;
  db: Db;
  result: SeedResult;
}

async function seedInto(options: typeof OPTIONS): Promise<Seeded> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-seed-'));
  const db = openDatabase(dataPaths(dir).database);
  migrate(db);
  const result = await seedDemoArchive(db, { dataDir: dir, ...options });
  return { dir, db, result };
}

function tableCounts(db: Db): Record<string, number> {
  const tables = (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'posts_fts%' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
  return Object.fromEntries(tables.map((name) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
}

const postRows = (db: Db) => db.prepare('SELECT service, "user", id, title, published, added FROM posts ORDER BY seq').all();

describe('seedDemoArchive', () => {
  let a: Seeded;
  let b: Seeded;
  beforeAll(async () => {
    a = await seedInto(OPTIONS);
    b = await seedInto(OPTIONS);
  }, 120_000);
  afterAll(() => {
    for (const s of [a, b]) {
      if (!s) continue;
      s.db.close();
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it('is deterministic for a seed', () => {
    expect(tableCounts(b.db)).toEqual(tableCounts(a.db));
    expect(postRows(b.db)).toEqual(postRows(a.db));
    expect(b.db.prepare('SELECT service, id, name FROM creators ORDER BY service, id').all()).toEqual(
      a.db.prepare('SELECT service, id, name FROM creators ORDER BY service, id').all(),
    );
  });

  it('writes the requested number of creators and posts, on every paysite', () => {
    expect(a.result.counts).toMatchObject({ creators: OPTIONS.creators, posts: OPTIONS.posts });
    const services = (a.db.prepare('SELECT DISTINCT service FROM creators').all() as { service: string }[]).map((r) => r.service);
    for (const paysite of PAYSITES) expect(services).toContain(paysite);
    const postless = a.db
      .prepare(
        `SELECT count(*) AS n FROM creators c WHERE c.service <> 'discord' AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.service = c.service AND p."user" = c.id)`,
      )
      .get() as { n: number };
    expect(postless.n).toBe(0);
  });

  it('creates the demo accounts of each role with their documented passwords', async () => {
    expect(a.result.credentials).toEqual(DEMO_ACCOUNTS.map(({ role, username, password }) => ({ role, username, password })));
    for (const account of DEMO_ACCOUNTS) {
      const stored = (await getAccountByUsername(a.db, account.username))!;
      expect(stored.role).toBe(account.role);
      expect(stored.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verify(stored.password_hash, account.password)).toBe(true);
    }
  });

  it('stores files that exist on disk and hash to their names', () => {
    const files = a.db.prepare('SELECT hash, ext, size FROM files').all() as { hash: string; ext: string; size: number }[];
    expect(files.length).toBeGreaterThanOrEqual(OPTIONS.images + 5);
    const filesDir = dataPaths(a.dir).files;
    for (const file of files) {
      const location = path.join(filesDir, file.hash.slice(0, 2), file.hash.slice(2, 4), `${file.hash}${file.ext}`);
      const bytes = fs.readFileSync(location);
      expect(bytes.length).toBe(file.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.hash);
    }
    // Every post file link points at a stored file.
    const dangling = a.db
      .prepare('SELECT count(*) AS n FROM post_files pf WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = pf.hash)')
      .get() as { n: number };
    expect(dangling.n).toBe(0);
  });

  it('stores real videos (MP4 and WebM, a few KB) with their poster frames as thumbnails', async () => {
    const videos = a.db.prepare("SELECT hash, ext, mime, size FROM files WHERE ext IN ('.mp4', '.webm') ORDER BY ext").all() as {
      hash: string;
      ext: string;
      mime: string;
      size: number;
    }[];
    expect(videos.map((video) => [video.ext, video.mime])).toEqual([
      ['.mp4', 'video/mp4'],
      ['.webm', 'video/webm'],
    ]);
    const { files, thumbnails } = dataPaths(a.dir);
    for (const video of videos) {
      expect(video.size).toBeGreaterThan(2_000);
      expect(video.size).toBeLessThan(50_000);
      const bytes = fs.readFileSync(path.join(files, video.hash.slice(0, 2), video.hash.slice(2, 4), `${video.hash}${video.ext}`));
      // MP4: an ftyp box first; WebM: the EBML header.
      if (video.ext === '.mp4') expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      else expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
      const poster = path.join(thumbnails, video.hash.slice(0, 2), video.hash.slice(2, 4), `${video.hash}.webp`);
      expect((await sharp(poster).metadata()).format).toBe('webp');
    }
  });

  it('seeds the archive features the pages need', async () => {
    const count = (sql: string) => (a.db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM post_revisions')).toBeGreaterThan(0);
    expect(count('SELECT count(*) AS n FROM comment_revisions')).toBeGreaterThan(0);
    expect(count("SELECT count(*) AS n FROM dms WHERE status = 'approved'")).toBeGreaterThan(0);
    expect(count("SELECT count(*) AS n FROM dms WHERE status = 'pending'")).toBeGreaterThan(0);
    expect(count('SELECT count(*) AS n FROM creators WHERE relation_id IS NOT NULL')).toBeGreaterThanOrEqual(2);
    expect(count('SELECT count(*) AS n FROM discord_channels WHERE parent_channel_id IS NOT NULL')).toBeGreaterThan(0);
    expect(count('SELECT count(*) AS n FROM discord_messages')).toBeGreaterThanOrEqual(300);
    expect(count('SELECT count(*) AS n FROM community_messages WHERE deleted_at IS NOT NULL')).toBe(1);
    expect(count("SELECT count(*) AS n FROM link_requests WHERE status = 'pending'")).toBe(1);
    expect(count('SELECT count(*) AS n FROM flags')).toBe(1);
    expect(count('SELECT count(*) AS n FROM post_popularity')).toBeGreaterThan(0);
    const channelsPerCreator = a.db
      .prepare('SELECT count(*) AS n FROM community_channels GROUP BY creator_id ORDER BY n')
      .all()
      .map((r) => (r as { n: number }).n);
    expect(channelsPerCreator).toEqual([1, 3]);
    const archives = a.db.prepare('SELECT file_hash FROM archive_files WHERE password_required = 1 ORDER BY password IS NULL').all() as {
      file_hash: string;
    }[];
    expect(archives).toHaveLength(2);
    expect((await getArchiveFile(a.db, archives[0].file_hash))?.password).toBe('trove-demo');
    expect((await getArchiveFile(a.db, archives[1].file_hash))?.password).toBe('');
    // Seeding records changes like any other write.
    expect(count("SELECT count(*) AS n FROM changes WHERE kind = 'post' AND action = 'upsert'")).toBeGreaterThanOrEqual(OPTIONS.posts);
  });

  it('gives another archive for another seed', async () => {
    const c = await seedInto({ ...OPTIONS, seed: 8 });
    try {
      expect(postRows(c.db)).not.toEqual(postRows(a.db));
    } finally {
      c.db.close();
      fs.rmSync(c.dir, { recursive: true, force: true });
    }
  }, 60_000);
});
