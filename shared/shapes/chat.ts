/**
 * Chat rows as the API answers them and the chat components render them: Discord servers, channels and
 * messages, Patreon community channels and messages. Types only; the data modules (api/data/discord.ts,
 * api/data/community.ts) read and write them.
 */

/** A channel as the API answers it (exactly these keys); listed by position. */
export interface DiscordChannel {
  id: string;
  server_id: string;
  name: string;
  parent_channel_id: string | null;
  topic: string | null;
  is_nsfw: boolean;
  type: number;
  post_count: number;
}

export interface DiscordServer {
  id: string;
  name: string;
  indexed: string;
  updated: string;
  channels: DiscordChannel[];
}

export interface DiscordAuthor {
  id: string;
  username: string;
  avatar?: string | null;
  [key: string]: unknown;
}

export interface DiscordEmbed {
  type?: string;
  url?: string;
  title?: string;
  description?: string;
  color?: number;
  provider?: { name?: string; url?: string };
  author?: { name?: string; url?: string };
  thumbnail?: { url: string; width?: number; height?: number };
  video?: { url: string; width?: number; height?: number };
  [key: string]: unknown;
}

export interface DiscordMessage {
  id: string;
  server: string;
  channel: string;
  author: DiscordAuthor;
  content: string;
  embeds: DiscordEmbed[];
  mentions: unknown[];
  attachments: { name: string | null; path: string }[];
  published: string;
  edited: string | null;
  added: string;
}

/** A message that carries a file, for hash search ('Server X channel Y'). */
export interface DiscordFileHit {
  id: string;
  server: string;
  server_name: string | null;
  channel: string;
  channel_name: string | null;
  published: string;
  author: DiscordAuthor;
  content: string;
}

/** GET /v1/patreon/user/{id}/community items (exactly these keys). */
export interface CommunityChannel {
  channel_id: string;
  creator_id: string;
  name: string;
  messages_refreshed_at: string | null;
  post_count: number;
}

export interface CommunityEmbed {
  type?: string;
  asset_url?: string | null;
  title_link?: string | null;
  image_url?: string | null;
  thumb_url?: string | null;
  title?: string | null;
  text?: string | null;
}

export interface CommunityMessage {
  message_id: string;
  channel_id: string;
  created_at: string;
  deleted_at: string | null;
  replies: unknown[];
  embeds: CommunityEmbed[];
  attachments: { path: string; name?: string | null }[];
  /** The message as mirrored: {user: {name, role}, created_at, text, ...}. */
  original_json: Record<string, unknown>;
}
