/**
 * "New from your favourites" for one account (docs/product.md#new-from-your-favourites): the default
 * "since" (the last visit), and the personal feed. The feed's token is 256 random bits in base64url,
 * shown once; only its SHA-256 is stored, so a leaked database opens no feed. The feed is rendered by
 * renderFeed (render.ts) like every feed, and never enters the page store: it is personal.
 */
import crypto from 'node:crypto';
import type { Store } from '../data/store.ts';
import {
  clearFeedToken,
  feedAccountId,
  lastNewsVisit,
  listNewFeedPosts,
  recordNewsVisit,
  setFeedTokenHash,
} from '../data/favorites-news.ts';
import { nowIso } from '../data/util.ts';
import { FEED_ITEM_LIMIT, renderFeed, type FeedEntry } from './render.ts';
import { FAVORITES_NEWS_PATH, favoritesFeedPath, NEWS_FIRST_VISIT_DAYS, type NewsFeedFormat } from '@shared/favorites-news.ts';
import { cardThumbnailPath, cardTitle } from '@shared/post-card.ts';
import { postUrl, thumbnailUrl } from '@shared/urls.ts';

/** A token as newFeedToken makes them: 32 bytes in base64url. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newFeedToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashFeedToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A new feed token for the account (the previous one stops working); the caller shows it once. */
export async function resetFeedToken(db: Store, accountId: number): Promise<string> {
  const token = newFeedToken();
  await setFeedTokenHash(db, accountId, hashFeedToken(token));
  return token;
}

export { clearFeedToken };

/** The page's default "since": the last visit, or a week back for an account that never opened it. */
export async function newsBaseline(db: Store, accountId: number, now: Date = new Date()): Promise<string> {
  return (await lastNewsVisit(db, accountId)) ?? nowIso(new Date(now.getTime() - NEWS_FIRST_VISIT_DAYS * 86_400_000));
}

/** Opens the page: the "since" it shows by default (before this visit), and this visit recorded. */
export async function openNews(db: Store, accountId: number, now: Date = new Date()): Promise<string> {
  const baseline = await newsBaseline(db, accountId, now);
  await recordNewsVisit(db, accountId, nowIso(now));
  return baseline;
}

export interface FeedSite {
  /** This site's origin as the reader reached it (the feed is not stored, so the request may decide). */
  origin: string;
  /** Where thumbnails are served from (IMAGE_HOST), empty for this origin. */
  imageHost: string;
  siteName: string;
}

/** The feed of the token's account, or undefined for a token that is malformed, reset or unknown. */
export async function renderFavoritesFeed(db: Store, token: string, format: NewsFeedFormat, site: FeedSite): Promise<string | undefined> {
  if (!FEED_TOKEN.test(token)) return undefined;
  const accountId = await feedAccountId(db, hashFeedToken(token));
  if (accountId === undefined) return undefined;
  const thumbnails = site.imageHost.replace(/\/+$/, '') || site.origin;
  const entries: FeedEntry[] = (await listNewFeedPosts(db, accountId, FEED_ITEM_LIMIT)).map((post) => {
    const link = site.origin + postUrl(post.service, post.user, post.id);
    const thumbnail = cardThumbnailPath(post);
    return {
      id: link,
      title: cardTitle(post.title, post.substring),
      link,
      published: post.published ?? post.added,
      summary: post.text,
      thumbnailUrl: thumbnail ? thumbnailUrl(thumbnails, thumbnail) : undefined,
      author: post.creator_name,
    };
  });
  const channel = {
    selfUrl: site.origin + favoritesFeedPath(token, format),
    pageUrl: site.origin + FAVORITES_NEWS_PATH,
    title: `New from your favorites | ${site.siteName}`,
    description: `Posts added to ${site.siteName} from your favorite creators, newest first.`,
  };
  return renderFeed(format, channel, entries);
}
