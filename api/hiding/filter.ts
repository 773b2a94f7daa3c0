/**
 * Leaves a signed-in account's hidden creators and tags out of the API's listings (posts, popular,
 * search, tags, the creators list, a creator's posts), so that its kemono clients see what the site
 * shows it. Answers are filtered after the page is read: a page shows fewer items, as the site does
 * (docs/decisions.md, Hiding creators and tags). Guests and accounts that hid nothing get the answers
 * unchanged.
 */
import type { Response } from 'express';
import type { Store } from '../data/store.ts';
import type { Account } from '../data/accounts.ts';
import { hiddenList } from '../data/hidden.ts';
import { creatorKey } from '@shared/hiding.ts';

export interface HiddenFilter {
  creator(service: string, id: string): boolean;
  post(post: { service: string; user: string; tags?: readonly string[] }): boolean;
  tag(tag: string): boolean;
}

/** The account's filter, or null when there is nothing to leave out (guests, empty lists). */
export async function hiddenFilterFor(db: Store, account: Account | null): Promise<HiddenFilter | null> {
  if (!account) return null;
  const list = await hiddenList(db, account.id);
  if (list.creators.length === 0 && list.tags.length === 0) return null;
  const creators = new Set(list.creators);
  const tags = new Set(list.tags);
  const creator = (service: string, id: string) => creators.has(creatorKey(service, id));
  return {
    creator,
    post: (post) => creator(post.service, post.user) || (post.tags ?? []).some((tag) => tags.has(tag)),
    tag: (tag) => tags.has(tag),
  };
}

/** A filtered answer is the account's own: no shared cache may keep it. */
export function markPersonal(res: Response): void {
  res.setHeader('Cache-Control', 'private, no-store');
}

/** The posts the account sees (all of them without a filter). */
export function visiblePosts<T extends { service: string; user: string; tags?: readonly string[] }>(
  filter: HiddenFilter | null,
  posts: T[],
): T[] {
  return filter ? posts.filter((post) => !filter.post(post)) : posts;
}
