/**
 * The archive's public feeds (docs/product.md#feeds): a creator's posts, a creator's DMs, a tag, the
 * recent posts and the popular posts of a period, each the first FEED_ITEM_LIMIT items of the listing
 * it follows, in that listing's order, written by renderFeed. Links are absolute on the configured
 * public URL (PUBLIC_URL) and thumbnails on the image host, so a stored feed is the same for everyone.
 */
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import { getCreator } from '../data/creators.ts';
import { listCreatorPosts, listRecentPosts, postKeyString, type PostKey } from '../data/posts.ts';
import { listCreatorDms, type Dm } from '../data/dms.ts';
import { searchPosts } from '../data/post-search.ts';
import { popularPosts } from '../data/popular.ts';
import { postContentHeads } from '../data/feed-posts.ts';
import { htmlToText } from '../data/util.ts';
import { sanitizePostHtml } from '../content/sanitize.ts';
import { FEED_ITEM_LIMIT, renderFeed, type FeedEntry, type FeedFormat } from './render.ts';
import { cardThumbnailPath, cardTitle } from '@shared/post-card.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { todayUtc } from '@shared/popular.ts';
import type { PopularPeriod } from '@shared/validation/popular.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';
import {
  creatorDmsFeedUrl,
  creatorFeedUrl,
  creatorTabUrl,
  creatorUrl,
  iconUrl,
  popularFeedUrl,
  popularUrl,
  postUrl,
  recentPostsFeedUrl,
  tagFeedUrl,
  tagListingUrl,
  thumbnailUrl,
} from '@shared/urls.ts';

/** What a feed needs of the settings. */
export type FeedSettings = Pick<Config, 'publicUrl' | 'imageHost' | 'iconsPath' | 'siteName'>;

interface FeedCreator {
  service: string;
  id: string;
  name: string;
}

/** A site path made absolute on the public URL (an absolute URL is kept). */
function absolute(settings: FeedSettings, pathOrUrl: string): string {
  return /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${settings.publicUrl}${pathOrUrl}`;
}

/** Plain text of stored HTML: sanitized again as the pages render it, then its text. */
function textOf(settings: FeedSettings, html: string | null | undefined): string {
  return htmlToText(sanitizePostHtml(html ?? '', settings.imageHost));
}

/** Feed entries of post summaries, in the given order: card title, post link, content text, card thumbnail. */
export async function postEntries(db: Store, settings: FeedSettings, posts: readonly PostSummary[]): Promise<FeedEntry[]> {
  const keys: PostKey[] = posts.map((post) => ({ service: post.service, user: post.user, id: post.id }));
  const heads = await postContentHeads(db, keys);
  const names = new Map<string, string | undefined>();
  const authorOf = async (service: string, id: string) => {
    const key = `${service}\u0000${id}`;
    if (!names.has(key)) names.set(key, (await getCreator(db, service, id))?.name);
    return names.get(key);
  };
  const entries: FeedEntry[] = [];
  for (const [index, post] of posts.entries()) {
    const link = absolute(settings, postUrl(post.service, post.user, post.id));
    const thumbnail = cardThumbnailPath(post);
    entries.push({
      id: link,
      title: cardTitle(post.title, post.substring) || `Post ${post.id}`,
      link,
      published: post.published ?? post.added,
      summary: textOf(settings, heads.get(postKeyString(keys[index]))),
      // Thumbnails are served as WebP whatever the original's type (api/server/media.ts).
      thumbnailUrl: thumbnail ? thumbnailUrl(settings.imageHost || settings.publicUrl, thumbnail) : undefined,
      thumbnailType: thumbnail ? 'image/webp' : undefined,
      author: await authorOf(post.service, post.user),
    });
  }
  return entries;
}

/** Feed entries of a creator's DMs: they have no page of their own, so each links to the DMs tab. */
function dmEntries(settings: FeedSettings, creator: FeedCreator, dms: readonly Dm[]): FeedEntry[] {
  const page = absolute(settings, creatorTabUrl(creator.service, creator.id, 'dms'));
  return dms.map((dm) => {
    const text = textOf(settings, dm.content);
    return {
      id: `${page}#${encodeURIComponent(dm.hash)}`,
      title: cardTitle(null, text) || 'DM',
      link: page,
      published: dm.published ?? dm.added,
      summary: text,
      author: creator.name,
    };
  });
}

function creatorImage(settings: FeedSettings, creator: FeedCreator): string {
  return absolute(settings, iconUrl(settings.iconsPath, creator.service, creator.id));
}

export async function creatorPostsFeed(db: Store, settings: FeedSettings, creator: FeedCreator, format: FeedFormat): Promise<string> {
  const posts = await listCreatorPosts(db, creator.service, creator.id, 0, FEED_ITEM_LIMIT);
  const label = paysiteLabel(creator.service);
  return renderFeed(
    format,
    {
      selfUrl: absolute(settings, creatorFeedUrl(creator.service, creator.id, format)),
      pageUrl: absolute(settings, creatorUrl(creator.service, creator.id)),
      title: `${creator.name} (${label}) | ${settings.siteName}`,
      description: `Posts of ${creator.name} from ${label}, newest first.`,
      imageUrl: creatorImage(settings, creator),
    },
    await postEntries(db, settings, posts),
  );
}

export async function creatorDmsFeed(db: Store, settings: FeedSettings, creator: FeedCreator, format: FeedFormat): Promise<string> {
  const dms = await listCreatorDms(db, creator.service, creator.id, 0, FEED_ITEM_LIMIT);
  const label = paysiteLabel(creator.service);
  return renderFeed(
    format,
    {
      selfUrl: absolute(settings, creatorDmsFeedUrl(creator.service, creator.id, format)),
      pageUrl: absolute(settings, creatorTabUrl(creator.service, creator.id, 'dms')),
      title: `DMs of ${creator.name} (${label}) | ${settings.siteName}`,
      description: `Direct messages of ${creator.name} from ${label}, newest first.`,
      imageUrl: creatorImage(settings, creator),
    },
    dmEntries(settings, creator, dms),
  );
}

export async function tagFeed(db: Store, settings: FeedSettings, tag: string, format: FeedFormat): Promise<string> {
  const { posts } = await searchPosts(db, { tag, offset: 0, limit: FEED_ITEM_LIMIT });
  return renderFeed(
    format,
    {
      selfUrl: absolute(settings, tagFeedUrl(tag, format)),
      pageUrl: absolute(settings, tagListingUrl(tag)),
      title: `Posts tagged ${tag} | ${settings.siteName}`,
      description: `Posts with the tag ${tag}, newest archived first.`,
    },
    await postEntries(db, settings, posts),
  );
}

export async function recentPostsFeed(db: Store, settings: FeedSettings, format: FeedFormat): Promise<string> {
  return renderFeed(
    format,
    {
      selfUrl: absolute(settings, recentPostsFeedUrl(format)),
      pageUrl: absolute(settings, '/posts'),
      title: `Recent posts | ${settings.siteName}`,
      description: 'The posts most recently added to the archive.',
    },
    await postEntries(db, settings, await listRecentPosts(db, 0, FEED_ITEM_LIMIT)),
  );
}

const PERIOD_NAMES: Record<PopularPeriod, string> = { recent: 'recent days', day: 'the day', week: 'the week', month: 'the month' };

export async function popularFeed(db: Store, settings: FeedSettings, period: PopularPeriod, format: FeedFormat): Promise<string> {
  const { posts, info } = await popularPosts(db, { period, offset: 0, limit: FEED_ITEM_LIMIT }, todayUtc());
  return renderFeed(
    format,
    {
      selfUrl: absolute(settings, popularFeedUrl(period, format)),
      pageUrl: absolute(settings, popularUrl(period)),
      title: `Popular posts of ${PERIOD_NAMES[period]} | ${settings.siteName}`,
      description: `The most favourited posts of ${PERIOD_NAMES[period]} (${info.range_desc}).`,
    },
    await postEntries(db, settings, posts),
  );
}
