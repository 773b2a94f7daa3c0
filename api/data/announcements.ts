/** A creator's announcements (the Announcements tab of fanbox and patreon creators), sanitized like post content. */
import { sql } from 'kysely';
import { recordChange } from './changes.ts';
import type { Store } from './store.ts';
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
  db: Store,
  input: { service: string; user_id: string; hash: string; content: string; published?: string | null; added?: string | null },
): Promise<void> {
  await inTransaction(db, async (db) => {
    await db.k
      .insertInto('announcements')
      .values({
        service: input.service,
        user_id: input.user_id,
        hash: input.hash,
        content: input.content,
        published: input.published ?? null,
        added: input.added ?? nowIso(),
      })
      .onConflict((oc) =>
        oc.columns(['service', 'user_id', 'hash']).doUpdateSet((eb) => ({
          content: eb.ref('excluded.content'),
          published: eb.ref('excluded.published'),
        })),
      )
      .execute();
    await recordChange(db, { kind: 'announcement', action: 'upsert', service: input.service, creator_id: input.user_id, ref: input.hash });
  });
}

/** A creator's announcements, newest first; undated ones last, as SQLite orders NULLs in DESC. */
export async function listAnnouncements(db: Store, service: string, creatorId: string): Promise<Announcement[]> {
  const { rows } = await sql<Announcement>`SELECT service, user_id, hash, content, published, added FROM announcements
      WHERE service = ${service} AND user_id = ${creatorId} ORDER BY published DESC NULLS LAST, added DESC, hash DESC`.execute(db.k);
  return rows;
}
