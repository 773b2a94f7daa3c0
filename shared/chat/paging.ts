/**
 * Paging of Discord channels and Patreon community channels (docs/product.md#page-sizes-and-paging: 150 per
 * step), shared by the API and the chat pages. Browser-safe.
 *
 * What `o` means, everywhere (API `?o=` and page `?o=`): how many of the channel's NEWEST messages are
 * skipped. Messages are listed newest first, so `o=0` is the latest 150 messages, `o=150` the 150
 * before them, and so on; "Older" adds 150, "Newer" takes 150 away.
 *
 * - API: `o` must be a whole, non-negative multiple of 150 (parseChatOffset; the message is the
 *   general rule's, 'Offset 100 is not a multiple of 150.'). An offset past the end answers [].
 * - Pages: parse `o` with parseChatOffset too (same 400 text), then pass it through chatPageOffset, which
 *   applies the rounding rule of docs/product.md#page-sizes-and-paging: the offset is rounded down to a
 *   multiple of 150 from the channel's post_count minus the offset, so an offset at or past the end
 *   (post_count - o <= 0, e.g. a stale link after messages were removed) lands on the oldest page instead of
 *   an empty one.
 *   A page that gets a different value back should redirect to it (one canonical URL per page).
 * - Linking to a message: chatOffsetForPosition(position) with the message's zero-based position in
 *   the newest-first listing gives the offset of the page that holds it.
 */
import { CHAT_PAGE_SIZE } from '../constants.ts';
import { chatOffset } from '../validation/chat.ts';

export type ChatOffsetResult = { ok: true; offset: number } | { ok: false; error: string };

/**
 * Validates a raw `o` (query value: string, repeated parameter, number or missing). Missing or empty
 * is 0. Failures carry the general offset message with 150 as the step ('Offset X is not a multiple of 150.').
 */
export function parseChatOffset(raw: unknown): ChatOffsetResult {
  const result = chatOffset.safeParse(raw);
  if (result.success) return { ok: true, offset: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'Invalid offset.' };
}

/** Offset of the oldest page of a channel of `postCount` messages (0 for an empty channel). */
export function lastChatOffset(postCount: number): number {
  if (postCount <= 0) return 0;
  return Math.floor((postCount - 1) / CHAT_PAGE_SIZE) * CHAT_PAGE_SIZE;
}

/**
 * The rule of docs/product.md#page-sizes-and-paging: the page offset for a requested `o` (any non-negative
 * whole number): rounded down to a multiple of 150, and, when post_count - o leaves nothing to show, the oldest
 * page.
 */
export function chatPageOffset(postCount: number, o: number): number {
  const requested = Number.isFinite(o) && o > 0 ? Math.floor(o) : 0;
  if (postCount - requested <= 0) return lastChatOffset(postCount);
  return Math.floor(requested / CHAT_PAGE_SIZE) * CHAT_PAGE_SIZE;
}

/** Offset of the page holding the message at this zero-based position of the newest-first listing. */
export function chatOffsetForPosition(position: number): number {
  return Math.floor(Math.max(0, position) / CHAT_PAGE_SIZE) * CHAT_PAGE_SIZE;
}

/**
 * "Older": the next 150 back, or null when this page is the oldest. `pageLength` (messages on this
 * page) is optional: a page holding fewer than 150 is the last one whatever post_count says, which is
 * the community rule ('Older disabled when a page holds fewer than 150').
 */
export function olderOffset(postCount: number, offset: number, pageLength?: number): number | null {
  if (pageLength !== undefined && pageLength < CHAT_PAGE_SIZE) return null;
  const next = offset + CHAT_PAGE_SIZE;
  return next < postCount ? next : null;
}

/** "Newer": the 150 after this page, or null on the newest page. */
export function newerOffset(offset: number): number | null {
  return offset > 0 ? Math.max(0, offset - CHAT_PAGE_SIZE) : null;
}

export interface ChatPaging {
  /** The page's offset (after chatPageOffset). */
  offset: number;
  older: number | null;
  newer: number | null;
}

/** Everything a channel page needs for its Older/Newer buttons. */
export function chatPaging(postCount: number, o: number, pageLength?: number): ChatPaging {
  const offset = chatPageOffset(postCount, o);
  return { offset, older: olderOffset(postCount, offset, pageLength), newer: newerOffset(offset) };
}
