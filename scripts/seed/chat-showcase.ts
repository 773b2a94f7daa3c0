/**
 * Chat messages that show every kind of content the chat viewer renders, so the demo archive (and the
 * browser tests) see each one: mentions, emoji, links, code, quotes, lists, line breaks, embeds,
 * attachments, grouped and ungrouped runs, channels long enough to page (Older/Newer), every community
 * role and an embed without a type. Deterministic: fixed texts, and random filler only from forks of
 * the caller's generator (the other demo data stay as they were).
 */
import type { DiscordAuthor, DiscordEmbed, DiscordMessageInput } from '@api/data/discord.ts';
import type { CommunityMessageInput } from '@api/data/community.ts';
import type { MediaPool } from './media.ts';
import type { Rng } from './random.ts';
import { snowflake } from './ids.ts';
import { iso } from './time.ts';

const MINUTE = 60_000;

/** Filler lines of the long channel. */
const FILLER = [
  'good morning!',
  'anyone around for the stream later?',
  'that colour palette is so nice',
  'uploading the next batch tonight',
  'thanks everyone 🙏',
  'lol',
  'brb',
  'the new brushes work great',
];

export interface DiscordShowcaseContext {
  serverId: string;
  /** The channel that gets the long history and the showcase run (newest messages). */
  channelId: string;
  /** Channels to mention. */
  mentionChannels: string[];
  authors: DiscordAuthor[];
  roleId: string;
  emojiId: string;
  pool: MediaPool;
  /** Epoch ms after the last random message. */
  after: number;
  /** Next snowflake sequence number. */
  sequence: number;
}

/**
 * `fillerCount` plain messages (so the channel pages: more than 2 pages of 150), then the showcase run.
 * Returns the messages, oldest first.
 */
export function discordShowcase(rng: Rng, ctx: DiscordShowcaseContext, fillerCount = 260): DiscordMessageInput[] {
  const [mikan, kiwi, neko, bot, sketchy] = ctx.authors;
  const { images, zips, videos, documents } = ctx.pool;
  const messages: DiscordMessageInput[] = [];
  let time = ctx.after;
  let sequence = ctx.sequence;
  const push = (author: DiscordAuthor, gapMs: number, content: string, extra: Partial<DiscordMessageInput> = {}) => {
    time += gapMs;
    messages.push({
      id: snowflake(time, sequence++),
      server_id: ctx.serverId,
      channel_id: ctx.channelId,
      author,
      content,
      embeds: [],
      mentions: [],
      attachments: [],
      published: iso(time),
      edited: null,
      added: iso(time + 3_600_000),
      ...extra,
    });
  };

  let author = mikan;
  for (let i = 0; i < fillerCount; i += 1) {
    const switching = rng.chance(0.4);
    if (switching) author = rng.pick(ctx.authors);
    push(author, switching ? rng.int(10 * MINUTE, 6 * 60 * MINUTE) : rng.int(10_000, 4 * MINUTE), rng.pick(FILLER));
  }

  const [announcements, artDrops] = ctx.mentionChannels;
  const image = (i: number) => images[i % images.length];
  // A new day, so the showcase starts a group of its own.
  push(mikan, 20 * 60 * MINUTE, `Welcome! Rules are in <#${announcements}> and new art goes to <#${artDrops}>.`);
  push(mikan, MINUTE, `Thanks <@${kiwi.id}> and <@!${neko.id}> for the feedback!`, { mentions: [kiwi, neko] });
  push(mikan, MINUTE, `<@&${ctx.roleId}> the stream starts in 10 minutes`);
  push(
    mikan,
    MINUTE,
    `Emoji: <:blobcat:${ctx.emojiId}> <a:blobdance:${ctx.emojiId}> 🎨 :sunny: and a question from <@999999999999999999> in <#999999999999999998>`,
  );
  // Same author after more than 7.5 minutes: a new group.
  push(mikan, 9 * MINUTE, 'Links: https://example.com/gallery, [the shop](https://example.com/shop) and <https://example.com/no-preview>');
  push(kiwi, 2 * MINUTE, 'Use `ctrl+z` to undo and `ctrl+shift+z` to redo');
  push(kiwi, MINUTE, '```js\nconst layers = ["lineart", "colours"];\nconsole.log(layers.join(", "));\n```');
  push(neko, 3 * MINUTE, '> can you share the brush?\n> the soft one\nsure, it is in the zip below');
  push(neko, MINUTE, '>>> A longer quote\nthat goes on\nfor three lines');
  push(sketchy, 4 * MINUTE, 'Checklist:\n- sketch\n- lineart\n  - clean up\n1. colours\n2. export');
  push(sketchy, MINUTE, 'line one\nline two\n\nafter an empty line');
  push(sketchy, MINUTE, '**bold**, *italic*, __underline__, ~~strike~~ and ||a spoiler||');
  push(
    sketchy,
    MINUTE,
    'Tags like <b>this</b>, <script>alert("x")</script>, [a trick](javascript:alert(1)) and <img src=x onerror=alert(1)> stay text.',
  );
  push(mikan, 15 * MINUTE, 'New illustration is out!', {
    embeds: [
      {
        type: 'rich',
        url: 'https://example.com/post/4242',
        title: 'New illustration',
        description: 'Check out the full version on the page.\nHigh resolution for patrons.',
        color: 0xeb459e,
        provider: { name: 'Example Art', url: 'https://example.com' },
        author: { name: 'Mikan', url: 'https://example.com/@Mikan' },
        thumbnail: { url: `/data${image(0).path}`, width: 640, height: 480 },
      },
    ] satisfies DiscordEmbed[],
  });
  push(mikan, MINUTE, 'And the timelapse:', {
    embeds: [
      {
        type: 'video',
        url: 'https://example.com/video/77',
        title: 'Process video',
        description: 'Timelapse of the latest piece.',
        provider: { name: 'VideoSite', url: 'https://example.com' },
        thumbnail: { url: `/data${image(1).path}`, width: 640, height: 360 },
        video: { url: `/data${videos[0].path}`, width: 640, height: 360 },
      },
    ],
  });
  push(mikan, MINUTE, 'https://example.com/shop', {
    embeds: [
      { type: 'link', url: 'https://example.com/shop', title: 'Shop update', description: 'New prints are available.', color: 0x57f287 },
    ],
  });
  push(bot, 12 * MINUTE, 'Files of the week:', {
    attachments: [
      { name: image(2).name, path: image(2).path, hash: image(2).hash },
      { name: image(3).name, path: image(3).path, hash: image(3).hash },
      { name: image(4).name, path: image(4).path, hash: image(4).hash },
    ],
  });
  push(bot, MINUTE, '', {
    attachments: [
      { name: videos[0].name, path: videos[0].path, hash: videos[0].hash },
      { name: videos[1].name, path: videos[1].path, hash: videos[1].hash },
    ],
  });
  push(bot, MINUTE, 'The layered files:', { attachments: [{ name: zips[0].name, path: zips[0].path, hash: zips[0].hash }] });
  push(bot, MINUTE, 'And a note:', { attachments: [{ name: documents[0].name, path: documents[0].path, hash: documents[0].hash }] });
  push(kiwi, 30 * MINUTE, 'Last message of the showcase. ありがとう！', { edited: iso(time + 31 * MINUTE) });
  return messages;
}

const COMMUNITY_FILLER = ['Hello!', 'Love this', 'When is the next stream?', 'Thank you!', 'Great work 👏', 'おはよう！'];

/**
 * Community messages for one channel: `fillerCount` plain ones (so the channel pages), then one of each
 * kind: every role, replies, a link embed, an embed without a type and attachments (the channel's one
 * deleted message is older, on its second page: the demo archive keeps exactly one).
 */
export function communityShowcase(
  rng: Rng,
  ctx: { channelId: string; pool: MediaPool; after: number; firstId: number },
  fillerCount = 170,
): CommunityMessageInput[] {
  const messages: CommunityMessageInput[] = [];
  let time = ctx.after;
  let id = ctx.firstId;
  const push = (name: string, role: string, text: string, extra: Partial<CommunityMessageInput> = {}) => {
    time += rng.int(2 * MINUTE, 90 * MINUTE);
    id += 1;
    messages.push({
      message_id: String(id),
      channel_id: ctx.channelId,
      created_at: iso(time),
      deleted_at: null,
      replies: [],
      embeds: [],
      attachments: [],
      original_json: { user: { name, role }, created_at: iso(time), text },
      added: iso(time + 3_600_000),
      ...extra,
    });
  };
  const users: [string, string][] = [
    ['patron_42', 'user'],
    ['kiwi_fan', 'user'],
    ['nekomimi', 'user'],
  ];
  for (let i = 0; i < fillerCount; i += 1) {
    const [name, role] = rng.pick(users);
    push(name, role, rng.pick(COMMUNITY_FILLER));
  }
  const image = ctx.pool.images[0];
  push('patron_42', 'user', 'A plain patron message.\nWith a second line.');
  push('Creator', 'campaign', 'Hi all, the creator here: the new pack is live!', {
    replies: [{ user: { name: 'kiwi_fan', role: 'user' }, text: 'Yay!', created_at: iso(time + MINUTE) }],
  });
  push('Moderator', 'admin', 'Please keep the channel friendly.');
  push('Patreon', 'patreon_admin', 'This community is moderated by Patreon staff.');
  push('Creator', 'campaign', 'Shop link:', {
    embeds: [
      {
        type: 'link',
        asset_url: null,
        title_link: 'https://example.com/news',
        image_url: `/data${image.path}`,
        thumb_url: `/data${image.path}`,
        title: 'Shop update',
        text: 'New prints are available.',
      },
    ],
  });
  push('nekomimi', 'user', 'This embed lost its type:', {
    embeds: [{ title: 'Broken embed without a type', text: 'Shown as an invalid embed.' }],
  });
  push('Creator', 'campaign', 'Sketch of the day', { attachments: [{ path: image.path, name: image.name }] });
  return messages;
}
