/**
 * The text index of post search, kept by the post writers. SQLite: posts_fts (trigrams of the title and
 * the plain text, so words of three or more characters match anywhere) and posts_words (short words,
 * search-words.ts), both contentless, their rowid posts.seq. PostgreSQL: one post_search row per post
 * (a pg_trgm-indexed text and a tsvector of the same short words), keyed by seq.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { htmlToText } from './util.ts';
import { shortWordText, shortWordTokens } from './search-words.ts';

/** Indexes a post's title and content (as plain text) under its seq. */
export async function indexPostText(db: Store, seq: number, title: string, content: string): Promise<void> {
  if (db.engine === 'postgres') {
    const row = postgresSearchRow(title, content);
    await sql`INSERT INTO post_search (seq, search_text, words) VALUES (${seq}, ${row.search_text}, array_to_tsvector(${row.words}::text[]))`.execute(
      db.k,
    );
    return;
  }
  const text = htmlToText(content);
  await sql`INSERT INTO posts_fts (rowid, title, body) VALUES (${seq}, ${title}, ${text})`.execute(db.k);
  await sql`INSERT INTO posts_words (rowid, text) VALUES (${seq}, ${shortWordText(title, text)})`.execute(db.k);
}

/** Removes a post's rows from the index (before indexing it again, or when it is deleted). */
export async function unindexPostText(db: Store, seq: number): Promise<void> {
  if (db.engine === 'postgres') {
    await sql`DELETE FROM post_search WHERE seq = ${seq}`.execute(db.k);
    return;
  }
  await sql`DELETE FROM posts_fts WHERE rowid = ${seq}`.execute(db.k);
  await sql`DELETE FROM posts_words WHERE rowid = ${seq}`.execute(db.k);
}

/**
 * What PostgreSQL's post_search holds for a post, from the same text: `search_text` for trigram
 * substring search (title and plain text on separate lines, so no match spans the two, as FTS5's
 * columns keep them apart) and `words`, the tokens posts_words holds (stored with array_to_tsvector).
 */
export function postgresSearchRow(title: string, content: string): { search_text: string; words: string[] } {
  const text = htmlToText(content);
  return { search_text: `${title}\n${text}`, words: shortWordTokens(title, text) };
}
