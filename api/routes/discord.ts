/** Discord archive: a server with its channels, the channel list, and a channel's messages (150 a page). */
import { z } from 'zod';
import type { Store } from '../data/store.ts';
import { getDiscordChannel, getDiscordServer, listDiscordMessages, type DiscordServer } from '../data/discord.ts';
import { NotFoundError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { CHAT_PAGE_SIZE } from '@shared/constants.ts';
import { CHAT_MESSAGES, chatOffset } from '@shared/validation/chat.ts';

export const SERVER_NOT_FOUND = 'Discord server not found.';

/** Exactly these keys (docs/product.md#chat-api). */
export const discordChannel = z.strictObject({
  id: z.string(),
  server_id: z.string(),
  name: z.string(),
  parent_channel_id: z.string().nullable(),
  topic: z.string().nullable(),
  is_nsfw: z.boolean(),
  type: z.number().int(),
  post_count: z.number().int(),
});

const discordServer = z.strictObject({
  id: z.string(),
  name: z.string(),
  indexed: z.string(),
  updated: z.string(),
  channels: z.array(discordChannel),
});

/** Authors and embeds are kept as Discord sent them; only the keys clients read are promised. */
const discordMessage = z.strictObject({
  id: z.string(),
  server: z.string(),
  channel: z.string(),
  author: z.looseObject({ id: z.string(), username: z.string(), avatar: z.string().nullable().optional() }),
  content: z.string(),
  embeds: z.array(z.looseObject({})),
  mentions: z.array(z.unknown()),
  attachments: z.array(z.object({ name: z.string().nullable(), path: z.string() })),
  published: z.string(),
  edited: z.string().nullable(),
  added: z.string(),
});

const idParams = z.object({ id: z.string().min(1) });

async function requireServer(db: Store, id: string): Promise<DiscordServer> {
  const server = await getDiscordServer(db, id);
  if (!server) throw new NotFoundError(SERVER_NOT_FOUND);
  return server;
}

export default defineRoutes(
  'discord',
  [
    route({
      method: 'get',
      version: 1,
      path: '/discord/server/{id}',
      summary: 'A Discord server with its channels (by position).',
      params: idParams,
      response: discordServer,
      errors: [404],
      handler: ({ params, deps }) => requireServer(deps.db, params.id),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/discord/channel/lookup/{server}',
      summary: "A Discord server's channels (by position).",
      params: z.object({ server: z.string().min(1) }),
      response: z.array(discordChannel),
      errors: [404],
      handler: async ({ params, deps }) => (await requireServer(deps.db, params.server)).channels,
    }),
    route({
      method: 'get',
      version: 1,
      path: '/discord/channel/{id}',
      summary: `A channel's messages, newest first, ${CHAT_PAGE_SIZE} a page.`,
      description: `\`o\` skips that many of the newest messages (a multiple of ${CHAT_PAGE_SIZE}); past the end the list is empty.`,
      params: idParams,
      query: z.object({ o: chatOffset }),
      response: z.array(discordMessage),
      errors: [404],
      handler: async ({ params, query, deps }) => {
        const channel = await getDiscordChannel(deps.db, params.id);
        if (!channel) throw new NotFoundError(CHAT_MESSAGES.invalidChannel);
        return await listDiscordMessages(deps.db, channel.id, query.o, CHAT_PAGE_SIZE);
      },
    }),
  ],
  'Discord servers archived as chats: servers, channels and messages.',
);
