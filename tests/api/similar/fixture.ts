/** A small hand-built archive for the similar-creators tests: who favourites whom, and the posts' tags. */
import { createAccount } from '@api/data/accounts.ts';
import { upsertCreator } from '@api/data/creators.ts';
import type { Db } from '@api/data/db.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { upsertPost } from '@api/data/posts.ts';

let accounts = 0;

export async function account(db: Db): Promise<number> {
  accounts += 1;
  return (await createAccount(db, { username: `fan${accounts}`, password_hash: 'x' })).id;
}

/** A creator with one post per tag list. */
export async function creator(db: Db, service: string, id: string, tagLists: string[][] = []): Promise<void> {
  await upsertCreator(db, { service, id, name: `Creator ${id}` });
  for (const [i, tags] of tagLists.entries()) {
    await upsertPost(db, {
      service,
      user: id,
      id: `${id}-${i}`,
      title: `Post ${i}`,
      tags,
      published: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00`,
    });
  }
}

export async function favourite(db: Db, accountId: number, service: string, id: string): Promise<void> {
  await addFavoriteCreator(db, accountId, service, id);
}

/**
 * Ann and Bea (fanbox) share three favouriters and their tags (cats, forest); Cal (patreon) shares
 * neither with them; Dee (fanbox) has one cats post and no favouriter yet.
 */
export async function buildArchive(db: Db): Promise<{ fans: number[] }> {
  await creator(db, 'fanbox', 'ann', [['cats', 'forest'], ['cats'], ['forest', 'watercolour']]);
  await creator(db, 'fanbox', 'bea', [['cats', 'forest'], ['forest'], ['cats', 'ink']]);
  await creator(db, 'patreon', 'cal', [['cars', 'engines'], ['engines']]);
  await creator(db, 'fanbox', 'dee', [['cats', 'robots'], ['robots']]);
  const fans = [await account(db), await account(db), await account(db), await account(db)];
  for (const fan of fans.slice(0, 3)) {
    await favourite(db, fan, 'fanbox', 'ann');
    await favourite(db, fan, 'fanbox', 'bea');
  }
  await favourite(db, fans[3], 'patreon', 'cal');
  return { fans };
}
