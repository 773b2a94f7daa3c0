/**
 * The text index of post search, kept by the post writers: posts_fts (trigrams of the title and the
 * plain text, so words of three or more characters match anywhere) and posts_words (short words,
 * search-words.ts). Both are contentless; their rowid is posts.seq.
 */
import { stmt, type Db } from './db.ts';
import { htmlToText } from './util.ts';
import { shortWordText, shortWordTokens } from './search-words.ts';

/** Indexes a post's title and content (as plain text) under its seq. */
export async function indexPostText(db: Db, seq: number, title: string, content: string): Promise<void> {
  const text = htmlToText(content);
  stmt(db, 'INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)').run(seq, title, text);
  stmt(db, 'INSERT INTO posts_words (rowid, text) VALUES (?, ?)').run(seq, shortWordText(title, text));
}

/** Removes a post's rows from both indexes (before indexing it again, or when it is deleted). */
export async function unindexPostText(db: Db, seq: number): Promise<void> {
  stmt(db, 'DELETE FROM posts_fts WHERE rowid = ?').run(seq);
  stmt(db, 'DELETE FROM posts_words WHERE rowid = ?').run(seq);
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
