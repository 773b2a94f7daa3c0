/**
 * The first step of a Discord import: which channels to read. Each given channel id is looked up; a
 * category stands for its message channels and a forum for its threads (posts); direct messages and
 * channels without access are skipped with a log line. The servers become creator rows (service
 * 'discord', id = server id) with their icons; the channels (and the categories or forums they sit in, so
 * the viewer can group them) channel rows. A server on the do-not-post list is passed over with a log line.
 * The plan is committed with the writes, so a resumed import never looks the channels up again.
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { upsertDiscordChannel, type DiscordChannelInput } from '@api/data/discord.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import { skipListedCreator } from '@api/importer/do-not-post.ts';
import { PaysiteRequestError } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import type { DiscordApi, DiscordApiChannel, DiscordApiGuild } from './api.ts';
import { CATEGORY_TYPE, DM_TYPES, FORUM_TYPES, MESSAGE_CHANNEL_TYPES, toChannelInput } from './map.ts';
import { countLabel } from '@shared/format.ts';

export interface PlannedChannel {
  id: string;
  server: string;
  /** For log lines: '#general (Server name)'. */
  label: string;
}

/** The resume position: the plan, the channel being read, the last message id stored and the count so far. */
export interface DiscordCursor {
  plan: PlannedChannel[];
  index: number;
  after: string;
  count: number;
}

/** A channel lookup refused for this account (or gone): answered with a log line, never a failed import. */
export function refusedLine(what: string, error: unknown): string | undefined {
  if (!(error instanceof PaysiteRequestError)) return undefined;
  return error.status === 403 || error.status === 404 ? `${what}: no access.` : `${what}: Discord answered ${error.status}; skipped.`;
}

interface Server {
  guild: DiscordApiGuild;
  /** False when the server itself could not be read: its id stands in for the name of a new row. */
  named: boolean;
  channels: DiscordApiChannel[];
}

export async function planChannels(ctx: ImportContext, api: DiscordApi): Promise<DiscordCursor> {
  const lines: string[] = [];
  const servers = new Map<string, Server>();
  const rows = new Map<string, DiscordChannelInput>();
  const plan: PlannedChannel[] = [];
  /** Servers on the do-not-post list met so far (one log line each). */
  const listed = new Set<string>();

  const serverOf = async (guildId: string): Promise<Server> => {
    let server = servers.get(guildId);
    if (server) return server;
    let guild: DiscordApiGuild = { id: guildId, name: guildId, icon: null };
    let named = false;
    try {
      guild = await api.guild(guildId);
      named = true;
    } catch (error) {
      if (!(error instanceof PaysiteRequestError)) throw error;
    }
    // Listing a server's channels is allowed to members; without it categories cannot be expanded.
    const channels = await api.guildChannels(guildId).catch((error: unknown) => {
      if (error instanceof PaysiteRequestError) return [] as DiscordApiChannel[];
      throw error;
    });
    server = { guild, named, channels };
    servers.set(guildId, server);
    return server;
  };

  const add = (channel: DiscordApiChannel, server: Server, parent = server.channels.find((c) => c.id === channel.parent_id)) => {
    if (plan.some((p) => p.id === channel.id)) return;
    rows.set(channel.id, toChannelInput(channel, server.guild.id));
    // The category a channel sits in, or the forum a thread belongs to, so the viewer can group them.
    if (parent && (parent.type === CATEGORY_TYPE || FORUM_TYPES.has(parent.type))) {
      rows.set(parent.id, toChannelInput(parent, server.guild.id));
      const grand = server.channels.find((c) => c.id === parent.parent_id);
      if (grand?.type === CATEGORY_TYPE) rows.set(grand.id, toChannelInput(grand, server.guild.id));
    }
    plan.push({ id: channel.id, server: server.guild.id, label: `#${channel.name || channel.id} (${server.guild.name})` });
  };

  for (const id of [...new Set(ctx.channelIds)]) {
    let channel: DiscordApiChannel;
    try {
      channel = await api.channel(id);
    } catch (error) {
      const line = refusedLine(`Channel ${id}`, error);
      if (!line) throw error;
      lines.push(line);
      continue;
    }
    if (DM_TYPES.has(channel.type) || !channel.guild_id) {
      lines.push(`Channel ${id} is a direct message channel; only server channels are archived.`);
      continue;
    }
    // A server on the do-not-post list: nothing of it is looked up or stored (its id stands in for its name).
    const skip = listed.has(channel.guild_id) ? null : await skipListedCreator(ctx, channel.guild_id);
    if (skip) lines.push(skip);
    if (skip || listed.has(channel.guild_id)) {
      listed.add(channel.guild_id);
      continue;
    }
    const server = await serverOf(channel.guild_id);
    const name = `#${channel.name || id}`;
    if (channel.type === CATEGORY_TYPE) {
      const children = server.channels
        .filter((c) => c.parent_id === id && MESSAGE_CHANNEL_TYPES.has(c.type))
        .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
      if (children.length === 0) lines.push(`Category ${channel.name || id}: no channels that can be read.`);
      for (const child of children) add(child, server);
    } else if (FORUM_TYPES.has(channel.type)) {
      let threads: DiscordApiChannel[];
      try {
        threads = await api.forumThreads(id);
      } catch (error) {
        const line = refusedLine(`Forum ${name}`, error);
        if (!line) throw error;
        lines.push(line);
        continue;
      }
      if (threads.length === 0) lines.push(`Forum ${name}: no posts.`);
      for (const thread of threads) add(thread, server, channel);
    } else if (MESSAGE_CHANNEL_TYPES.has(channel.type)) {
      add(channel, server);
    } else {
      lines.push(`Channel ${name}: this kind of channel has no messages; skipped.`);
    }
  }

  for (const { guild } of servers.values()) {
    await archiveCreatorImage(ctx, api.client, 'icons', 'discord', guild.id, api.guildIconUrl(guild));
  }
  const cursor: DiscordCursor = { plan, index: 0, after: '0', count: 0 };
  const serverCount = new Set(plan.map((p) => p.server)).size;
  lines.push(`Found ${countLabel(plan.length, 'channel')} in ${countLabel(serverCount, 'server')}.`);
  await ctx.step(
    async () => {
      for (const { guild, named } of servers.values()) {
        if (!plan.some((p) => p.server === guild.id)) continue;
        const name = named ? guild.name : ((await getCreator(ctx.db, 'discord', guild.id))?.name ?? guild.name);
        await upsertCreator(ctx.db, { service: 'discord', id: guild.id, name, has_chats: true });
      }
      for (const row of rows.values()) if (plan.some((p) => p.server === row.server_id)) await upsertDiscordChannel(ctx.db, row);
    },
    { cursor, log: lines },
  );
  return cursor;
}
