/**
 * Discord's answers mapped onto the archive's Discord rows (api/data/discord.ts). Message content stays
 * Discord's own markdown text (mentions as <@id>, emojis as <:name:id>): the viewer escapes and renders
 * it, as the kemono API hands it out. Avatars and emojis are not downloaded; the viewer builds their
 * URLs from the ids and hashes kept here.
 */
import { nowIso } from '@api/data/util.ts';
import { archiveTime } from '@api/importer/text.ts';
import type { ArchivedFile } from '@api/importer/content.ts';
import type { DiscordAuthor, DiscordChannelInput, DiscordEmbed, DiscordMessageInput } from '@api/data/discord.ts';
export { DISCORD_CATEGORY_TYPE as CATEGORY_TYPE } from '@api/data/discord.ts';
import type { DiscordApiChannel, DiscordApiEmbed, DiscordApiMessage, DiscordApiUser } from './api.ts';

/** Channel types whose messages we read: text, voice (its text chat), announcement, threads, stage. */
export const MESSAGE_CHANNEL_TYPES = new Set([0, 2, 5, 10, 11, 12, 13]);
export const FORUM_TYPES = new Set([15, 16]);
export const DM_TYPES = new Set([1, 3]);

/**
 * Message types kept: user messages (default, reply, slash command, context-menu command). System
 * messages (joins, pins, boosts...) carry no content of their own and would only clutter the archive.
 */
export const KEPT_MESSAGE_TYPES = new Set([0, 19, 20, 23]);

const DISCORD_EPOCH = 1420070400000n;

/** A snowflake's creation time (ms since 1970). */
export function snowflakeMs(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** Discord's ISO timestamps ('2024-05-01T12:00:00.123000+00:00') as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'. */
export function toArchiveTime(timestamp: string | null | undefined, fallbackMs?: number): string | null {
  return archiveTime(timestamp) ?? (fallbackMs === undefined ? null : nowIso(new Date(fallbackMs)));
}

export function toAuthor(user: DiscordApiUser): DiscordAuthor {
  return {
    id: user.id,
    username: user.username,
    global_name: user.global_name ?? null,
    avatar: user.avatar ?? null,
    discriminator: user.discriminator ?? '0',
    ...(user.bot ? { bot: true } : {}),
  };
}

export function toChannelInput(channel: DiscordApiChannel, serverId: string): DiscordChannelInput {
  return {
    id: channel.id,
    server_id: serverId,
    name: channel.name || channel.id,
    parent_channel_id: channel.parent_id ?? null,
    topic: channel.topic ?? null,
    is_nsfw: channel.nsfw ?? false,
    type: channel.type,
    position: channel.position ?? 0,
  };
}

/** The media URLs of an embed worth archiving (Discord's proxied copies, on its own hosts). */
export function embedMediaUrls(embed: DiscordApiEmbed): string[] {
  return (['thumbnail', 'image', 'video'] as const).flatMap((kind) => {
    const proxied = embed[kind]?.proxy_url;
    return proxied ? [proxied] : [];
  });
}

/**
 * An embed as stored: media pointing at the archive's copies ('/data/ab/cd/<sha>.<ext>'), or left out
 * when it could not be archived (the original URL is a third party's, which pages never load).
 */
export function toEmbed(embed: DiscordApiEmbed, archived: Map<string, string>): DiscordEmbed {
  const { thumbnail, image, video, ...rest } = embed;
  const out: DiscordEmbed = { ...rest };
  for (const [kind, media] of [
    ['thumbnail', thumbnail],
    ['image', image],
    ['video', video],
  ] as const) {
    const local = media?.proxy_url ? archived.get(media.proxy_url) : undefined;
    if (media && local) out[kind] = { url: `/data${local}`, width: media.width, height: media.height };
  }
  return out;
}

export function toMessageInput(
  message: DiscordApiMessage,
  serverId: string,
  attachments: ArchivedFile[],
  archivedMedia: Map<string, string>,
): DiscordMessageInput {
  return {
    id: message.id,
    server_id: serverId,
    channel_id: message.channel_id,
    author: toAuthor(message.author),
    content: message.content,
    embeds: message.embeds.map((embed) => toEmbed(embed, archivedMedia)),
    mentions: message.mentions.map(toAuthor),
    attachments,
    published: toArchiveTime(message.timestamp, snowflakeMs(message.id))!,
    edited: toArchiveTime(message.edited_timestamp),
  };
}
