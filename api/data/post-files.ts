/**
 * The files a post carries: post_files links a post (by seq) to the sha256 of its file and of each
 * attachment, kept by the post writers; hash search reads it to find the posts that carry a file.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { hashFromPath } from './util.ts';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

/** A file of a post as the writers get it: the sha256 when known, else the one of a content-addressed path. */
export interface PostFileLink {
  path: string;
  hash?: string | null;
}

/** Rows per INSERT: one statement for a post's links, bounded so no engine's parameter limit is reached. */
const LINKS_PER_INSERT = 500;

/**
 * Writes the links of a post's file and attachments (those whose hash is given or can be read from the
 * path). With replace, the post's links are removed first (its file or attachments changed).
 */
export async function setPostFiles(
  db: Store,
  seq: number,
  file: PostFileLink | null,
  attachments: PostFileLink[],
  options: { replace: boolean },
): Promise<void> {
  if (options.replace) await sql`DELETE FROM post_files WHERE post_seq = ${seq}`.execute(db.k);
  const links: { post_seq: number; kind: string; idx: number; hash: string }[] = [];
  const fileHash = file ? (file.hash?.toLowerCase() ?? hashFromPath(file.path)) : null;
  if (fileHash) links.push({ post_seq: seq, kind: 'file', idx: 0, hash: fileHash });
  attachments.forEach((attachment, idx) => {
    const hash = attachment.hash?.toLowerCase() ?? hashFromPath(attachment.path);
    if (hash) links.push({ post_seq: seq, kind: 'attachment', idx, hash });
  });
  for (let start = 0; start < links.length; start += LINKS_PER_INSERT) {
    await db.k
      .insertInto('post_files')
      .values(links.slice(start, start + LINKS_PER_INSERT))
      .execute();
  }
}

/** Summaries of posts whose file or attachments have this sha256 (hash search), newest archived first. */
export async function listPostsWithFile(db: Store, sha256: string, offset = 0, limit = PAGE_SIZE): Promise<PostSummary[]> {
  const { rows } = await sql<SummaryRow>`SELECT ${sql.raw(SUMMARY_COLUMNS)}
       FROM (SELECT DISTINCT post_seq FROM post_files WHERE hash = ${sha256.toLowerCase()} ORDER BY post_seq DESC LIMIT ${limit} OFFSET ${offset}) f
       JOIN posts p ON p.seq = f.post_seq
      ORDER BY p.seq DESC`.execute(db.k);
  return rows.map(toSummary);
}
