/**
 * Discord's REST API (v10) as the Discord web client uses it with a user token: the token goes bare in
 * the Authorization header (no 'Bot ' prefix). Answers are validated with zod; a shape we do not
 * understand is a TransientError (retried later, with a log line naming what was odd), never a crash.
 * Discord announces its rate limits in X-RateLimit-* headers: when a bucket is exhausted we wait for it to
 * reset before the next request instead of running into 429s (the client still waits out any 429).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { discordEndpoints } from './endpoints.ts';

/** Messages a page: the API's maximum. */
export const MESSAGES_PER_PAGE = 100;
/** Longest proactive wait for a rate-limit bucket to reset; longer ones are left to the 429 handling. */
const MAX_BUCKET_WAIT_MS = 60_000;

const snowflake = z.string().regex(/^\d{1,20}$/);

export const userSchema = z.object({
  id: snowflake,
  username: z.string(),
  global_name: z.string().nullish(),
  avatar: z.string().nullish(),
  discriminator: z.string().nullish(),
  bot: z.boolean().optional(),
});
export type DiscordApiUser = z.infer<typeof userSchema>;

export const channelSchema = z.object({
  id: snowflake,
  type: z.number().int(),
  guild_id: snowflake.nullish(),
  name: z.string().nullish(),
  parent_id: snowflake.nullish(),
  topic: z.string().nullish(),
  nsfw: z.boolean().optional(),
  position: z.number().int().optional(),
});
export type DiscordApiChannel = z.infer<typeof channelSchema>;

export const guildSchema = z.object({
  id: snowflake,
  name: z.string(),
  icon: z.string().nullish(),
});
export type DiscordApiGuild = z.infer<typeof guildSchema>;

const THREADS_PER_PAGE = 25;
/** Discord's thread search stops at this offset; deeper threads need their ids given directly. */
const MAX_THREAD_OFFSET = 9975;

const threadSearchSchema = z.object({
  threads: z.array(channelSchema),
  has_more: z.boolean().optional(),
});

const mediaSchema = z.object({
  url: z.string().optional(),
  proxy_url: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});

const embedSchema = z.object({
  type: z.string().optional(),
  url: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  color: z.number().optional(),
  timestamp: z.string().optional(),
  provider: z.object({ name: z.string().optional(), url: z.string().optional() }).optional(),
  author: z.object({ name: z.string().optional(), url: z.string().optional() }).optional(),
  footer: z.object({ text: z.string().optional() }).optional(),
  fields: z.array(z.object({ name: z.string(), value: z.string(), inline: z.boolean().optional() })).optional(),
  thumbnail: mediaSchema.optional(),
  image: mediaSchema.optional(),
  video: mediaSchema.optional(),
});
export type DiscordApiEmbed = z.infer<typeof embedSchema>;

export const attachmentSchema = z.object({
  id: snowflake,
  filename: z.string(),
  url: z.string(),
  proxy_url: z.string().optional(),
  size: z.number().optional(),
  content_type: z.string().optional(),
});

export const messageSchema = z.object({
  id: snowflake,
  type: z.number().int(),
  channel_id: snowflake,
  author: userSchema,
  content: z.string(),
  timestamp: z.string(),
  edited_timestamp: z.string().nullish(),
  embeds: z.array(embedSchema).default([]),
  attachments: z.array(attachmentSchema).default([]),
  mentions: z.array(userSchema).default([]),
});
export type DiscordApiMessage = z.infer<typeof messageSchema>;

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new TransientError(
    `Discord answered ${what} in a shape the importer does not understand (${issue?.path.join('.') || 'root'}: ${issue?.message})`,
  );
}

/** Discord's API for one import: the user token of the import, its abort signal, the configured endpoint. */
export class DiscordApi {
  readonly client: PaysiteClient;

  constructor(private readonly ctx: ImportContext) {
    this.client = createPaysiteClient({
      label: 'Discord',
      endpoint: paysiteEndpoint(ctx.config.importer, 'discord'),
      importer: ctx.config.importer,
      headers: { authorization: ctx.key },
      signal: ctx.signal,
      keyRejectedStatuses: [401],
    });
  }

  private async get<T>(path: string, schema: z.ZodType<T>, what: string): Promise<T> {
    const answer = await this.client.requestJson(path);
    await this.respectBucket(answer.headers);
    return parse(schema, answer.body, what);
  }

  /** Waits until an exhausted rate-limit bucket resets (X-RateLimit-Remaining: 0). */
  private async respectBucket(headers: Record<string, string | string[] | undefined>): Promise<void> {
    if (headers['x-ratelimit-remaining'] !== '0') return;
    const seconds = Number(headers['x-ratelimit-reset-after']);
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    await sleep(Math.min(seconds * 1000, MAX_BUCKET_WAIT_MS), undefined, { signal: this.ctx.signal }).catch(() => undefined);
  }

  /** The token's own user: the key check (401 when the token is expired or revoked). */
  me(): Promise<DiscordApiUser> {
    return this.get('/users/@me', userSchema, 'the account');
  }

  channel(id: string): Promise<DiscordApiChannel> {
    return this.get(`/channels/${id}`, channelSchema, `channel ${id}`);
  }

  guild(id: string): Promise<DiscordApiGuild> {
    return this.get(`/guilds/${id}`, guildSchema, `server ${id}`);
  }

  guildChannels(id: string): Promise<DiscordApiChannel[]> {
    return this.get(`/guilds/${id}/channels`, z.array(channelSchema), `the channels of server ${id}`);
  }

  /**
   * The threads (posts) of a forum channel, newest activity first, as Discord's client lists them:
   * GET /channels/{id}/threads/search, 25 at an offset, until has_more is false.
   */
  async forumThreads(forumId: string): Promise<DiscordApiChannel[]> {
    const threads: DiscordApiChannel[] = [];
    for (let offset = 0; ; offset += THREADS_PER_PAGE) {
      const page = await this.get(
        `/channels/${forumId}/threads/search?archived=true&sort_by=last_message_time&sort_order=desc&limit=${THREADS_PER_PAGE}&offset=${offset}`,
        threadSearchSchema,
        `the threads of forum ${forumId}`,
      );
      threads.push(...page.threads);
      if (!page.has_more || page.threads.length === 0 || offset >= MAX_THREAD_OFFSET) return threads;
    }
  }

  /**
   * The (up to) 100 messages right after a message id, oldest first. Discord lists them newest first
   * whatever the direction, so they are sorted here by snowflake.
   */
  async messagesAfter(channelId: string, after: string): Promise<DiscordApiMessage[]> {
    const messages = await this.get(
      `/channels/${channelId}/messages?limit=${MESSAGES_PER_PAGE}&after=${after}`,
      z.array(messageSchema),
      `the messages of channel ${channelId}`,
    );
    return messages.sort((a, b) => compareSnowflakes(a.id, b.id));
  }

  /** The URL of a server's icon on Discord's CDN. */
  guildIconUrl(guild: DiscordApiGuild): string | undefined {
    if (!guild.icon) return undefined;
    const cdn = paysiteEndpoint(this.ctx.config.importer, 'discord').cdnUrl ?? discordEndpoints.cdn!.default;
    return `${cdn}/icons/${guild.id}/${guild.icon}.${guild.icon.startsWith('a_') ? 'gif' : 'png'}?size=512`;
  }
}

export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
