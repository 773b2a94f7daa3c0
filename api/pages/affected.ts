/**
 * Works out which stored pages change-log rows affect. The cost grows with the change
 * (the touched creators' pages and a fixed number of global pages), never with the archive's size.
 */
import type { Store } from '../data/store.ts';
import { countCreatorPosts, countPosts, iterateCreatorPostIds, postKeyString, type PostKey } from '../data/posts.ts';
import { listRevisionIds } from '../data/post-revisions.ts';
import { writtenPosts } from '../data/written-posts.ts';
import { countCreators } from '../data/creators.ts';
import { countCreatorShares, countShares, iterateShareIds } from '../data/shares.ts';
import { countCreatorDms, countDms } from '../data/dms.ts';
import { hasTab, isPaysite, paysite } from '@shared/paysites/index.ts';
import { listAllTags } from '../data/tags.ts';
import type { Change } from '../data/changes.ts';
import { CHAT_PAGE_SIZE, PAGE_SIZE } from '@shared/constants.ts';
import {
  PAGE_ROUTES,
  communityUrl,
  creatorDmsFeedUrl,
  creatorFeedUrl,
  creatorTabUrl,
  creatorUrl,
  discordServerUrl,
  popularUrl,
  popularFeedUrl,
  postUrl,
  recentPostsFeedUrl,
  revisionUrl,
  shareUrl,
  hasTagFeed,
  tagFeedUrl,
  type FeedFormat,
} from '@shared/urls.ts';
import { getDiscordChannel, isViewableChannel, listDiscordChannels } from '../data/discord.ts';
import { getCommunityChannel, listCommunityChannels } from '../data/community.ts';
import { POPULAR_PERIODS } from '@shared/validation/popular.ts';
import { todayUtc } from '@shared/popular.ts';
import { anyPostPopular, popularPosts } from '../data/popular.ts';
import { GLOBAL_LISTING_STORED_PAGES, pageKey } from './keys.ts';
import { inLanes } from './render-into-store.ts';

/** Revision lookups of a run's post pages in flight at once, over the pool's connections (a round trip each on PostgreSQL). */
const POST_LOOKUP_LANES = 4;

const CREATOR_PAGE_KINDS = new Set(['creator', 'post', 'share', 'dm', 'announcement', 'fancard', 'link']);

export interface AffectedPages {
  /** Keys to render again (a render that is no longer a 200 removes the stored page). */
  render: Set<string>;
  /** Paged listings whose stored pages past the last offset must be removed: path → last offset. */
  listings: Map<string, number>;
}

export function emptyAffected(): AffectedPages {
  return { render: new Set(), listings: new Map() };
}

/** Every page of a paged listing with `count` items, and a note to prune deeper stored pages. */
export function addListing(affected: AffectedPages, pathname: string, count: number, maxPages = Infinity, pageSize = PAGE_SIZE): void {
  const pages = Math.min(Math.max(1, Math.ceil(count / pageSize)), maxPages);
  for (let page = 0; page < pages; page += 1) affected.render.add(pageKey(pathname, page * pageSize));
  affected.listings.set(pathname, (pages - 1) * pageSize);
}

/** A paged listing that no longer exists: its first page is rendered (no longer a 200), deeper ones pruned. */
export function addGonePages(affected: AffectedPages, pathname: string): void {
  affected.render.add(pageKey(pathname));
  affected.listings.set(pathname, 0);
}

/** Every page of one Discord channel (categories hold no messages and have no pages). */
export function addDiscordChannelPages(
  affected: AffectedPages,
  serverId: string,
  channel: { id: string; type: number; post_count: number },
): void {
  if (!isViewableChannel(channel)) return;
  addListing(affected, discordServerUrl(serverId, channel.id), channel.post_count, Infinity, CHAT_PAGE_SIZE);
}

/** Every page of every channel of a Discord server. */
export async function addDiscordServerPages(db: Store, affected: AffectedPages, serverId: string): Promise<void> {
  for (const channel of await listDiscordChannels(db, serverId)) addDiscordChannelPages(affected, serverId, channel);
}

/**
 * A Patreon creator's community pages: the channel list and every page of each channel (each shows the
 * creator header and the channel list, so they change together). The list page of a creator with one
 * channel or none is a redirect or an empty list; rendering it keeps the store right either way.
 */
export async function addCommunityPages(db: Store, affected: AffectedPages, creatorId: string): Promise<void> {
  affected.render.add(pageKey(communityUrl(creatorId)));
  for (const channel of await listCommunityChannels(db, 'patreon', creatorId)) {
    addListing(affected, communityUrl(creatorId, channel.channel_id), channel.post_count, Infinity, CHAT_PAGE_SIZE);
  }
}

const FEED_FORMATS: FeedFormat[] = ['rss', 'atom'];

/** Both formats of a feed (docs/product.md#feeds). */
export function addFeeds(affected: AffectedPages, url: (format: FeedFormat) => string): void {
  for (const format of FEED_FORMATS) affected.render.add(pageKey(url(format)));
}

/** A tag's feeds (a tag nobody carries any more renders 404, which removes them). */
export function addTagFeeds(affected: AffectedPages, tag: string): void {
  if (hasTagFeed(tag)) addFeeds(affected, (format) => tagFeedUrl(tag, format));
}

/** The feeds of every tag, for a full rebuild. */
export async function addAllTagFeeds(db: Store, affected: AffectedPages): Promise<void> {
  for (const { tag } of await listAllTags(db)) addTagFeeds(affected, tag);
}

/** The global pages every archive change may touch: the stored first pages of the listings, all tags. */
export async function addGlobalPages(db: Store, affected: AffectedPages): Promise<void> {
  await addRecentPostsPages(db, affected);
  await addCreatorListings(db, affected);
  await addPopularPages(db, affected);
}

/** The global pages that show posts: the recent posts' stored pages and feeds, and every tag (with its count). */
async function addRecentPostsPages(db: Store, affected: AffectedPages): Promise<void> {
  addListing(affected, PAGE_ROUTES.recentPosts.url(), await countPosts(db), GLOBAL_LISTING_STORED_PAGES);
  affected.render.add(pageKey(PAGE_ROUTES.allTags.url()));
  addFeeds(affected, recentPostsFeedUrl);
}

/** The global pages that show creators (their cards: name, service, favourites, last update). */
async function addCreatorListings(db: Store, affected: AffectedPages): Promise<void> {
  addListing(affected, PAGE_ROUTES.updatedCreators.url(), await countCreators(db), GLOBAL_LISTING_STORED_PAGES);
  await addArtistsListing(db, affected);
}

export async function addCreatorPages(db: Store, affected: AffectedPages, service: string, creatorId: string): Promise<void> {
  const tab = (name: string) => creatorTabUrl(service, creatorId, name);
  addListing(affected, creatorUrl(service, creatorId), await countCreatorPosts(db, service, creatorId));
  affected.render.add(pageKey(tab('tags')));
  affected.render.add(pageKey(tab('links')));
  if (hasTab('announcements', service)) affected.render.add(pageKey(tab('announcements')));
  if (hasTab('fancards', service)) affected.render.add(pageKey(tab('fancards')));
  addListing(affected, tab('dms'), await countCreatorDms(db, service, creatorId));
  addListing(affected, tab('shares'), await countCreatorShares(db, service, creatorId));
  if (service === 'patreon') await addCommunityPages(db, affected, creatorId);
  if (isPaysite(service) && service !== 'discord') addFeeds(affected, (format) => creatorFeedUrl(service, creatorId, format));
  if (isPaysite(service) && paysite(service).dms) addFeeds(affected, (format) => creatorDmsFeedUrl(service, creatorId, format));
}

/** The stored first pages of /artists (Popularity: ordered by favourite counts). */
export async function addArtistsListing(db: Store, affected: AffectedPages): Promise<void> {
  addListing(affected, PAGE_ROUTES.artists.url(), await countCreators(db), GLOBAL_LISTING_STORED_PAGES);
}

/**
 * A post page and its revision pages: a revision page shows the post's revision list, neighbours and
 * comments, so it changes whenever the post page does.
 */
export async function addPostPages(db: Store, affected: AffectedPages, service: string, creatorId: string, postId: string): Promise<void> {
  affected.render.add(pageKey(postUrl(service, creatorId, postId)));
  for (const revisionId of await listRevisionIds(db, service, creatorId, postId)) {
    affected.render.add(pageKey(revisionUrl(service, creatorId, postId, revisionId)));
  }
}

/** The stored first pages of the latest popular posts of each period (their cards show post data too). */
export async function addPopularPages(db: Store, affected: AffectedPages): Promise<void> {
  for (const period of POPULAR_PERIODS) {
    const { count } = (await popularPosts(db, { period, offset: 0, limit: 1 }, todayUtc())).props;
    addListing(affected, popularUrl(period), count, GLOBAL_LISTING_STORED_PAGES);
    addFeeds(affected, (format) => popularFeedUrl(period, format));
  }
}

/** Shares: the stored first pages of the global list (it shifts on every upload like /posts). */
export async function addSharesListing(db: Store, affected: AffectedPages): Promise<void> {
  addListing(affected, PAGE_ROUTES.shares.url(), await countShares(db), GLOBAL_LISTING_STORED_PAGES);
}

/** The stored first pages of the global DMs list. */
export async function addDmsListing(db: Store, affected: AffectedPages): Promise<void> {
  addListing(affected, PAGE_ROUTES.allDms.url(), await countDms(db), GLOBAL_LISTING_STORED_PAGES);
}

/** Every share page and the shares list, for a full rebuild. */
export async function addAllSharePages(db: Store, affected: AffectedPages): Promise<void> {
  await addSharesListing(db, affected);
  for await (const id of iterateShareIds(db)) affected.render.add(pageKey(shareUrl(id)));
}

/** A row of a post written (not removed, and not only a neighbour of one that moved). */
function isWrite(change: Change): boolean {
  return change.action !== 'delete' && change.ref !== 'neighbour';
}

/**
 * The pages a run of change-log rows affects. Creators and the global pages are expanded once, after
 * the whole run, however many rows touched them.
 */
export async function affectedByChanges(db: Store, changes: AsyncIterable<Change> | Iterable<Change>): Promise<AffectedPages> {
  const affected = emptyAffected();
  const creators = new Set<string>();
  /**
   * Posts whose revision pages were added (or that have none): consecutive new posts are each other's
   * neighbours, and a post's revision pages are listed once.
   */
  const postPagesAdded = new Set<string>();
  const addPostPagesOnce = async ({ service, user, id }: PostKey) => {
    const page = pageKey(postUrl(service, user, id));
    if (postPagesAdded.has(page)) return;
    postPagesAdded.add(page);
    await addPostPages(db, affected, service, user, id);
  };
  // The global listings show posts and creators only: file, share or DM rows leave them as they are.
  let posts = false;
  let creatorRows = false;
  let shares = false;
  let dms = false;
  /**
   * The popular pages show the posts that have favourites or views, and their feeds name each post's
   * creator. A new post has neither, so an import re-renders them only when it changed a post already
   * there (looked up after the run), removed one, or renamed or removed a creator.
   */
  let popularity = false;
  /** A favourite count changed: only the Popularity order of /artists shows it. */
  let favorites = false;
  /** Creators whose name changed: every post page shows it (a rename costs the creator's size). */
  const renamed = new Set<string>();
  /** Discord channels whose messages or row changed (server id, channel id), and whole servers. */
  const discordChannels = new Map<string, Set<string>>();
  const discordServers = new Set<string>();
  const community = new Set<string>();
  /** Rows of posts written, looked up after the run (their pages, tags and neighbours). */
  const postChanges: Array<{ key: PostKey; change: Change }> = [];
  for await (const change of changes) {
    if (change.kind === 'dm') dms = true;
    if (change.kind === 'post') posts = true;
    if (change.kind === 'creator') creatorRows = true;
    if (change.kind === 'popularity' || (change.kind === 'post' && change.action === 'delete')) popularity = true;
    if (change.kind === 'creator' && (change.action === 'delete' || change.ref === 'renamed')) popularity = true;
    if (change.kind === 'favorite') favorites = true;
    // A share: its page, the shares list, and its creator's pages (the header counts uploads).
    if (change.kind === 'share') {
      shares = true;
      if (change.ref) affected.render.add(pageKey(shareUrl(change.ref)));
    }
    if (!change.service || !change.creator_id) continue;
    if (change.kind === 'discord') {
      if (change.ref) discordChannels.set(change.creator_id, (discordChannels.get(change.creator_id) ?? new Set()).add(change.ref));
      else discordServers.add(change.creator_id);
      continue;
    }
    // A community row: the creator's community pages only (has_chats arrives as a 'creator' row).
    if (change.kind === 'community') {
      if (change.service === 'patreon') community.add(change.creator_id);
      // A removed channel (a takedown): its stored pages go, the first by rendering it, the rest pruned.
      if (change.service === 'patreon' && change.action === 'delete' && change.ref && !(await getCommunityChannel(db, change.ref))) {
        addGonePages(affected, communityUrl(change.creator_id, change.ref));
      }
      continue;
    }
    // The server view shows the server's name, nothing else of the creator row.
    if (change.kind === 'creator' && change.service === 'discord' && change.ref === 'renamed') discordServers.add(change.creator_id);
    if (change.kind === 'comment' && change.post_id) await addPostPages(db, affected, change.service, change.creator_id, change.post_id);
    // A tag the post lost: that tag's feeds (the post's own row brings the rest).
    if (change.kind === 'post' && change.ref?.startsWith('tag:')) {
      addTagFeeds(affected, change.ref.slice('tag:'.length));
      continue;
    }
    // A deleted post's revisions: rendering them now answers 404, which removes their stored pages.
    if (change.kind === 'post' && change.post_id && change.ref?.startsWith('revision:')) {
      affected.render.add(pageKey(revisionUrl(change.service, change.creator_id, change.post_id, change.ref.slice('revision:'.length))));
      continue;
    }
    // The similar creators are shown on the creator's first posts page only.
    if (change.kind === 'similar') {
      affected.render.add(pageKey(creatorUrl(change.service, change.creator_id)));
      continue;
    }
    // Every tab shows the header's counts and link tick, so these re-render the creator's pages.
    if (!CREATOR_PAGE_KINDS.has(change.kind)) continue;
    if (change.kind === 'creator' && change.ref === 'renamed') renamed.add(`${change.service}\u0000${change.creator_id}`);
    creators.add(`${change.service}\u0000${change.creator_id}`);
    if (change.kind === 'post' && change.post_id) {
      postChanges.push({ key: { service: change.service, user: change.creator_id, id: change.post_id }, change });
    }
  }
  // A new or moved post is its neighbours' prev/next, and its tags' feeds list it: what the posts
  // written in the run need is read for all of them at once. A removed post's old neighbours arrive
  // as their own 'neighbour' rows, written by the data module while it could still see them.
  const written = new Map<string, PostKey>();
  for (const { key, change } of postChanges) if (isWrite(change)) written.set(postKeyString(key), key);
  const facts = await writtenPosts(db, [...written.values()]);
  // Every post a row names, and the neighbours of those written.
  const pagesOf = postChanges.map(({ key }) => key);
  for (const [id, key] of written) {
    const fact = facts.get(id);
    if (!fact) continue;
    for (const tag of fact.tags) addTagFeeds(affected, tag);
    for (const neighbour of [fact.next, fact.prev]) if (neighbour) pagesOf.push({ ...key, id: neighbour });
    if (!fact.hasRevisions) postPagesAdded.add(pageKey(postUrl(key.service, key.user, key.id)));
  }
  for (const key of pagesOf) affected.render.add(pageKey(postUrl(key.service, key.user, key.id)));
  // Their revision pages, looked up only for posts that may have some. SQLite takes the lanes' queries
  // in turn, as it would one by one.
  await inLanes(pagesOf.length, POST_LOOKUP_LANES, async (index) => await addPostPagesOnce(pagesOf[index]));
  for (const creatorKey of creators) {
    const [service, creatorId] = creatorKey.split('\u0000');
    await addCreatorPages(db, affected, service, creatorId);
  }
  for (const creatorKey of renamed) {
    const [service, creatorId] = creatorKey.split('\u0000');
    for await (const id of iterateCreatorPostIds(db, service, creatorId)) await addPostPagesOnce({ service, user: creatorId, id });
  }
  for (const creatorId of community) {
    if (!creators.has(`patreon\u0000${creatorId}`)) await addCommunityPages(db, affected, creatorId);
  }
  for (const serverId of discordServers) await addDiscordServerPages(db, affected, serverId);
  for (const [serverId, channelIds] of discordChannels) {
    // A removed channel: its first page now redirects (or answers 404 once the server is gone), which
    // removes the stored copy; its deeper pages are pruned.
    for (const channelId of channelIds) {
      if (!(await getDiscordChannel(db, channelId))) addGonePages(affected, discordServerUrl(serverId, channelId));
    }
    if (discordServers.has(serverId)) continue;
    for (const channelId of channelIds) {
      const channel = await getDiscordChannel(db, channelId);
      if (channel) addDiscordChannelPages(affected, serverId, channel);
    }
    // Every page lists the channels; the entry page of each other channel shows a new or renamed one.
    // Deeper pages of the others catch up when their own messages change (a rename is rare, and
    // re-rendering every page of a large server for it would cost the server's size).
    for (const channel of await listDiscordChannels(db, serverId)) {
      if (isViewableChannel(channel)) affected.render.add(pageKey(discordServerUrl(serverId, channel.id)));
    }
  }
  // The recent posts' feeds name each post's creator too.
  if (posts || renamed.size > 0) await addRecentPostsPages(db, affected);
  if (creatorRows) await addCreatorListings(db, affected);
  else if (favorites) await addArtistsListing(db, affected);
  if (!popularity) popularity = await anyPostPopular(db, [...written.values()]);
  if (popularity) await addPopularPages(db, affected);
  if (shares) await addSharesListing(db, affected);
  if (dms) await addDmsListing(db, affected);
  return affected;
}
