/**
 * Patreon community chats: channels of a creator and their messages (150 a page, newest first).
 * Writing a channel marks its creator has_chats.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { inTransaction, nowIso, parseJson } from './util.ts';
import { pageChatRows } from './chat-paging.ts';
import { CHAT_PAGE_SIZE } from '@shared/constants.ts';
import type { CommunityChannel, CommunityEmbed, CommunityMessage } from '@shared/shapes/chat.ts';
export type { CommunityChannel, CommunityEmbed, CommunityMessage };

export interface CommunityChannelInput {
  channel_id: string;
  creator_id: string;
  service?: string;
  name: string;
  messages_refreshed_at?: string | null;
}

export interface CommunityMessageInput {
  message_id: string;
  channel_id: string;
  created_at: string;
  deleted_at?: string | null;
  replies?: unknown[];
  embeds?: CommunityEmbed[];
  attachments?: { path: string; name?: string | null }[];
  original_json?: Record<string, unknown>;
  added?: string | null;
}

/**
 * Inserts or updates a community channel and sets has_chats on its creator (which must exist).
 * Records a 'community' change (and a 'creator' change when has_chats was off).
 */
export async function upsertCommunityChannel(db: Store, input: CommunityChannelInput): Promise<void> {
  const service = input.service ?? 'patreon';
  await inTransaction(db, async (db) => {
    await sql`INSERT INTO community_channels (channel_id, service, creator_id, name, messages_refreshed_at)
       VALUES (${input.channel_id}, ${service}, ${input.creator_id}, ${input.name}, ${input.messages_refreshed_at ?? null})
       ON CONFLICT (channel_id) DO UPDATE SET service = excluded.service, creator_id = excluded.creator_id,
         name = excluded.name, messages_refreshed_at = excluded.messages_refreshed_at`.execute(db.k);
    const flagged =
      await sql`UPDATE creators SET has_chats = 1 WHERE service = ${service} AND id = ${input.creator_id} AND has_chats = 0`.execute(db.k);
    if (Number(flagged.numAffectedRows ?? 0) > 0)
      await recordChange(db, { kind: 'creator', action: 'upsert', service, creator_id: input.creator_id });
    await recordChange(db, { kind: 'community', action: 'upsert', service, creator_id: input.creator_id, ref: input.channel_id });
  });
}

/** A creator's community channels, by name. */
export async function listCommunityChannels(db: Store, service: string, creatorId: string): Promise<CommunityChannel[]> {
  const { rows } = await sql<CommunityChannel>`SELECT channel_id, creator_id, name, messages_refreshed_at, post_count
       FROM community_channels WHERE service = ${service} AND creator_id = ${creatorId} ORDER BY name, channel_id`.execute(db.k);
  return rows;
}

/** One channel (with its creator's service), or undefined. */
export async function getCommunityChannel(db: Store, channelId: string): Promise<(CommunityChannel & { service: string }) | undefined> {
  const { rows } = await sql<CommunityChannel & { service: string }>`SELECT channel_id, creator_id, service, name,
       messages_refreshed_at, post_count FROM community_channels WHERE channel_id = ${channelId}`.execute(db.k);
  return rows[0];
}

/**
 * Inserts or updates messages (a deleted message keeps its row with deleted_at set) and refreshes the
 * post_count of every touched channel. Records a 'community' change per channel.
 */
export async function upsertCommunityMessages(db: Store, messages: CommunityMessageInput[]): Promise<void> {
  if (messages.length === 0) return;
  await inTransaction(db, async (db) => {
    const channels = new Set<string>();
    const now = nowIso();
    for (const message of messages) {
      await sql`INSERT INTO community_messages (message_id, channel_id, created_at, deleted_at, replies, embeds, attachments, original_json, added)
         VALUES (${message.message_id}, ${message.channel_id}, ${message.created_at}, ${message.deleted_at ?? null},
                 ${JSON.stringify(message.replies ?? [])}, ${JSON.stringify(message.embeds ?? [])},
                 ${JSON.stringify(message.attachments ?? [])}, ${JSON.stringify(message.original_json ?? {})}, ${message.added ?? now})
         ON CONFLICT (message_id) DO UPDATE SET channel_id = excluded.channel_id, created_at = excluded.created_at,
           deleted_at = excluded.deleted_at, replies = excluded.replies, embeds = excluded.embeds,
           attachments = excluded.attachments, original_json = excluded.original_json`.execute(db.k);
      channels.add(message.channel_id);
    }
    for (const channelId of channels) {
      await sql`UPDATE community_channels SET post_count = (SELECT count(*) FROM community_messages WHERE channel_id = ${channelId})
          WHERE channel_id = ${channelId}`.execute(db.k);
      const channel = await getCommunityChannel(db, channelId);
      await recordChange(db, {
        kind: 'community',
        action: 'upsert',
        service: channel?.service ?? 'patreon',
        creator_id: channel?.creator_id ?? null,
        ref: channelId,
      });
    }
  });
}

interface MessageRow {
  message_id: string;
  channel_id: string;
  created_at: string;
  deleted_at: string | null;
  replies: string;
  embeds: string;
  attachments: string;
  original_json: string;
}

const MESSAGE_COLUMNS = 'message_id, channel_id, created_at, deleted_at, replies, embeds, attachments, original_json';

function toMessage(row: MessageRow): CommunityMessage {
  return {
    message_id: row.message_id,
    channel_id: row.channel_id,
    created_at: row.created_at,
    deleted_at: row.deleted_at,
    replies: parseJson<unknown[]>(row.replies, []),
    embeds: parseJson<CommunityEmbed[]>(row.embeds, []),
    attachments: parseJson<{ path: string; name?: string | null }[]>(row.attachments, []),
    original_json: parseJson<Record<string, unknown>>(row.original_json, {}),
  };
}

/** A channel's messages, newest first, `limit` (CHAT_PAGE_SIZE) a page (see pageChatRows for how deep pages stay fast). */
export async function listCommunityMessages(
  db: Store,
  channelId: string,
  offset: number,
  limit = CHAT_PAGE_SIZE,
): Promise<CommunityMessage[]> {
  const total = (await getCommunityChannel(db, channelId))?.post_count ?? 0;
  return (
    await pageChatRows<MessageRow>(
      db,
      { table: 'community_messages', columns: MESSAGE_COLUMNS, time: 'created_at', id: 'message_id' },
      channelId,
      offset,
      limit,
      total,
    )
  ).map(toMessage);
}
