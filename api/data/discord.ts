/**
 * Discord archive: a server is the creator row (service 'discord', id = server id, name = server
 * name); its channels and messages live here. Messages are listed newest first, 150 a page.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { getCreator } from './creators.ts';
import { epochToIso } from '@shared/format.ts';
import { CHAT_PAGE_SIZE, PAGE_SIZE } from '@shared/constants.ts';
import { hashFromPath, inTransaction, nowIso, parseJson } from './util.ts';
import { pageChatRows } from './chat-paging.ts';
import type { DiscordChannel, DiscordServer, DiscordAuthor, DiscordEmbed, DiscordMessage, DiscordFileHit } from '@shared/shapes/chat.ts';
export type { DiscordChannel, DiscordServer, DiscordAuthor, DiscordEmbed, DiscordMessage, DiscordFileHit };

export interface DiscordChannelInput {
  id: string;
  server_id: string;
  name: string;
  parent_channel_id?: string | null;
  topic?: string | null;
  is_nsfw?: boolean;
  type?: number;
  position?: number;
}

export interface DiscordMessageInput {
  id: string;
  server_id: string;
  channel_id: string;
  author: DiscordAuthor;
  content?: string;
  embeds?: DiscordEmbed[];
  mentions?: unknown[];
  attachments?: { name?: string | null; path: string; hash?: string | null }[];
  published: string;
  edited?: string | null;
  added?: string | null;
}

interface ChannelRow extends Omit<DiscordChannel, 'is_nsfw'> {
  is_nsfw: number;
}

const CHANNEL_COLUMNS = sql.raw('id, server_id, name, parent_channel_id, topic, is_nsfw, type, post_count');

function toChannel(row: ChannelRow): DiscordChannel {
  return { ...row, is_nsfw: row.is_nsfw === 1 };
}

/**
 * Inserts or updates a channel. The server's creator row (service 'discord') should exist.
 * Records a 'discord' change (ref = channel id) only when the channel is new or differs, so a re-import
 * that changes nothing re-renders nothing.
 */
export async function upsertDiscordChannel(db: Store, input: DiscordChannelInput): Promise<void> {
  await inTransaction(db, async (db) => {
    // Row values compared with IS DISTINCT FROM (NULL-safe, on both engines): an unchanged channel is not
    // rewritten, so it counts no changed row and logs no change.
    const result = await sql`INSERT INTO discord_channels (id, server_id, name, parent_channel_id, topic, is_nsfw, type, position)
       VALUES (${input.id}, ${input.server_id}, ${input.name}, ${input.parent_channel_id ?? null}, ${input.topic ?? null},
               ${input.is_nsfw ? 1 : 0}, ${input.type ?? 0}, ${input.position ?? 0})
       ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, name = excluded.name,
         parent_channel_id = excluded.parent_channel_id, topic = excluded.topic, is_nsfw = excluded.is_nsfw,
         type = excluded.type, position = excluded.position
       WHERE (discord_channels.server_id, discord_channels.name, discord_channels.parent_channel_id, discord_channels.topic,
              discord_channels.is_nsfw, discord_channels.type, discord_channels.position)
         IS DISTINCT FROM (excluded.server_id, excluded.name, excluded.parent_channel_id, excluded.topic, excluded.is_nsfw,
                           excluded.type, excluded.position)`.execute(db.k);
    const changed = Number(result.numAffectedRows ?? 0);
    if (changed > 0)
      await recordChange(db, { kind: 'discord', action: 'upsert', service: 'discord', creator_id: input.server_id, ref: input.id });
  });
}

/** The channels of a server, ordered by position then id. */
export async function listDiscordChannels(db: Store, serverId: string): Promise<DiscordChannel[]> {
  const { rows } = await sql<ChannelRow>`SELECT ${CHANNEL_COLUMNS} FROM discord_channels WHERE server_id = ${serverId}
      ORDER BY position, id`.execute(db.k);
  return rows.map(toChannel);
}

/** Discord's channel type of a category, which groups channels and holds no messages. */
export const DISCORD_CATEGORY_TYPE = 4;

/** Categories have no pages. */
export function isViewableChannel(channel: Pick<DiscordChannel, 'type'>): boolean {
  return channel.type !== DISCORD_CATEGORY_TYPE;
}

/** One channel, or undefined. */
export async function getDiscordChannel(db: Store, channelId: string): Promise<DiscordChannel | undefined> {
  const { rows } = await sql<ChannelRow>`SELECT ${CHANNEL_COLUMNS} FROM discord_channels WHERE id = ${channelId}`.execute(db.k);
  return rows[0] && toChannel(rows[0]);
}

/** GET /v1/discord/server/{id}: the server with its channels, or undefined when unknown. */
export async function getDiscordServer(db: Store, serverId: string): Promise<DiscordServer | undefined> {
  const creator = await getCreator(db, 'discord', serverId);
  const channels = await listDiscordChannels(db, serverId);
  if (!creator && channels.length === 0) return undefined;
  return {
    id: serverId,
    name: creator?.name ?? serverId,
    indexed: epochToIso(creator?.indexed),
    updated: epochToIso(creator?.updated),
    channels,
  };
}

/** After a channel's messages changed: recounts its post_count and records a 'discord' change for it. */
async function channelMessagesChanged(db: Store, serverId: string, channelId: string): Promise<void> {
  await sql`UPDATE discord_channels SET post_count = (SELECT count(*) FROM discord_messages WHERE channel_id = ${channelId})
      WHERE id = ${channelId}`.execute(db.k);
  await recordChange(db, { kind: 'discord', action: 'upsert', service: 'discord', creator_id: serverId, ref: channelId });
}

/**
 * Inserts or updates messages (with their attachment file links) and refreshes the post_count of
 * every touched channel. Records one 'discord' change per touched channel.
 */
export async function upsertDiscordMessages(db: Store, messages: DiscordMessageInput[]): Promise<void> {
  if (messages.length === 0) return;
  await inTransaction(db, async (db) => {
    const channels = new Map<string, string>();
    const now = nowIso();
    for (const message of messages) {
      const attachments = (message.attachments ?? []).map((a) => ({ name: a.name ?? null, path: a.path }));
      await sql`INSERT INTO discord_messages (id, server_id, channel_id, author, content, embeds, mentions, attachments, published, edited, added)
         VALUES (${message.id}, ${message.server_id}, ${message.channel_id}, ${JSON.stringify(message.author)}, ${message.content ?? ''},
                 ${JSON.stringify(message.embeds ?? [])}, ${JSON.stringify(message.mentions ?? [])}, ${JSON.stringify(attachments)},
                 ${message.published}, ${message.edited ?? null}, ${message.added ?? now})
         ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, channel_id = excluded.channel_id,
           author = excluded.author, content = excluded.content, embeds = excluded.embeds, mentions = excluded.mentions,
           attachments = excluded.attachments, published = excluded.published, edited = excluded.edited`.execute(db.k);
      await sql`DELETE FROM discord_attachments WHERE message_id = ${message.id}`.execute(db.k);
      for (const [idx, a] of (message.attachments ?? []).entries()) {
        await sql`INSERT INTO discord_attachments (message_id, idx, name, path, hash)
           VALUES (${message.id}, ${idx}, ${a.name ?? null}, ${a.path}, ${a.hash ?? hashFromPath(a.path)})`.execute(db.k);
      }
      channels.set(message.channel_id, message.server_id);
    }
    for (const [channelId, serverId] of channels) await channelMessagesChanged(db, serverId, channelId);
  });
}

interface MessageRow {
  id: string;
  server_id: string;
  channel_id: string;
  author: string;
  content: string;
  embeds: string;
  mentions: string;
  attachments: string;
  published: string;
  edited: string | null;
  added: string;
}

function toMessage(row: MessageRow): DiscordMessage {
  return {
    id: row.id,
    server: row.server_id,
    channel: row.channel_id,
    author: parseJson<DiscordAuthor>(row.author, { id: '', username: '' }),
    content: row.content,
    embeds: parseJson<DiscordEmbed[]>(row.embeds, []),
    mentions: parseJson<unknown[]>(row.mentions, []),
    attachments: parseJson<{ name: string | null; path: string }[]>(row.attachments, []),
    published: row.published,
    edited: row.edited,
    added: row.added,
  };
}

const MESSAGE_COLUMNS = 'id, server_id, channel_id, author, content, embeds, mentions, attachments, published, edited, added';

/** A channel's messages, newest first, `limit` (CHAT_PAGE_SIZE) a page (see pageChatRows for how deep pages stay fast). */
export async function listDiscordMessages(db: Store, channelId: string, offset: number, limit = CHAT_PAGE_SIZE): Promise<DiscordMessage[]> {
  const total = (await getDiscordChannel(db, channelId))?.post_count ?? 0;
  return (
    await pageChatRows<MessageRow>(
      db,
      { table: 'discord_messages', columns: MESSAGE_COLUMNS, time: 'published', id: 'id' },
      channelId,
      offset,
      limit,
      total,
    )
  ).map(toMessage);
}

/** Zero-based position of a message in its channel's newest-first listing, or undefined. */
export async function discordMessagePosition(db: Store, messageId: string): Promise<{ channel_id: string; position: number } | undefined> {
  const { rows } = await sql<{ channel_id: string; published: string }>`SELECT channel_id, published FROM discord_messages
      WHERE id = ${messageId}`.execute(db.k);
  const row = rows[0];
  if (!row) return undefined;
  const counted = await sql<{ n: number }>`SELECT
        (SELECT count(*) FROM discord_messages WHERE channel_id = ${row.channel_id} AND published > ${row.published})
      + (SELECT count(*) FROM discord_messages WHERE channel_id = ${row.channel_id} AND published = ${row.published} AND id > ${messageId}) AS n`.execute(
    db.k,
  );
  const n = Number(counted.rows[0]!.n);
  return { channel_id: row.channel_id, position: n };
}

/** Messages carrying a file of this sha256 (hash search), newest first. */
export async function listDiscordMessagesWithFile(db: Store, hash: string, limit = PAGE_SIZE): Promise<DiscordFileHit[]> {
  const { rows } = await sql<MessageRow & { server_name: string | null; channel_name: string | null }>`SELECT m.id, m.server_id,
            m.channel_id, m.author, m.content, m.embeds, m.mentions, m.attachments, m.published, m.edited, m.added,
            c.name AS channel_name, s.name AS server_name
       FROM discord_messages m
       LEFT JOIN discord_channels c ON c.id = m.channel_id
       LEFT JOIN creators s ON s.service = 'discord' AND s.id = m.server_id
      WHERE m.id IN (SELECT message_id FROM discord_attachments WHERE hash = ${hash})
      ORDER BY m.published DESC, m.id DESC LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => ({
    id: row.id,
    server: row.server_id,
    server_name: row.server_name,
    channel: row.channel_id,
    channel_name: row.channel_name,
    published: row.published,
    author: parseJson<DiscordAuthor>(row.author, { id: '', username: '' }),
    content: row.content,
  }));
}

/** Deletes messages by id; refreshes post_count and records a 'discord' change per channel. */
export async function deleteDiscordMessages(db: Store, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return await inTransaction(db, async (db) => {
    const { rows } = await sql<{ channel_id: string; server_id: string }>`SELECT DISTINCT channel_id, server_id FROM discord_messages
        WHERE id IN (${sql.join(ids)}) ORDER BY channel_id, server_id`.execute(db.k);
    const result = await sql`DELETE FROM discord_messages WHERE id IN (${sql.join(ids)})`.execute(db.k);
    const deleted = Number(result.numAffectedRows ?? 0);
    for (const row of rows) await channelMessagesChanged(db, row.server_id, row.channel_id);
    return deleted;
  });
}
