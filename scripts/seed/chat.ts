/** The demo archive's chats: a Discord server with its channels and a Patreon creator's community channels. */
import type { Store } from '@api/data/store.ts';
import {
  upsertDiscordChannel,
  upsertDiscordMessages,
  type DiscordAuthor,
  type DiscordEmbed,
  type DiscordMessageInput,
} from '@api/data/discord.ts';
import { upsertCommunityChannel, upsertCommunityMessages, type CommunityMessageInput } from '@api/data/community.ts';
import type { Rng } from './random.ts';
import { snowflake } from './ids.ts';
import { DAY, iso } from './time.ts';
import { communityShowcase, discordShowcase } from './chat-showcase.ts';
import { byService, type ExtrasContext, type SeededCreator } from './extras.ts';

const DISCORD_LINES = [
  'New sketches are up in <#{channel}>!',
  'Good morning everyone :sunny:',
  'hey <@{user}> did you see the new pack?',
  'Reminder for <@&{role}>: the vote closes tonight.',
  'Here is the link: https://example.com/gallery',
  'I used `clip studio` with the default pencil',
  '> can you share the brush?\nsure, it is in the zip',
  'Todo for this week:\n- finish the lineart\n- colours\n- upload the PSD',
  'That looks amazing <:blobcat:{emoji}>',
  '```\nlayer settings: multiply 80%\n```',
  'ありがとうございます！',
  '谢谢分享！',
  'Спасибо!',
  '**Bold** and *italic* and ~~strike~~ and ||spoiler||',
];

export async function seedDiscord(db: Store, rng: Rng, ctx: ExtrasContext): Promise<void> {
  const servers = byService(ctx.creators, 'discord');
  const { images, zips, videos } = ctx.pool;
  let sequence = 1;
  for (const [serverIndex, server] of servers.entries()) {
    const baseMs = ctx.timeline.start + (30 + serverIndex * 20) * DAY + rng.int(0, DAY - 1);
    const channelId = (offset: number) => snowflake(baseMs + offset * 1000, sequence++);
    const main = serverIndex === 0;
    const category = { id: channelId(1), name: 'ART', type: 4, position: 0 };
    const channels = main
      ? [
          { id: channelId(2), name: 'announcements', type: 5, position: 1, parent: null, topic: 'News and release dates', nsfw: false },
          { id: channelId(3), name: 'art-drops', type: 0, position: 2, parent: category.id, topic: 'New art every week', nsfw: false },
          { id: channelId(4), name: 'general-chat', type: 0, position: 3, parent: null, topic: null, nsfw: false },
          { id: channelId(5), name: 'after-dark', type: 0, position: 4, parent: category.id, topic: 'Grown-up sketches', nsfw: true },
        ]
      : [{ id: channelId(2), name: 'general', type: 0, position: 1, parent: null, topic: null, nsfw: false }];
    if (main) {
      await upsertDiscordChannel(db, {
        id: category.id,
        server_id: server.id,
        name: category.name,
        type: category.type,
        position: category.position,
      });
    }
    for (const channel of channels) {
      await upsertDiscordChannel(db, {
        id: channel.id,
        server_id: server.id,
        name: channel.name,
        parent_channel_id: channel.parent,
        topic: channel.topic,
        is_nsfw: channel.nsfw,
        type: channel.type,
        position: channel.position,
      });
    }
    // A thread nested under art-drops.
    const thread = main ? { id: channelId(6), name: 'sketch-feedback', parent: channels[1].id } : null;
    if (thread) {
      await upsertDiscordChannel(db, {
        id: thread.id,
        server_id: server.id,
        name: thread.name,
        parent_channel_id: thread.parent,
        type: 11,
        position: 5,
        topic: 'Feedback thread',
      });
    }

    const authors: DiscordAuthor[] = ['Mikan', 'kiwi_fan', 'ねこすき', 'ModBot', 'sketchy'].map((username, i) => ({
      id: snowflake(ctx.timeline.start - (i + 1) * 400 * DAY, i),
      username,
      global_name: username,
      avatar: i === 3 ? null : rng.hex(32),
      discriminator: '0',
      public_flags: 0,
      bot: i === 3,
    }));
    const roleId = snowflake(baseMs, 999);
    const targets = [...channels.map((c) => c.id), ...(thread ? [thread.id] : [])];
    const total = main ? 320 : 25;
    const messages: DiscordMessageInput[] = [];
    let time = baseMs + DAY;
    let author = rng.pick(authors);
    for (let i = 0; i < total; i += 1) {
      // Runs by one author a few minutes apart (grouped), then a longer gap and a new author.
      if (rng.chance(0.35)) {
        author = rng.pick(authors);
        time += rng.int(10 * 60_000, 2 * DAY);
      } else {
        time += rng.int(5_000, 6 * 60_000);
      }
      const channel = main ? targets[i % 7 === 0 && thread ? targets.length - 1 : rng.int(0, channels.length - 1)] : targets[0];
      const content = rng
        .pick(DISCORD_LINES)
        .replace('{channel}', channels[Math.min(1, channels.length - 1)].id)
        .replace('{user}', rng.pick(authors).id)
        .replace('{role}', roleId)
        .replace('{emoji}', snowflake(baseMs, 77));
      const embeds: DiscordEmbed[] = [];
      if (rng.chance(0.1)) {
        const image = rng.pick(images);
        const isVideo = rng.chance(0.25);
        embeds.push({
          type: isVideo ? 'video' : rng.pick(['rich', 'link', 'image']),
          url: `https://example.com/post/${rng.int(1000, 9999)}`,
          title: rng.pick(['New illustration', 'Process video', 'Shop update', '新作']),
          description: rng.pick(['Check out the full version on the page.', 'Timelapse of the latest piece.', '']),
          color: rng.pick([0x5865f2, 0xeb459e, 0x57f287, 0xfee75c, undefined]),
          provider: { name: rng.pick(['Example Art', 'VideoSite']), url: 'https://example.com' },
          author: { name: author.username, url: `https://example.com/@${author.username}` },
          thumbnail: { url: `/data${image.path}`, width: 640, height: 480 },
          ...(isVideo ? { video: { url: `/data${videos[0].path}`, width: 640, height: 360 } } : {}),
        });
      }
      const attachments: { name: string; path: string; hash: string }[] = [];
      if (rng.chance(0.15)) {
        const file = rng.chance(0.7) ? rng.pick(images) : rng.chance(0.5) ? rng.pick(zips) : videos[0];
        attachments.push({ name: file.name, path: file.path, hash: file.hash });
      }
      const mentions =
        content.includes('<@') && !content.includes('<@&') ? [authors.find((a) => content.includes(a.id)) ?? authors[0]] : [];
      messages.push({
        id: snowflake(time, sequence++),
        server_id: server.id,
        channel_id: channel,
        author,
        content,
        embeds,
        mentions,
        attachments,
        published: iso(time),
        edited: rng.chance(0.05) ? iso(time + 60_000) : null,
        added: iso(time + DAY),
      });
    }
    if (main) {
      // general-chat: a history long enough to page, then one message of each kind (the newest).
      const showcase = discordShowcase(rng.fork('showcase'), {
        serverId: server.id,
        channelId: channels[2].id,
        mentionChannels: [channels[0].id, channels[1].id],
        authors,
        roleId,
        emojiId: snowflake(baseMs, 77),
        pool: ctx.pool,
        after: time,
        sequence,
      });
      sequence += showcase.length;
      messages.push(...showcase);
    }
    await upsertDiscordMessages(db, messages);
  }
}

// Patreon community ---------------------------------------------------------------------------------

const COMMUNITY_LINES = [
  'Hi everyone! Welcome to the community 🎉',
  'The new pack is live, let me know what you think.',
  'Will there be a timelapse for the last piece?',
  'Yes! Uploading it tonight.',
  'こんにちは！いつも楽しみにしています。',
  'Voting for the next theme starts on Friday.',
  'Thanks for the feedback, fixed the colours.',
];

export async function seedCommunity(db: Store, rng: Rng, ctx: ExtrasContext): Promise<void> {
  const patreon = byService(ctx.creators, 'patreon');
  const plans: { creator: SeededCreator; channels: string[] }[] = [];
  if (patreon[0]) plans.push({ creator: patreon[0], channels: ['General'] });
  if (patreon[1]) plans.push({ creator: patreon[1], channels: ['Announcements', 'Art talk', 'Off-topic'] });
  let messageId = 80_000_000;
  let channelNumber = 0;
  let deletedDone = false;
  const roles: [string, string][] = [
    ['user', 'patron_42'],
    ['user', 'kiwi_fan'],
    ['campaign', 'Creator'],
    ['admin', 'Moderator'],
    ['patreon_admin', 'Patreon'],
  ];
  for (const plan of plans) {
    for (const name of plan.channels) {
      channelNumber += 1;
      const channelId = `${plan.creator.id}-${channelNumber}`;
      const refreshed = ctx.timeline.end - rng.int(1, 30) * DAY;
      await upsertCommunityChannel(db, {
        channel_id: channelId,
        creator_id: plan.creator.id,
        service: 'patreon',
        name,
        messages_refreshed_at: iso(refreshed),
      });
      const count = plan.channels.length === 1 ? 40 : rng.int(18, 30);
      let time = ctx.timeline.start + rng.int(60, 200) * DAY;
      const messages: CommunityMessageInput[] = [];
      for (let i = 0; i < count; i += 1) {
        time += rng.int(2 * 60_000, 3 * DAY);
        messageId += rng.int(1, 9);
        const [role, userName] = rng.pick(roles);
        const text = rng.pick(COMMUNITY_LINES);
        const image = rng.pick(ctx.pool.images);
        const embeds = rng.chance(0.12)
          ? [
              rng.chance(0.8)
                ? {
                    type: 'link',
                    asset_url: null,
                    title_link: 'https://example.com/news',
                    image_url: `/data${image.path}`,
                    thumb_url: `/data${image.path}`,
                    title: 'Shop update',
                    text: 'New prints are available.',
                  }
                : { title: 'Broken embed without a type', text: 'Shown as an invalid embed.' },
            ]
          : [];
        const deleted = !deletedDone && i === 5;
        if (deleted) deletedDone = true;
        messages.push({
          message_id: String(messageId),
          channel_id: channelId,
          created_at: iso(time),
          deleted_at: deleted ? iso(time + 3_600_000) : null,
          replies: rng.chance(0.1) ? [{ user: { name: 'kiwi_fan', role: 'user' }, text: 'Agreed!', created_at: iso(time + 600_000) }] : [],
          embeds,
          attachments: rng.chance(0.1) ? [{ path: image.path, name: image.name }] : [],
          original_json: { user: { name: userName, role }, created_at: iso(time), text: deleted ? '' : text },
          added: iso(time + DAY),
        });
      }
      // The single-channel creator's channel: long enough to page, then one message of each kind.
      if (plan.channels.length === 1) {
        messages.push(...communityShowcase(rng.fork('showcase'), { channelId, pool: ctx.pool, after: time, firstId: 81_000_000 }));
      }
      await upsertCommunityMessages(db, messages);
    }
  }
}

// DMs -------------------------------------------------------------------------------------------------
