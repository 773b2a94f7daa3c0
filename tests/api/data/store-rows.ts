/** Rows for both-engine tests, written through the store's Kysely (the same on SQLite and PostgreSQL). */
import type { Store } from '@api/data/store.ts';

/** A new account. @returns its id */
export async function addAccount(db: Store, username: string): Promise<number> {
  const row = await db.k.insertInto('accounts').values({ username, password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function addCreator(db: Store, service: string, id: string, name = `name of ${id}`): Promise<void> {
  await db.k.insertInto('creators').values({ service, id, name, indexed: 1, updated: 1 }).execute();
}

/** A post; `seq` numbers it in the archive (unique), `added` defaults to a date derived from it. */
export async function addPost(
  db: Store,
  post: {
    service: string;
    user: string;
    id: string;
    seq: number;
    title?: string;
    content?: string;
    added?: string;
    published?: string | null;
  },
): Promise<void> {
  await db.k
    .insertInto('posts')
    .values({
      service: post.service,
      user: post.user,
      id: post.id,
      seq: post.seq,
      title: post.title ?? `title ${post.id}`,
      content: post.content ?? '',
      added: post.added ?? `2030-01-${String(post.seq).padStart(2, '0')}T00:00:00`,
      published: post.published ?? null,
    })
    .execute();
}
