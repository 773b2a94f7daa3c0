/** A creator's announcements (the Announcements tab of fanbox and patreon creators), sanitized like post content. */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { inTransaction, nowIso } from './util.ts';

export interface Announcement {
  service: string;
  user_id: string;
  hash: string;
  content: string;
  published: string | null;
  added: string;
}

/** Inserts or updates an announcement. Records an 'announcement' change. */
export async function upsertAnnouncement(
  db: Db,
  input: { service: string; user_id: string; hash: string; content: string; published?: string | null; added?: string | null },
): Promise<void> {
  await inTransaction(db, async (db) => {
    stmt(
      db,
      `INSERT INTO announcements (service, user_id, hash, content, published, added) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (service, user_id, hash) DO UPDATE SET content = excluded.content, published = excluded.published`,
    ).run(input.service, input.user_id, input.hash, input.content, input.published ?? null, input.added ?? nowIso());
    await recordChange(db, { kind: 'announcement', action: 'upsert', service: input.service, creator_id: input.user_id, ref: input.hash });
  });
}

/** A creator's announcements, newest first. */
export async function listAnnouncements(db: Db, service: string, creatorId: string): Promise<Announcement[]> {
  return stmt<Announcement>(
    db,
    `SELECT service, user_id, hash, content, published, added FROM announcements
      WHERE service = ? AND user_id = ? ORDER BY published DESC, added DESC, hash DESC`,
  ).all(service, creatorId);
}
