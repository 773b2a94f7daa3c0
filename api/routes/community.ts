/** Patreon community chats: a creator's channels and a channel's messages (150 a page). */
import { z } from 'zod';
import { getCommunityChannel, listCommunityChannels, listCommunityMessages } from '../data/community.ts';
import { NotFoundError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { requireCreator } from './creator-common.ts';
import { CHAT_PAGE_SIZE } from '@shared/constants.ts';
import { CHAT_MESSAGES, chatOffset } from '@shared/validation/chat.ts';
import { artistIdParam } from '@shared/validation/params.ts';

const SERVICE = 'patreon';

/** Exactly these keys (docs/product.md#chat-api). */
const communityChannel = z.strictObject({
  channel_id: z.string(),
  creator_id: z.string(),
  name: z.string(),
  messages_refreshed_at: z.string().nullable(),
  post_count: z.number().int(),
});

const optionalText = z.string().nullable().optional();

/** Embeds as mirrored; one without a type is kept (the page shows 'Invalid embed!'). */
const communityEmbed = z.object({
  type: z.string().optional(),
  asset_url: optionalText,
  title_link: optionalText,
  image_url: optionalText,
  thumb_url: optionalText,
  title: optionalText,
  text: optionalText,
});

const communityMessage = z.strictObject({
  message_id: z.string(),
  channel_id: z.string(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  replies: z.array(z.unknown()),
  embeds: z.array(communityEmbed),
  attachments: z.array(z.object({ path: z.string(), name: optionalText })),
  original_json: z.record(z.string(), z.unknown()),
});

export default defineRoutes(
  'community',
  [
    route({
      method: 'get',
      version: 1,
      path: '/patreon/user/{id}/community',
      summary: "A Patreon creator's community channels, by name.",
      params: z.object({ id: artistIdParam }),
      response: z.array(communityChannel),
      errors: [404],
      handler: async ({ params, deps }) => {
        await requireCreator(deps.db, SERVICE, params.id);
        return await listCommunityChannels(deps.db, SERVICE, params.id);
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/patreon/user/{channel}/community/messages',
      summary: `A community channel's messages, newest first, ${CHAT_PAGE_SIZE} a page (deleted ones included, with deleted_at).`,
      description: `\`o\` skips that many of the newest messages (a multiple of ${CHAT_PAGE_SIZE}); past the end the list is empty.`,
      params: z.object({ channel: z.string().min(1) }),
      query: z.object({ o: chatOffset }),
      response: z.array(communityMessage),
      errors: [404],
      handler: async ({ params, query, deps }) => {
        const channel = await getCommunityChannel(deps.db, params.channel);
        if (!channel || channel.service !== SERVICE) throw new NotFoundError(CHAT_MESSAGES.invalidChannel);
        return await listCommunityMessages(deps.db, channel.channel_id, query.o, CHAT_PAGE_SIZE);
      },
    }),
  ],
  'Patreon community chats: channels and messages.',
);
