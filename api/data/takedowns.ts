/**
 * The rows of a takedown (api/moderation/takedowns.ts): removing a whole creator or one post with
 * everything that belongs to it, the change-log rows that make the page rebuild drop what showed it,
 * and the file records no remaining row uses. Every function here runs inside the caller's
 * transaction; deleting the files themselves is the caller's job once that transaction has committed.
 *
 * Which files a row "uses": post files (post_files), files named by path in post, revision, DM,
 * announcement and community message text (file, attachments, inline `/data/ab/cd/<hash>.<ext>`
 * images), Discord attachments, share files and fancards.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { recordLinkGroupChanges } from './creators.ts';
import { deletePost } from './posts.ts';

/** What a takedown removed, per kind of row (zero kinds included, so every answer has the same keys). */
export type TakedownCounts = {
  creators: number;
  posts: number;
  post_files: number;
  tags: number;
  revisions: number;
  comments: number;
  comment_revisions: number;
  popularity: number;
  favorite_posts: number;
  flags: number;
  search_rows: number;
  favorite_creators: number;
  dms: number;
  announcements: number;
  fancards: number;
  link_requests: number;
  shares: number;
  share_links: number;
  discord_channels: number;
  discord_messages: number;
  discord_attachments: number;
  community_channels: number;
  community_messages: number;
  icons: number;
  banners: number;
  files: number;
};

export function emptyCounts(): TakedownCounts {
  return {
    creators: 0,
    posts: 0,
    post_files: 0,
    tags: 0,
    revisions: 0,
    comments: 0,
    comment_revisions: 0,
    popularity: 0,
    favorite_posts: 0,
    flags: 0,
    search_rows: 0,
    favorite_creators: 0,
    dms: 0,
    announcements: 0,
    fancards: 0,
    link_requests: 0,
    shares: 0,
    share_links: 0,
    discord_channels: 0,
    discord_messages: 0,
    discord_attachments: 0,
    community_channels: 0,
    community_messages: 0,
    icons: 0,
    banners: 0,
    files: 0,
  };
}

/** File hashes a takedown's rows used, with the extensions their paths gave ('' for none known). */
export type FileUses = Map<string, Set<string>>;

/** A content-addressed path in any text: 'ab/cd/<sha256>' with its extension when it has one. */
const PATH_HASH = /(?<![0-9a-f])([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})(?:\.([a-z0-9]{1,16}))?/g;

function addUse(uses: FileUses, hash: string | null | undefined, ext = ''): void {
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return;
  let exts = uses.get(hash);
  if (!exts) uses.set(hash, (exts = new Set()));
  if (ext) exts.add(`.${ext}`);
}

/** Adds every stored-file path named in `text`. */
export function hashesInText(text: string | null | undefined, uses: FileUses): void {
  if (!text) return;
  for (const match of text.matchAll(PATH_HASH)) {
    if (match[3].startsWith(match[1] + match[2])) addUse(uses, match[3], match[4] ?? '');
  }
}

// Scopes --------------------------------------------------------------------------------------------

/** The posts a takedown removes: a creator's (`post` undefined) or one post. */
interface PostScope {
  where: string;
  args: string[];
}

function postScope(service: string, creatorId: string, postId?: string): PostScope {
  return postId === undefined
    ? { where: 'service = ? AND "user" = ?', args: [service, creatorId] }
    : { where: 'service = ? AND "user" = ? AND id = ?', args: [service, creatorId, postId] };
}

async function count(db: Db, sql: string, ...args: unknown[]): Promise<number> {
  return stmt<{ n: number }>(db, sql).get(...args)?.n ?? 0;
}

/** Counts the rows a post scope removes (before they are removed). */
async function countPostRows(db: Db, scope: PostScope, counts: TakedownCounts): Promise<void> {
  const posts = `(SELECT service, "user", id FROM posts WHERE ${scope.where})`;
  const byPost = (table: string, user = '"user"') =>
    count(db, `SELECT count(*) AS n FROM ${table} WHERE (service, ${user}, post_id) IN ${posts}`, ...scope.args);
  counts.posts += await count(db, `SELECT count(*) AS n FROM posts WHERE ${scope.where}`, ...scope.args);
  counts.search_rows = counts.posts;
  counts.post_files += await count(
    db,
    `SELECT count(*) AS n FROM post_files WHERE post_seq IN (SELECT seq FROM posts WHERE ${scope.where})`,
    ...scope.args,
  );
  counts.tags += await byPost('post_tags');
  counts.revisions += await byPost('post_revisions');
  counts.comments += await byPost('comments');
  counts.comment_revisions += await byPost('comment_revisions');
  counts.popularity += await byPost('post_popularity');
  counts.favorite_posts += await byPost('favorite_posts');
  counts.flags += await byPost('flags');
}

/** The files a post scope's rows use: file links, paths in the posts and their revisions. */
async function postFileUses(db: Db, scope: PostScope, uses: FileUses): Promise<void> {
  const linked = stmt<{ hash: string }>(
    db,
    `SELECT DISTINCT hash FROM post_files WHERE post_seq IN (SELECT seq FROM posts WHERE ${scope.where})`,
  ).all(...scope.args);
  for (const row of linked) addUse(uses, row.hash);
  const posts = stmt<{ content: string; file: string | null; attachments: string }>(
    db,
    `SELECT content, file, attachments FROM posts WHERE ${scope.where}`,
  );
  for (const row of posts.iterate(...scope.args)) {
    hashesInText(row.file, uses);
    hashesInText(row.attachments, uses);
    hashesInText(row.content, uses);
  }
  const revisions = stmt<{ data: string }>(
    db,
    `SELECT data FROM post_revisions WHERE (service, "user", post_id) IN (SELECT service, "user", id FROM posts WHERE ${scope.where})`,
  );
  for (const row of revisions.iterate(...scope.args)) hashesInText(row.data, uses);
}

// One post --------------------------------------------------------------------------------------------

/**
 * Removes one post with its file links, tags, revisions, comments, popularity, favourites, flags and
 * search rows (deletePost: the post and revision pages, its neighbours and the listings are logged).
 * @returns the counts and the files its rows used, or undefined when the post is not there
 */
export async function removePostRows(
  db: Db,
  service: string,
  creatorId: string,
  postId: string,
): Promise<{ counts: TakedownCounts; uses: FileUses } | undefined> {
  const scope = postScope(service, creatorId, postId);
  const counts = emptyCounts();
  const uses: FileUses = new Map();
  await countPostRows(db, scope, counts);
  if (counts.posts === 0) return undefined;
  await postFileUses(db, scope, uses);
  await deletePost(db, service, creatorId, postId);
  return { counts, uses };
}

// A whole creator -------------------------------------------------------------------------------------

/** Shares linked to the creator, split into those it alone is linked to and those shared with others. */
async function creatorShares(db: Db, service: string, creatorId: string): Promise<{ only: number[]; shared: number[] }> {
  const rows = stmt<{ share_id: number; others: number }>(
    db,
    `SELECT sc.share_id, (SELECT count(*) FROM share_creators o WHERE o.share_id = sc.share_id
                             AND NOT (o.service = sc.service AND o.creator_id = sc.creator_id)) AS others
       FROM share_creators sc WHERE sc.service = ? AND sc.creator_id = ? ORDER BY sc.share_id`,
  ).all(service, creatorId);
  return {
    only: rows.filter((r) => r.others === 0).map((r) => r.share_id),
    shared: rows.filter((r) => r.others > 0).map((r) => r.share_id),
  };
}

/** The files of the creator's rows other than posts: DMs, announcements, fancards, shares, chats. */
async function creatorFileUses(db: Db, service: string, creatorId: string, onlyShares: number[], uses: FileUses): Promise<void> {
  for (const row of stmt<{ content: string; file: string | null }>(
    db,
    'SELECT content, file FROM dms WHERE service = ? AND "user" = ?',
  ).iterate(service, creatorId)) {
    hashesInText(row.content, uses);
    hashesInText(row.file, uses);
  }
  for (const row of stmt<{ content: string }>(db, 'SELECT content FROM announcements WHERE service = ? AND user_id = ?').iterate(
    service,
    creatorId,
  )) {
    hashesInText(row.content, uses);
  }
  for (const row of stmt<{ hash: string; ext: string }>(
    db,
    'SELECT x.hash, x.ext FROM fancards f JOIN files x ON x.id = f.file_id WHERE f.service = ? AND f.user_id = ?',
  ).all(service, creatorId)) {
    addUse(uses, row.hash, row.ext.replace(/^\./, ''));
  }
  const shareFiles = stmt<{ hash: string | null }>(db, 'SELECT hash FROM share_files WHERE share_id = ? AND hash IS NOT NULL');
  for (const shareId of onlyShares) for (const row of shareFiles.all(shareId)) addUse(uses, row.hash);
  if (service === 'discord') {
    for (const row of stmt<{ hash: string | null; path: string }>(
      db,
      `SELECT a.hash, a.path FROM discord_attachments a JOIN discord_messages m ON m.id = a.message_id
        WHERE m.channel_id IN (SELECT id FROM discord_channels WHERE server_id = ?)`,
    ).iterate(creatorId)) {
      addUse(uses, row.hash);
      hashesInText(row.path, uses);
    }
  }
  for (const row of stmt<{ attachments: string; embeds: string }>(
    db,
    `SELECT attachments, embeds FROM community_messages
      WHERE channel_id IN (SELECT channel_id FROM community_channels WHERE service = ? AND creator_id = ?)`,
  ).iterate(service, creatorId)) {
    hashesInText(row.attachments, uses);
    hashesInText(row.embeds, uses);
  }
}

/**
 * Removes a creator and everything of it (see docs/product.md, "Takedowns and the do-not-post list"):
 * its posts (each through deletePost), DMs, announcements, fancards, shares it alone is linked to (the
 * link row of shares with other creators), Discord channels and messages of a Discord server, community
 * channels and messages, favourites, link requests, and the creator row; the rest of its link group
 * stays linked. Logs what a rebuild needs to drop or re-render every stored page that showed it.
 * @returns the counts and the files its rows used, or undefined when the creator is not there
 */
export async function removeCreatorRows(
  db: Db,
  service: string,
  creatorId: string,
): Promise<{ counts: TakedownCounts; uses: FileUses; postIds: string[] } | undefined> {
  const creator = stmt<{ relation_id: number | null }>(db, 'SELECT relation_id FROM creators WHERE service = ? AND id = ?').get(
    service,
    creatorId,
  );
  if (!creator) return undefined;
  const counts = emptyCounts();
  const uses: FileUses = new Map();
  const scope = postScope(service, creatorId);
  const shares = await creatorShares(db, service, creatorId);
  await countPostRows(db, scope, counts);
  await postFileUses(db, scope, uses);
  await creatorFileUses(db, service, creatorId, shares.only, uses);

  const postIds = stmt<{ id: string }>(db, 'SELECT id FROM posts WHERE service = ? AND "user" = ?')
    .all(service, creatorId)
    .map((row) => row.id);
  for (const postId of postIds) await deletePost(db, service, creatorId, postId);

  // Shares: a share of this creator alone goes (its page answers 404 at the next rebuild); a share of
  // several creators loses this creator's row and is re-rendered for the others.
  for (const shareId of shares.only) {
    await recordChange(db, { kind: 'share', action: 'delete', service, creator_id: creatorId, ref: String(shareId) });
    counts.shares += stmt(db, 'DELETE FROM shares WHERE id = ?').run(shareId).changes;
  }
  for (const shareId of shares.shared) {
    counts.share_links += stmt(db, 'DELETE FROM share_creators WHERE share_id = ? AND service = ? AND creator_id = ?').run(
      shareId,
      service,
      creatorId,
    ).changes;
    for (const other of stmt<{ service: string; creator_id: string }>(
      db,
      'SELECT service, creator_id FROM share_creators WHERE share_id = ? ORDER BY service, creator_id',
    ).all(shareId)) {
      await recordChange(db, {
        kind: 'share',
        action: 'upsert',
        service: other.service,
        creator_id: other.creator_id,
        ref: String(shareId),
      });
    }
  }

  for (const dm of stmt<{ hash: string }>(db, `SELECT hash FROM dms WHERE service = ? AND "user" = ? AND status = 'approved'`).all(
    service,
    creatorId,
  )) {
    await recordChange(db, { kind: 'dm', action: 'delete', service, creator_id: creatorId, ref: dm.hash });
  }
  counts.dms = stmt(db, 'DELETE FROM dms WHERE service = ? AND "user" = ?').run(service, creatorId).changes;
  counts.announcements = stmt(db, 'DELETE FROM announcements WHERE service = ? AND user_id = ?').run(service, creatorId).changes;
  counts.fancards = stmt(db, 'DELETE FROM fancards WHERE service = ? AND user_id = ?').run(service, creatorId).changes;

  if (service === 'discord') await removeDiscordServer(db, creatorId, counts);
  await removeCommunity(db, service, creatorId, counts);

  counts.favorite_creators = stmt(db, 'DELETE FROM favorite_creators WHERE service = ? AND creator_id = ?').run(service, creatorId).changes;
  counts.link_requests = stmt(
    db,
    'DELETE FROM link_requests WHERE (from_service = ? AND from_id = ?) OR (to_service = ? AND to_id = ?)',
  ).run(service, creatorId, service, creatorId).changes;
  counts.creators = stmt(db, 'DELETE FROM creators WHERE service = ? AND id = ?').run(service, creatorId).changes;
  await recordChange(db, { kind: 'creator', action: 'delete', service, creator_id: creatorId });
  // The rest of its link group no longer lists it.
  await recordLinkGroupChanges(db, creator.relation_id);
  return { counts, uses, postIds };
}

/** A Discord server's channels, messages and attachments; each channel's pages are logged as gone. */
async function removeDiscordServer(db: Db, serverId: string, counts: TakedownCounts): Promise<void> {
  const inServer = 'channel_id IN (SELECT id FROM discord_channels WHERE server_id = ?)';
  counts.discord_messages = await count(db, `SELECT count(*) AS n FROM discord_messages WHERE ${inServer}`, serverId);
  counts.discord_attachments = await count(
    db,
    `SELECT count(*) AS n FROM discord_attachments WHERE message_id IN (SELECT id FROM discord_messages WHERE ${inServer})`,
    serverId,
  );
  for (const channel of stmt<{ id: string }>(db, 'SELECT id FROM discord_channels WHERE server_id = ?').all(serverId)) {
    await recordChange(db, { kind: 'discord', action: 'delete', service: 'discord', creator_id: serverId, ref: channel.id });
  }
  counts.discord_channels = stmt(db, 'DELETE FROM discord_channels WHERE server_id = ?').run(serverId).changes;
  await recordChange(db, { kind: 'discord', action: 'delete', service: 'discord', creator_id: serverId });
}

/** A creator's community channels and messages; each channel's pages are logged as gone. */
async function removeCommunity(db: Db, service: string, creatorId: string, counts: TakedownCounts): Promise<void> {
  counts.community_messages = await count(
    db,
    `SELECT count(*) AS n FROM community_messages
      WHERE channel_id IN (SELECT channel_id FROM community_channels WHERE service = ? AND creator_id = ?)`,
    service,
    creatorId,
  );
  for (const channel of stmt<{ channel_id: string }>(
    db,
    'SELECT channel_id FROM community_channels WHERE service = ? AND creator_id = ?',
  ).all(service, creatorId)) {
    await recordChange(db, { kind: 'community', action: 'delete', service, creator_id: creatorId, ref: channel.channel_id });
  }
  counts.community_channels = stmt(db, 'DELETE FROM community_channels WHERE service = ? AND creator_id = ?').run(
    service,
    creatorId,
  ).changes;
}

// Files ----------------------------------------------------------------------------------------------

/** Whether a remaining file link (post, Discord attachment, share, fancard) names the hash. */
async function linkedByIndex(db: Db, hash: string): Promise<boolean> {
  return !!stmt(
    db,
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM post_files WHERE hash = :hash)
        OR EXISTS (SELECT 1 FROM discord_attachments WHERE hash = :hash)
        OR EXISTS (SELECT 1 FROM share_files WHERE hash = :hash)
        OR EXISTS (SELECT 1 FROM fancards f JOIN files x ON x.id = f.file_id WHERE x.hash = :hash)`,
  ).get({ hash });
}

/**
 * The hashes of `candidates` that remaining rows still name in their text: one pass over each table
 * that can hold paths (only rows that contain a path at all cross into JavaScript).
 */
async function namedInText(db: Db, candidates: Set<string>): Promise<Set<string>> {
  const found: FileUses = new Map();
  const scans: Array<[string, (row: Record<string, string | null>) => void]> = [
    [`SELECT content FROM posts WHERE instr(content, '/data/') > 0`, (row) => hashesInText(row.content, found)],
    ['SELECT data FROM post_revisions', (row) => hashesInText(row.data, found)],
    [
      `SELECT content, file FROM dms WHERE file IS NOT NULL OR instr(content, '/data/') > 0`,
      (row) => {
        hashesInText(row.content, found);
        hashesInText(row.file, found);
      },
    ],
    [`SELECT content FROM announcements WHERE instr(content, '/data/') > 0`, (row) => hashesInText(row.content, found)],
    [
      `SELECT attachments, embeds FROM community_messages WHERE attachments <> '[]' OR embeds <> '[]'`,
      (row) => {
        hashesInText(row.attachments, found);
        hashesInText(row.embeds, found);
      },
    ],
    ['SELECT path FROM discord_attachments WHERE hash IS NULL', (row) => hashesInText(row.path, found)],
  ];
  for (const [sql, read] of scans) {
    for (const row of stmt<Record<string, string | null>>(db, sql).iterate()) read(row);
  }
  return new Set([...found.keys()].filter((hash) => candidates.has(hash)));
}

export interface RemovedFile {
  hash: string;
  /** Extensions to remove from the store ('.png'; '' for a file stored without one). */
  exts: string[];
}

/**
 * Deletes the `files` (and `archive_files`) rows of the used files no remaining row uses, and logs a
 * 'file' delete for each. Call after removing the rows. @returns the files to remove from the store
 * and how many stay because something else uses them
 */
export async function releaseFiles(db: Db, uses: FileUses): Promise<{ removed: RemovedFile[]; kept: number }> {
  const unlinked = new Set<string>();
  for (const hash of uses.keys()) if (!(await linkedByIndex(db, hash))) unlinked.add(hash);
  const named = unlinked.size > 0 ? await namedInText(db, unlinked) : new Set<string>();
  const removed: RemovedFile[] = [];
  for (const hash of unlinked) {
    if (named.has(hash)) continue;
    const exts = new Set(uses.get(hash));
    const row = stmt<{ ext: string }>(db, 'SELECT ext FROM files WHERE hash = ?').get(hash);
    if (row) {
      exts.add(row.ext);
      stmt(db, 'DELETE FROM archive_files WHERE file_hash = ?').run(hash);
      stmt(db, 'DELETE FROM files WHERE hash = ?').run(hash);
      await recordChange(db, { kind: 'file', action: 'delete', ref: hash });
    }
    removed.push({ hash, exts: [...exts] });
  }
  return { removed, kept: uses.size - removed.length };
}

/** Whether a file record exists again (stored anew since the takedown committed): its bytes stay. */
export async function fileRecorded(db: Db, hash: string): Promise<boolean> {
  return !!stmt(db, 'SELECT 1 FROM files WHERE hash = ?').get(hash);
}

/** A post's title (the do-not-post entry keeps it), or undefined when the post is not there. */
export async function postTitle(db: Db, service: string, creatorId: string, postId: string): Promise<string | undefined> {
  return stmt<{ title: string }>(db, 'SELECT title FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(service, creatorId, postId)
    ?.title;
}
