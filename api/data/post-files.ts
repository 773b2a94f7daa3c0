/**
 * The files a post carries: post_files links a post (by seq) to the sha256 of its file and of each
 * attachment, kept by the post writers; hash search reads it to find the posts that carry a file.
 */
import { stmt, type Db } from './db.ts';
import { hashFromPath } from './util.ts';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

/** A file of a post as the writers get it: the sha256 when known, else the one of a content-addressed path. */
export interface PostFileLink {
  path: string;
  hash?: string | null;
}

/**
 * Writes the links of a post's file and attachments (those whose hash is given or can be read from the
 * path). With replace, the post's links are removed first (its file or attachments changed).
 */
export async function setPostFiles(
  db: Db,
  seq: number,
  file: PostFileLink | null,
  attachments: PostFileLink[],
  options: { replace: boolean },
): Promise<void> {
  if (options.replace) stmt(db, 'DELETE FROM post_files WHERE post_seq = ?').run(seq);
  const insertFile = stmt(db, 'INSERT INTO post_files (post_seq, kind, idx, hash) VALUES (?, ?, ?, ?)');
  const fileHash = file ? (file.hash?.toLowerCase() ?? hashFromPath(file.path)) : null;
  if (fileHash) insertFile.run(seq, 'file', 0, fileHash);
  attachments.forEach((attachment, idx) => {
    const hash = attachment.hash?.toLowerCase() ?? hashFromPath(attachment.path);
    if (hash) insertFile.run(seq, 'attachment', idx, hash);
  });
}

/** Summaries of posts whose file or attachments have this sha256 (hash search), newest archived first. */
export async function listPostsWithFile(db: Db, sha256: string, offset = 0, limit = PAGE_SIZE): Promise<PostSummary[]> {
  return stmt<SummaryRow>(
    db,
    `SELECT ${SUMMARY_COLUMNS}
       FROM (SELECT DISTINCT post_seq FROM post_files WHERE hash = ? ORDER BY post_seq DESC LIMIT ? OFFSET ?) f
       JOIN posts p ON p.seq = f.post_seq
      ORDER BY p.seq DESC`,
  )
    .all(sha256.toLowerCase(), limit, offset)
    .map(toSummary);
}
