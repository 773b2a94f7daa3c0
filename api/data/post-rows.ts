/**
 * How a row of the posts table becomes a post shape: the columns every post query selects, and the
 * mapping of a row to a summary (listings, search, popular, favourites, hash search) or to the full
 * post (post page, revisions). Used by the post modules only.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { htmlToText, parseJson, truncateChars } from './util.ts';
import type { FullPost, Poll, PostEmbed, PostFileRef, PostSummary } from '@shared/shapes/posts.ts';
import type { ArchiveCursor, CreatorCursor } from '@shared/cursor.ts';
import type { PostKey } from './posts.ts';

/**
 * Length of a summary's substring (plain-text characters): one more than a post card shows (50), so a
 * card falling back to the content knows when to cut it and add the ellipsis.
 */
export const SUBSTRING_LENGTH = 51;

/** Columns of a summary, `p` being the posts table: the content's head only (the substring's source). */
export const SUMMARY_COLUMNS = `p.service, p."user", p.id, p.title, substr(p.content, 1, 1000) AS head, p.published,
  p.added, p.edited, p.tags, p.file, p.attachments, p.poll, p.incomplete_rewards, p.embed, p.shared_file`;

const FULL_COLUMNS = `p.service, p."user", p.id, p.seq, p.title, p.content, p.published, p.added, p.edited, p.tags,
  p.file, p.attachments, p.poll, p.incomplete_rewards, p.embed, p.shared_file`;

export interface SummaryRow {
  service: string;
  user: string;
  id: string;
  title: string;
  head: string;
  published: string | null;
  added: string;
  edited: string | null;
  tags: string;
  file: string | null;
  attachments: string;
  poll: string | null;
  incomplete_rewards: string | null;
  embed: string | null;
  shared_file: number;
}

export interface FullRow extends Omit<SummaryRow, 'head'> {
  seq: number;
  content: string;
}

export function toSummary(row: SummaryRow): PostSummary {
  return {
    id: row.id,
    user: row.user,
    service: row.service,
    title: row.title,
    substring: truncateChars(htmlToText(row.head), SUBSTRING_LENGTH),
    published: row.published,
    added: row.added,
    edited: row.edited,
    tags: parseJson<string[]>(row.tags, []),
    file: parseJson<PostFileRef | Record<string, never>>(row.file, {}),
    attachments: parseJson<PostFileRef[]>(row.attachments, []),
    poll: parseJson<Poll | null>(row.poll, null),
    incomplete_rewards: row.incomplete_rewards,
    embed: parseJson<PostEmbed | Record<string, never>>(row.embed, {}),
    shared_file: row.shared_file === 1,
  };
}

export function toFullPost(row: FullRow, neighbours: { prev: string | null; next: string | null }): FullPost {
  return {
    id: row.id,
    user: row.user,
    service: row.service,
    title: row.title,
    content: row.content,
    embed: parseJson<PostEmbed | Record<string, never>>(row.embed, {}),
    shared_file: row.shared_file === 1,
    added: row.added,
    published: row.published,
    edited: row.edited,
    file: parseJson<PostFileRef | Record<string, never>>(row.file, {}),
    attachments: parseJson<PostFileRef[]>(row.attachments, []),
    poll: parseJson<Poll | null>(row.poll, null),
    tags: parseJson<string[]>(row.tags, []),
    incomplete_rewards: row.incomplete_rewards,
    next: neighbours.next,
    prev: neighbours.prev,
  };
}

/** A post's whole row, with the `extra` columns (over `posts p`) when given; undefined when there is no such post. */
export async function getFullRow<Extra extends object = object>(
  db: Store,
  service: string,
  user: string,
  id: string,
  extra?: RawBuilder<unknown>,
): Promise<(FullRow & Extra) | undefined> {
  return (await getFullRowAnd<Extra>(db, service, user, id, extra)).row;
}

/**
 * getFullRow, with `extra` columns that answer even when there is no such post (a removed post has no
 * row but still has its do-not-post entry): the statement reads from a one-row table, and the post's
 * columns are null when it is missing.
 */
export async function getFullRowAnd<Extra extends object>(
  db: Store,
  service: string,
  user: string,
  id: string,
  extra?: RawBuilder<unknown>,
): Promise<{ row: (FullRow & Extra) | undefined; extra: Extra }> {
  const more = extra ? sql`, ${extra}` : sql``;
  const { rows } = await sql<FullRow & Extra>`SELECT ${sql.raw(FULL_COLUMNS)}${more}
    FROM (SELECT 1 AS one) one LEFT JOIN posts p ON p.service = ${service} AND p."user" = ${user} AND p.id = ${id}`.execute(db.k);
  const row = rows[0];
  return { row: row.id === null ? undefined : row, extra: row };
}

/**
 * Column `as` of a query over `posts p`: 1 when `table` holds a row for the post (matched on service,
 * "user" and post_id, which each such table indexes), else 0.
 */
export function postHasRowsColumn(table: string, as: string): RawBuilder<unknown> {
  return sql.raw(`CASE WHEN EXISTS (SELECT 1 FROM ${table} x
    WHERE x.service = p.service AND x."user" = p."user" AND x.post_id = p.id) THEN 1 ELSE 0 END AS ${as}`);
}

/** Post keys per statement of a lookup by many keys: a feed's page of items in one round trip. */
const KEYS_PER_STATEMENT = 50;

/**
 * `keys` in chunks, each as the rows of a VALUES list, for `(service, "user", id) IN (VALUES ...)`: a
 * primary-key probe per key, in one statement per chunk, on both engines.
 */
export function postKeyChunks(keys: readonly PostKey[]): Array<{ keys: readonly PostKey[]; values: RawBuilder<unknown> }> {
  const chunks = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
    const chunk = keys.slice(start, start + KEYS_PER_STATEMENT);
    chunks.push({ keys: chunk, values: sql.join(chunk.map((key) => sql`(${key.service}, ${key.user}, ${key.id})`)) });
  }
  return chunks;
}

/** Summaries of a query selecting SUMMARY_COLUMNS (aliased p). */
export async function summariesOf(db: Store, query: RawBuilder<unknown>): Promise<PostSummary[]> {
  const { rows } = await sql<SummaryRow>`${query}`.execute(db.k);
  return rows.map(toSummary);
}

/** The `n` of a `SELECT count(*) AS n` query. */
export async function countOf(db: Store, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number }>`${query}`.execute(db.k);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The condition of a search page after a cursor, in the search's order: a creator's (published DESC,
 * id DESC, undated last; `t` is post_tags when a tag leads the search) or the archive's (seq DESC). A row
 * comparison with a NULL published is NULL, hence the explicit undated branch. Both engines' searches use it.
 */
export function searchPageAfter(alias: 'p' | 't', cursor: CreatorCursor | ArchiveCursor | undefined): RawBuilder<unknown> | null {
  if (!cursor) return null;
  if ('seq' in cursor) return alias === 't' ? sql`t.post_seq < ${cursor.seq}` : sql`p.seq < ${cursor.seq}`;
  const [published, id] = alias === 't' ? [sql`t.published`, sql`t.post_id`] : [sql`p.published`, sql`p.id`];
  if (cursor.published === null) return sql`(${published} IS NULL AND ${id} < ${cursor.id})`;
  return sql`((${published}, ${id}) < (${cursor.published}, ${cursor.id}) OR ${published} IS NULL)`;
}
