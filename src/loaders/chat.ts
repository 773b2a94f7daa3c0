/**
 * Loaders of the chat pages: the Discord server view (/discord/server/{server}/{channel?}/{message?})
 * and the Patreon community list and channels (/patreon/user/{id}/community[/{channel}]).
 * Paging follows shared/chat/paging.ts (`o` skips the newest messages, 150 a step). Server side only.
 */
import type { SiteDeps } from './deps.ts';
import {
  discordMessagePosition,
  getDiscordServer,
  isViewableChannel,
  listDiscordMessages,
  type DiscordChannel,
} from '@api/data/discord.ts';
import { getCommunityChannel, listCommunityChannels, listCommunityMessages } from '@api/data/community.ts';
import { CHAT_PAGE_SIZE } from '@shared/constants.ts';
import { chatOffsetForPosition, chatPageOffset, chatPaging, parseChatOffset } from '@shared/chat/paging.ts';
import { communityUrl, discordServerUrl, withOffset } from '@shared/urls.ts';
import { resolveCreator } from './archive.ts';
import { badRequest, gone, notFound, ok, redirect } from './outcome.ts';
import { isCreatorListed } from '@api/data/do-not-post.ts';
import { GONE_MESSAGES } from '@shared/error-page.ts';
import { CHAT_MESSAGES } from '@shared/validation/chat.ts';

export interface ChannelEntry {
  channel: DiscordChannel;
  /** 0 for top-level channels and categories, 1 under a category or a channel (threads), and so on. */
  depth: number;
  viewable: boolean;
}

/**
 * The channel list as the sidebar shows it: channels outside any category first, then each category
 * with its channels, threads under their channel; list order within a level.
 */
export function channelTree(channels: DiscordChannel[]): ChannelEntry[] {
  const ids = new Set(channels.map((c) => c.id));
  const children = new Map<string, DiscordChannel[]>();
  const roots: DiscordChannel[] = [];
  for (const channel of channels) {
    const parent = channel.parent_channel_id;
    // A parent that is itself (bad data) or missing puts the channel at the top level.
    if (parent && parent !== channel.id && ids.has(parent)) children.set(parent, [...(children.get(parent) ?? []), channel]);
    else roots.push(channel);
  }
  const ordered = [...roots.filter(isViewableChannel), ...roots.filter((c) => !isViewableChannel(c))];
  const entries: ChannelEntry[] = [];
  const seen = new Set<string>();
  const walk = (channel: DiscordChannel, depth: number) => {
    if (seen.has(channel.id)) return; // parent cycles in mirrored data
    seen.add(channel.id);
    entries.push({ channel, depth, viewable: isViewableChannel(channel) });
    for (const child of children.get(channel.id) ?? []) walk(child, depth + 1);
  };
  for (const root of ordered) walk(root, 0);
  return entries;
}

/** The Older/Newer links of a channel page at a canonical `offset` (null: no page that way). */
function pagerUrls(channelUrl: string, postCount: number, offset: number, pageLength?: number) {
  const { older, newer } = chatPaging(postCount, offset, pageLength);
  return {
    olderUrl: older === null ? null : withOffset(channelUrl, older),
    newerUrl: newer === null ? null : withOffset(channelUrl, newer),
  };
}

/** Path segments after /discord/server/ (Astro's rest parameter). */
function splitPath(path: string | undefined): string[] {
  return (path ?? '').split('/').filter(Boolean);
}

/**
 * /discord/server/{server}/{channel?}/{message?}: the server, its channel tree, one page of a channel's
 * messages (oldest first on screen), the Older/Newer offsets and the message to mark. Without a valid
 * channel it redirects to the first one; a message link shows the page that holds the message.
 */
export async function loadDiscordServer(deps: SiteDeps, path: string | undefined, search: URLSearchParams) {
  const [serverId, channelId, messageId, ...rest] = splitPath(path);
  if (!serverId || rest.length > 0) return notFound;
  const db = deps.db;
  const server = await getDiscordServer(db, serverId);
  // A discord "creator" is its server: a removed one answers 410 while its entry stands.
  if (await isCreatorListed(db, 'discord', serverId)) return gone(GONE_MESSAGES.creator);
  if (!server) return notFound;
  const tree = channelTree(server.channels);
  const first = tree.find((entry) => entry.viewable)?.channel;
  if (!first) return badRequest(CHAT_MESSAGES.noChannels);
  const channel = server.channels.find((c) => c.id === channelId && isViewableChannel(c));
  if (!channel) return redirect(discordServerUrl(server.id, first.id));

  let requested: number;
  let markedId: string | undefined;
  if (messageId) {
    const position = await discordMessagePosition(db, messageId);
    // A message that is gone (or of another channel) leaves the link at its channel.
    if (!position || position.channel_id !== channel.id) return redirect(discordServerUrl(server.id, channel.id));
    requested = chatOffsetForPosition(position.position);
    markedId = messageId;
  } else {
    const parsed = parseChatOffset(search.get('o') ?? undefined);
    if (!parsed.ok) return badRequest(parsed.error);
    requested = parsed.offset;
  }
  const offset = chatPageOffset(channel.post_count, requested);
  const channelUrl = discordServerUrl(server.id, channel.id);
  // One URL per page: an offset past the end lands on the oldest page by redirect, not a copy of it.
  if (!messageId && offset !== requested) return redirect(withOffset(channelUrl, offset));
  const newestFirst = await listDiscordMessages(db, channel.id, offset, CHAT_PAGE_SIZE);
  const settings = deps.config;
  return ok({
    server: { id: server.id, name: server.name },
    tree,
    channel,
    messages: newestFirst.reverse(),
    markedId,
    ...pagerUrls(channelUrl, channel.post_count, offset),
    contentHost: settings.discordContentHost,
    imageHost: settings.imageHost,
  });
}

type Params = { service?: string; id?: string; channel?: string };

/** /patreon/user/{id}/community: the channels; one channel opens it, none says so. */
export async function loadCommunityList(deps: SiteDeps, params: Params) {
  const resolved = await resolveCreator(deps, params.service, params.id, '/community');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  if (service !== 'patreon') return notFound;
  const channels = await listCommunityChannels(deps.db, service, creator.id);
  if (channels.length === 1) return redirect(communityUrl(creator.id, channels[0].channel_id));
  return ok({ creator, service, channels });
}

/** /patreon/user/{id}/community/{channel}: one page of a channel's messages (oldest first on screen). */
export async function loadCommunityChannel(deps: SiteDeps, params: Params, search: URLSearchParams) {
  const resolved = await resolveCreator(
    deps,
    params.service,
    params.id,
    params.channel ? `/community/${encodeURIComponent(params.channel)}` : '/community',
  );
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  if (service !== 'patreon') return notFound;
  const db = deps.db;
  const channel = params.channel ? await getCommunityChannel(db, params.channel) : undefined;
  if (!channel || channel.service !== service || channel.creator_id !== creator.id) return badRequest(CHAT_MESSAGES.invalidChannel);
  const parsed = parseChatOffset(search.get('o') ?? undefined);
  if (!parsed.ok) return badRequest(parsed.error);
  const offset = chatPageOffset(channel.post_count, parsed.offset);
  const channelUrl = communityUrl(creator.id, channel.channel_id);
  if (offset !== parsed.offset) return redirect(withOffset(channelUrl, offset));
  const newestFirst = await listCommunityMessages(db, channel.channel_id, offset, CHAT_PAGE_SIZE);
  return ok({
    creator,
    service,
    channel,
    channels: await listCommunityChannels(db, service, creator.id),
    messages: newestFirst.reverse(),
    ...pagerUrls(channelUrl, channel.post_count, offset, newestFirst.length),
    imageHost: deps.config.imageHost,
  });
}
