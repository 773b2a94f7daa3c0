/**
 * Takedowns against a real database and a real file store in a temporary DATA_DIR: every row of the
 * creator or post goes, files another row still uses stay, the others go from disk with their
 * thumbnails, the do-not-post entry and the audit line are written, the page rebuild learns about every
 * page that showed it, and a failure half-way leaves everything as it was.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '@api/data/audit-log.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { getCreator, linkedCreators } from '@api/data/creators.ts';
import { isCreatorListed, isPostListed } from '@api/data/do-not-post.ts';
import { getFileByHash } from '@api/data/files.ts';
import { affectedByChanges } from '@api/pages/affected.ts';
import { takedownCreator, takedownPost } from '@api/moderation/takedowns.ts';
import { rowsDigest, tempDb, type TempDb } from '../data/helpers.ts';
import { FILE_NAMES, rows, seedArchive, type FileName, type Seeded } from './takedown-seed.ts';

let t: TempDb | undefined;
afterEach(() => t?.cleanup());

const actor = { id: 1, username: 'boss' };

async function setup(): Promise<{ t: TempDb; seeded: Seeded; deps: { db: TempDb['db']; config: { dataDir: string } } }> {
  t = tempDb();
  const seeded = await seedArchive(t.db, t.dir);
  return { t, seeded, deps: { db: t.db, config: { dataDir: t.dir } } };
}

async function expectFiles(seeded: Seeded, db: TempDb['db'], kept: FileName[], gone: FileName[]): Promise<void> {
  for (const name of kept) {
    expect([name, fs.existsSync(seeded.files[name].disk), !!(await getFileByHash(db, seeded.files[name].hash))]).toEqual([
      name,
      true,
      true,
    ]);
  }
  for (const name of gone) {
    const file = seeded.files[name];
    expect([name, fs.existsSync(file.disk), fs.existsSync(file.thumbnail), !!(await getFileByHash(db, file.hash))]).toEqual([
      name,
      false,
      false,
      false,
    ]);
  }
}

/** Every row of every table, to prove a failed takedown changed nothing. */
function digest(db: TempDb['db']): string {
  return rowsDigest(db, (name) => /^posts_fts|^posts_words/.test(name));
}

describe('removing a creator', () => {
  it('removes every row of it, keeps shared files and deletes the rest from disk', async () => {
    const { t, seeded, deps } = await setup();
    const { db } = t;
    const result = await takedownCreator(deps, 'patreon', '100', 'Owner request', actor);

    const mine = `service = 'patreon' AND "user" = '100'`;
    for (const table of [
      'posts',
      'post_tags',
      'post_revisions',
      'comments',
      'comment_revisions',
      'post_popularity',
      'favorite_posts',
      'flags',
      'dms',
    ]) {
      expect([table, rows(db, table, mine)]).toEqual([table, 0]);
    }
    for (const [table, where] of [
      ['creators', `service = 'patreon' AND id = '100'`],
      ['announcements', `service = 'patreon' AND user_id = '100'`],
      ['fancards', `service = 'patreon' AND user_id = '100'`],
      ['favorite_creators', `service = 'patreon' AND creator_id = '100'`],
      ['share_creators', `service = 'patreon' AND creator_id = '100'`],
      ['community_channels', `creator_id = '100'`],
      ['community_messages', `channel_id = 'ch1'`],
      ['link_requests', `to_id = '100' OR from_id = '100'`],
      ['post_files', `post_seq NOT IN (SELECT seq FROM posts)`],
      ['shares', `id = ${seeded.ownShare}`],
    ] as const) {
      expect([table, rows(db, table, where)]).toEqual([table, 0]);
    }
    // Search rows: the title's word finds only posts that remain.
    if (db.engine === 'sqlite') {
      expect(rows(db, 'posts_fts', `posts_fts MATCH 'Zebrafish'`)).toBe(0);
      expect(rows(db, 'posts_words', `posts_words MATCH 'sketch'`)).toBe(0);
    } else {
      expect(rows(db, 'post_search', `search_lower LIKE '%zebrafish%' OR search_lower LIKE '%sketch%'`)).toBe(0);
    }
    // Tag counts follow: alpha was on both of its posts and the kept one, beta only on its own.
    expect(db.prepare('SELECT tag, post_count FROM tag_counts ORDER BY tag').all()).toEqual([{ tag: 'alpha', post_count: 1 }]);
    // The share of two creators stays with the other one; the other creator is no longer linked.
    expect(db.prepare('SELECT service, creator_id FROM share_creators WHERE share_id = ?').all(seeded.sharedShare)).toEqual([
      { service: 'fanbox', creator_id: '200' },
    ]);
    expect(await getCreator(db, 'fanbox', '200')).toBeDefined();
    expect(await linkedCreators(db, 'fanbox', '200')).toEqual([]);
    expect(rows(db, 'posts', `service = 'fanbox'`)).toBe(1);

    await expectFiles(
      seeded,
      db,
      ['shared', 'textShared', 'sharedShare', 'discord'],
      ['unique', 'archive', 'inline', 'revision', 'dm', 'fancard', 'ownShare', 'community'],
    );
    expect(rows(db, 'archive_files', 'file_hash = ?', seeded.files.archive.hash)).toBe(0);
    expect(fs.existsSync(seeded.icon) || fs.existsSync(seeded.banner)).toBe(false);

    expect(result.files_deleted).toBe(8);
    expect(result.files_kept).toBe(2);
    expect(result.removed).toMatchObject({
      creators: 1,
      posts: 2,
      tags: 3,
      revisions: 1,
      comments: 1,
      comment_revisions: 1,
      popularity: 1,
      favorite_posts: 1,
      flags: 1,
      favorite_creators: 1,
      dms: 1,
      announcements: 1,
      fancards: 1,
      link_requests: 1,
      shares: 1,
      share_links: 1,
      community_channels: 1,
      community_messages: 1,
      icons: 1,
      banners: 1,
      files: 8,
    });
    expect(result.entry).toMatchObject({
      service: 'patreon',
      creator_id: '100',
      post_id: null,
      name: 'Takedown Target',
      reason: 'Owner request',
    });
    expect((await isCreatorListed(db, 'patreon', '100'))?.id).toBe(result.entry.id);
    const [line] = await listAudit(db, {}, { offset: 0, limit: 5 });
    expect(line).toMatchObject({
      actor_id: 1,
      actor_name: 'boss',
      action: 'takedown_creator',
      target: 'patreon/100',
      reason: 'Owner request',
    });
    expect(line.details).toMatchObject({ posts: 2, files: 8 });
  });

  it('logs what makes a rebuild drop or re-render every page that showed it', async () => {
    const { t, seeded } = await setup();
    const before = await lastChangeId(t.db);
    await takedownCreator({ db: t.db, config: { dataDir: t.dir } }, 'patreon', '100', 'Owner request', actor);
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, before));
    const keys = [...affected.render];
    for (const key of [
      '/patreon/user/100',
      '/patreon/user/100/post/p1',
      '/patreon/user/100/post/p2',
      '/patreon/user/100/tags',
      '/patreon/user/100/dms',
      '/patreon/user/100/shares',
      '/patreon/user/100/links',
      '/patreon/user/100/community',
      '/patreon/user/100/community/ch1',
      `/share/${seeded.ownShare}`,
      `/share/${seeded.sharedShare}`,
      '/fanbox/user/200/links',
      '/fanbox/user/200/shares',
      '/posts',
      '/artists',
      '/posts/tags',
      '/dms',
      '/shares',
    ]) {
      expect(keys).toContain(key);
    }
    expect(keys.some((key) => key.startsWith('/patreon/user/100/post/p2/revision/'))).toBe(true);
    expect(keys.some((key) => key.startsWith('/posts/popular'))).toBe(true);
    // Deeper stored pages of its listings and its channel are pruned.
    expect(affected.listings.get('/patreon/user/100')).toBe(0);
    expect(affected.listings.get('/patreon/user/100/community/ch1')).toBe(0);
  });

  it('removes a Discord server with its channels, messages and attachment files', async () => {
    const { t, seeded, deps } = await setup();
    const before = await lastChangeId(t.db);
    const result = await takedownCreator(deps, 'discord', '900', 'Owner request', actor);
    expect(result.removed).toMatchObject({ creators: 1, discord_channels: 1, discord_messages: 1, discord_attachments: 1, files: 1 });
    expect(rows(t.db, 'discord_channels', `server_id = '900'`) + rows(t.db, 'discord_messages') + rows(t.db, 'discord_attachments')).toBe(
      0,
    );
    await expectFiles(seeded, t.db, ['shared'], ['discord']);
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, before));
    expect([...affected.render]).toContain('/discord/server/900/dc1');
    expect(affected.listings.get('/discord/server/900/dc1')).toBe(0);
  });

  it('leaves everything as it was when a step fails', async () => {
    const { t, seeded, deps } = await setup();
    const was = digest(t.db);
    // A real failure at the last step of the transaction: the audit line cannot be written.
    t.db.exec(
      t.db.engine === 'sqlite'
        ? `CREATE TEMP TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk full'); END`
        : `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
           CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
    );
    await expect(takedownCreator(deps, 'patreon', '100', 'Owner request', actor)).rejects.toThrow('disk full');
    expect(digest(t.db)).toBe(was);
    await expectFiles(seeded, t.db, [...FILE_NAMES], []);
    for (const name of FILE_NAMES) expect(fs.existsSync(seeded.files[name].thumbnail)).toBe(true);
    expect(fs.existsSync(seeded.icon)).toBe(true);
    expect(await isCreatorListed(t.db, 'patreon', '100')).toBeUndefined();
  });
});

describe('removing one post', () => {
  it('removes the post and its rows, keeping the creator, its other post and shared files', async () => {
    const { t, seeded, deps } = await setup();
    const result = await takedownPost(deps, 'patreon', '100', 'p1', 'Owner request', actor);
    const p1 = `service = 'patreon' AND "user" = '100' AND post_id = 'p1'`;
    for (const table of ['post_tags', 'post_revisions', 'comments', 'comment_revisions', 'post_popularity', 'favorite_posts', 'flags']) {
      expect([table, rows(t.db, table, p1)]).toEqual([table, 0]);
    }
    expect(rows(t.db, 'posts', `service = 'patreon' AND "user" = '100'`)).toBe(1);
    expect(await getCreator(t.db, 'patreon', '100')).toBeDefined();
    expect(rows(t.db, 'favorite_creators', `creator_id = '100'`)).toBe(1);
    await expectFiles(seeded, t.db, ['shared', 'textShared', 'inline', 'revision', 'dm'], ['unique', 'archive']);
    expect(result).toMatchObject({ files_deleted: 2, files_kept: 2 });
    expect(result.removed).toMatchObject({ posts: 1, tags: 2, comments: 1, flags: 1, favorite_posts: 1, popularity: 1, creators: 0 });
    expect(result.entry).toMatchObject({ post_id: 'p1', name: 'Zebrafish drawing' });
    expect((await isPostListed(t.db, 'patreon', '100', 'p1'))?.id).toBe(result.entry.id);
    expect(await isCreatorListed(t.db, 'patreon', '100')).toBeUndefined();
    expect((await listAudit(t.db, {}, { offset: 0, limit: 1 }))[0]).toMatchObject({
      action: 'takedown_post',
      target: 'patreon/100/post/p1',
    });
  });
});
