/** URL builders for pages and media, defined once for pages, islands, the API and tests. */
import { pathTemplate } from './path-template.ts';

const enc = encodeURIComponent;

/**
 * The shapes of the archive's page URLs, each written once: the builders below fill them, and the page
 * store (which URLs are stored pages, their keys, what a change renders again) matches and builds with
 * the same templates.
 */
export const PAGE_ROUTES = {
  recentPosts: pathTemplate('/posts'),
  popular: pathTemplate('/posts/popular'),
  allTags: pathTemplate('/posts/tags'),
  artists: pathTemplate('/artists'),
  updatedCreators: pathTemplate('/artists/updated'),
  allDms: pathTemplate('/dms'),
  shares: pathTemplate('/shares'),
  share: pathTemplate('/share/{id}'),
  creator: pathTemplate('/{service}/user/{id}'),
  /** A creator's tab: tags, announcements, fancards, links, dms, shares, community. */
  creatorTab: pathTemplate('/{service}/user/{id}/{tab}'),
  post: pathTemplate('/{service}/user/{id}/post/{post}'),
  revision: pathTemplate('/{service}/user/{id}/post/{post}/revision/{revision}'),
  discordServer: pathTemplate('/discord/server/{server}'),
  discordChannel: pathTemplate('/discord/server/{server}/{channel}'),
  discordMessage: pathTemplate('/discord/server/{server}/{channel}/{message}'),
  communityChannel: pathTemplate('/patreon/user/{id}/community/{channel}'),
  /** Feeds (docs/product.md#feeds): `feed` is a FEED_FILES name, feed.rss or feed.atom. */
  recentPostsFeed: pathTemplate('/posts/{feed}'),
  popularFeed: pathTemplate('/posts/popular/{feed}'),
  tagFeed: pathTemplate('/posts/tags/{tag}/{feed}'),
  creatorFeed: pathTemplate('/{service}/user/{id}/{feed}'),
  creatorDmsFeed: pathTemplate('/{service}/user/{id}/dms/{feed}'),
} as const;

/** The feed formats and the file name each is served under, beside the page the feed follows. */
export type FeedFormat = 'rss' | 'atom';
export const FEED_FILES: Record<FeedFormat, string> = { rss: 'feed.rss', atom: 'feed.atom' };

/** The format of a feed file name ('feed.rss' → 'rss'), or undefined for any other name. */
export function feedFormatOf(name: string): FeedFormat | undefined {
  return name === FEED_FILES.rss ? 'rss' : name === FEED_FILES.atom ? 'atom' : undefined;
}

/** A creator's posts as a feed. */
export function creatorFeedUrl(service: string, creatorId: string, format: FeedFormat): string {
  return PAGE_ROUTES.creatorFeed.url(service, creatorId, FEED_FILES[format]);
}

/** A creator's approved DMs as a feed. */
export function creatorDmsFeedUrl(service: string, creatorId: string, format: FeedFormat): string {
  return PAGE_ROUTES.creatorDmsFeed.url(service, creatorId, FEED_FILES[format]);
}

/**
 * Whether a tag can have a feed: its feed path puts the tag in a path segment, and the page router
 * refuses a segment that still holds an escape after decodeURI once something else was decoded (a tag
 * mixing a reserved character such as / ? # & + , : ; = @ $ with a space or non-ASCII text). Such tags
 * keep their listing (/posts?tag=...) without a feed.
 */
export function hasTagFeed(tag: string): boolean {
  const segment = encodeURIComponent(tag);
  const decoded = decodeURI(segment);
  return decoded === segment || !/%[0-9a-fA-F]{2}/.test(decoded);
}

/** The posts with a tag as a feed (the listing it follows is /posts?tag=...; see hasTagFeed). */
export function tagFeedUrl(tag: string, format: FeedFormat): string {
  return PAGE_ROUTES.tagFeed.url(tag, FEED_FILES[format]);
}

/** The archive's recent posts (/posts) as a feed. */
export function recentPostsFeedUrl(format: FeedFormat): string {
  return PAGE_ROUTES.recentPostsFeed.url(FEED_FILES[format]);
}

/** The latest popular posts of a period as a feed ('recent' is the default and has no parameter). */
export function popularFeedUrl(period: string, format: FeedFormat): string {
  const path = PAGE_ROUTES.popularFeed.url(FEED_FILES[format]);
  return period === 'recent' ? path : `${path}?${new URLSearchParams({ period })}`;
}

/** The tag listing (/posts?tag=...), the page a tag's feed follows. */
export function tagListingUrl(tag: string): string {
  return `${PAGE_ROUTES.recentPosts.url()}?${new URLSearchParams({ tag })}`;
}

export function creatorUrl(service: string, creatorId: string): string {
  return PAGE_ROUTES.creator.url(service, creatorId);
}

export function postUrl(service: string, creatorId: string, postId: string): string {
  return PAGE_ROUTES.post.url(service, creatorId, postId);
}

export function revisionUrl(service: string, creatorId: string, postId: string, revisionId: string | number): string {
  return PAGE_ROUTES.revision.url(service, creatorId, postId, revisionId);
}

/** /posts/popular for a period ('recent' is the default) and, for a dated page, its reference date. */
export function popularUrl(period: string, date?: string): string {
  const params = new URLSearchParams();
  if (date && period !== 'recent') params.set('date', date);
  if (period !== 'recent') params.set('period', period);
  const query = params.toString();
  const path = PAGE_ROUTES.popular.url();
  return query ? `${path}?${query}` : path;
}

/** The login page, coming back to `location` (a same-origin path) afterwards. */
export function loginUrl(location?: string): string {
  return location ? `/authentication/login?${new URLSearchParams({ location })}` : '/authentication/login';
}

export function creatorTabUrl(service: string, creatorId: string, tab: string): string {
  return PAGE_ROUTES.creatorTab.url(service, creatorId, tab);
}

/** Where a creator's link leads: its profile, or for a discord creator its server view (docs/product.md#creator-profile). */
export function creatorPageUrl(service: string, creatorId: string): string {
  return service === 'discord' ? discordServerUrl(creatorId) : creatorUrl(service, creatorId);
}

/** The form that asks to link another account to a creator. */
export function newLinkUrl(service: string, creatorId: string): string {
  return `/account${creatorUrl(service, creatorId)}/links/new`;
}

/** A page of the administrators' account list, keeping the name and role filters. */
export function adminAccountsUrl(page: number, filter: { name?: string; role?: string } = {}): string {
  const params = new URLSearchParams();
  if (filter.name) params.set('name', filter.name);
  if (filter.role) params.set('role', filter.role);
  const query = params.toString();
  return `/account/administrator/accounts/${page}${query ? `?${query}` : ''}`;
}

/** The administrators' imports dashboard, keeping the state and service filters (empty ones left out). */
export function adminImportsUrl(filter: { state?: string; service?: string } = {}): string {
  const query = new URLSearchParams();
  if (filter.state) query.set('state', filter.state);
  if (filter.service) query.set('service', filter.service);
  const text = query.toString();
  return `/account/administrator/imports${text ? `?${text}` : ''}`;
}

export function adminAccountUrl(accountId: number): string {
  return `/account/administrator/account/${accountId}`;
}

/** The administrators' audit log, keeping the actor and action filters (the offset is added by withOffset). */
export function auditLogUrl(filter: { actor?: number | null; action?: string | null } = {}): string {
  const params = new URLSearchParams();
  if (filter.actor) params.set('actor', String(filter.actor));
  if (filter.action) params.set('action', filter.action);
  const query = params.toString();
  return `${ACCOUNT_PAGES.auditLog}${query ? `?${query}` : ''}`;
}

export function shareUrl(shareId: string | number): string {
  return PAGE_ROUTES.share.url(shareId);
}

/** The "how to get a session key" help of a paysite. */
export function importerKeysUrl(paysite: string): string {
  return `/importer/keys/${enc(paysite)}`;
}

/** The status page of an import. */
export function importStatusUrl(importId: string): string {
  return `/importer/status/${enc(importId)}`;
}

/** Adds `o` to a listing URL (omitted for the first page) and keeps other parameters. */
export function withOffset(url: string, offset: number): string {
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  if (offset > 0) params.set('o', String(offset));
  else params.delete('o');
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A file's public path: '/ab/cd/<sha256>.<ext>' (ext with or without its dot; none when empty). */
export function filePath(sha256: string, ext: string): string {
  const bare = ext.replace(/^\./, '');
  return `/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}${bare ? `.${bare}` : ''}`;
}

/** Download URL of a stored file, on the configured image host (empty host = this site). */
export function fileUrl(imageHost: string, path: string, name?: string): string {
  return `${imageHost}/data${path}${name ? `?f=${enc(name)}` : ''}`;
}

export function thumbnailUrl(imageHost: string, path: string): string {
  return `${imageHost}/thumbnail/data${path}`;
}

export function iconUrl(iconsPath: string, service: string, creatorId: string): string {
  return `${iconsPath}/${enc(service)}/${enc(creatorId)}`;
}

export function bannerUrl(bannersPath: string, service: string, creatorId: string): string {
  return `${bannersPath}/${enc(service)}/${enc(creatorId)}`;
}

/** The Discord server view, optionally at a channel and a message (docs/product.md#discord-server-view). */
export function discordServerUrl(serverId: string, channelId?: string, messageId?: string): string {
  if (!channelId) return PAGE_ROUTES.discordServer.url(serverId);
  if (!messageId) return PAGE_ROUTES.discordChannel.url(serverId, channelId);
  return PAGE_ROUTES.discordMessage.url(serverId, channelId, messageId);
}

/** A Discord user's avatar on the chat network's content host (DISCORD_CONTENT_HOST). */
export function discordAvatarUrl(contentHost: string, userId: string, avatarHash: string): string {
  return `${contentHost}/avatars/${enc(userId)}/${enc(avatarHash)}.png`;
}

/** A custom emoji (<:name:id>, animated <a:name:id>) on the chat network's content host. */
export function discordEmojiUrl(contentHost: string, emojiId: string, animated: boolean): string {
  return `${contentHost}/emojis/${enc(emojiId)}.${animated ? 'gif' : 'png'}`;
}

/** A Patreon creator's community channels, or one channel (docs/product.md#patreon-community). */
export function communityUrl(creatorId: string, channelId?: string): string {
  return channelId ? PAGE_ROUTES.communityChannel.url(creatorId, channelId) : creatorTabUrl('patreon', creatorId, 'community');
}

/** The archive file page (the names inside a .zip, .rar or .7z). */
export function archiveFileUrl(sha256: string): string {
  return `/file/${enc(sha256)}`;
}

/** The hash search page, searching for `hash` when given. */
export function hashSearchUrl(hash?: string): string {
  return hash ? `/search_hash?hash=${enc(hash)}` : '/search_hash';
}

/** The account pages and the authentication pages. */
export const ACCOUNT_PAGES = {
  overview: '/account',
  notifications: '/account/notifications',
  changePassword: '/account/change_password',
  keys: '/account/keys',
  reviewDms: '/account/review_dms',
  favoriteArtists: '/account/favorites/artists',
  favoritePosts: '/account/favorites/posts',
  linkRequests: '/account/moderator/tasks/creator_links',
  flaggedPosts: '/account/moderator/flags',
  manageAccounts: '/account/administrator/accounts',
  auditLog: '/account/administrator/audit',
  manageImports: '/account/administrator/imports',
  doNotPost: '/account/administrator/do_not_post',
  register: '/authentication/register',
  login: '/authentication/login',
  logout: '/authentication/logout',
} as const;
