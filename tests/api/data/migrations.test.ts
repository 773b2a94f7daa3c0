import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { MIGRATIONS } from '@api/data/migrations/index.ts';

describe('migrations', () => {
  let dir: string | undefined;
  let db: Db | undefined;
  afterEach(() => {
    if (db?.open) db.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function fresh(): Db {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-migrate-'));
    db = openDatabase(path.join(dir, 'trove.sqlite'));
    return db;
  }

  it('migrates a fresh database to the latest version', () => {
    const db = fresh();
    const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
    expect(migrate(db)).toEqual({ from: 0, to: latest });
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as { name: string }[]).map(
      (r) => r.name,
    );
    for (const table of [
      'accounts',
      'sessions',
      'creators',
      'posts',
      'post_files',
      'post_tags',
      'post_revisions',
      'comments',
      'comment_revisions',
      'posts_fts',
      'post_popularity',
      'announcements',
      'fancards',
      'dms',
      'files',
      'archive_files',
      'shares',
      'share_files',
      'discord_channels',
      'discord_messages',
      'community_channels',
      'community_messages',
      'favorite_creators',
      'favorite_posts',
      'flags',
      'link_requests',
      'notifications',
      'imports',
      'import_logs',
      'auto_import_keys',
      'changes',
      'kv',
    ]) {
      expect(tables).toContain(table);
    }
  });

  it('is a no-op the second time', () => {
    const db = fresh();
    const first = migrate(db);
    const schema = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    expect(migrate(db)).toEqual({ from: first.to, to: first.to });
    expect(db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()).toEqual(schema);
  });

  it('has versions in increasing order', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('runs with foreign keys on and enforces them', () => {
    const db = fresh();
    migrate(db);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db.prepare(`INSERT INTO posts (service, "user", id, seq, added) VALUES ('fanbox', 'nobody', '1', 1, '2024-01-01T00:00:00')`).run(),
    ).toThrow(/FOREIGN KEY/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});
