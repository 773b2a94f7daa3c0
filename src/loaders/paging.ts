/**
 * Stable paging of the post listings (docs/product.md#stable-paging): a page is chosen by `o` or by the
 * cursor `after` (the last post seen), and its Next link carries both, so a visitor paging while an
 * import adds posts neither skips nor repeats one. `continuesFrom` is the cursor the page starts after:
 * a stored `o` page records it, and the front server serves that stored page to a request whose cursor
 * is the same (api/pages/keys.ts, cursorPageKey).
 */
import { archiveCursorOf } from '@api/data/posts.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { formatArchiveCursor, formatCreatorCursor, withCursor, type ArchiveCursor, type CreatorCursor } from '@shared/cursor.ts';
import { withOffset } from '@shared/urls.ts';
import { archiveCursor, creatorCursor } from '@shared/validation/listings.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import type { Store } from '@api/data/store.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

export interface PostsPage {
  posts: PostSummary[];
  /** The Next link (o and the cursor of the last post), or null when no post follows. */
  next: string | null;
  /** The cursor this page starts after (null on the first page). */
  continuesFrom: string | null;
}

type Kind = 'creator' | 'archive';
type CursorOf<K extends Kind> = K extends 'creator' ? CreatorCursor : ArchiveCursor;

/** Reads `after` with the listing's cursor rule: undefined when absent, or the 400 message. */
export function readCursor<K extends Kind>(kind: K, raw: string | null): { after?: CursorOf<K> } | { error: string } {
  const parsed = (kind === 'creator' ? creatorCursor : archiveCursor).safeParse(raw ?? undefined);
  if (!parsed.success) return { error: firstIssueMessage(parsed.error) };
  return { after: (parsed.data ?? undefined) as CursorOf<K> | undefined };
}

async function cursorText(db: Store, kind: Kind, post: PostSummary): Promise<string | null> {
  if (kind === 'creator') return formatCreatorCursor(post);
  const cursor = await archiveCursorOf(db, post);
  return cursor ? formatArchiveCursor(cursor) : null;
}

/**
 * One page of a listing. `list(offset, limit, after)` is the listing's query (offset ignored with a
 * cursor). Without a cursor, a page past the first reads one post before it (the cursor it continues
 * from) and every page one post after it (whether a Next link is due): one query either way.
 */
export async function pageOfPosts<K extends Kind>(
  db: Store,
  kind: K,
  baseUrl: string,
  offset: number,
  after: CursorOf<K> | undefined,
  list: (offset: number, limit: number, after?: CursorOf<K>) => Promise<PostSummary[]>,
): Promise<PostsPage> {
  let rows: PostSummary[];
  let continuesFrom: string | null = null;
  if (after) {
    rows = await list(0, PAGE_SIZE + 1, after);
    continuesFrom = kind === 'creator' ? formatCreatorCursor(after as CreatorCursor) : formatArchiveCursor(after as ArchiveCursor);
  } else if (offset > 0) {
    rows = await list(offset - 1, PAGE_SIZE + 2);
    const before = rows.shift();
    continuesFrom = before ? await cursorText(db, kind, before) : null;
  } else {
    rows = await list(0, PAGE_SIZE + 1);
  }
  const posts = rows.slice(0, PAGE_SIZE);
  const last = posts[posts.length - 1];
  const cursor = rows.length > PAGE_SIZE && last ? await cursorText(db, kind, last) : null;
  return { posts, next: cursor ? withCursor(withOffset(baseUrl, offset + PAGE_SIZE), cursor) : null, continuesFrom };
}
