/**
 * posts_words: the short-word index of post search (api/data/search-words.ts), contentless like
 * posts_fts (rowid = posts.seq), filled here for the posts already stored.
 */
import type { Migration } from './index.ts';
import { htmlToText } from '../util.ts';
import { shortWordText } from '../search-words.ts';

const BATCH = 5_000;

const migration: Migration = {
  version: 4,
  name: 'short_words',
  sql: `CREATE VIRTUAL TABLE posts_words USING fts5 (
    text,
    content = '', contentless_delete = 1, detail = 'none',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  );`,
  fill(db) {
    const read = db.prepare('SELECT seq, title, content FROM posts WHERE seq > ? ORDER BY seq LIMIT ?');
    const insert = db.prepare('INSERT INTO posts_words (rowid, text) VALUES (?, ?)');
    let last = -Infinity;
    for (;;) {
      const rows = read.all(last, BATCH) as { seq: number; title: string; content: string }[];
      for (const row of rows) insert.run(row.seq, shortWordText(row.title, htmlToText(row.content)));
      if (rows.length < BATCH) return;
      last = rows[rows.length - 1].seq;
    }
  },
};

export default migration;
