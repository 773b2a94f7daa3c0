/** Chat messages with every field filled, for the component and security tests. */
import type { DiscordMessage } from '@api/data/discord.ts';
import type { CommunityMessage } from '@api/data/community.ts';

export const HASH = `abcd${'0'.repeat(60)}`;
export const FILE = `/ab/cd/${HASH}`;
export const USER_ID = '80351110224678912';
export const AVATAR = 'f'.repeat(32);
const base = Date.parse('2024-05-01T12:00:00Z');
export const at = (ms: number) => new Date(base + ms).toISOString().slice(0, 19);

export function discordMessage(over: Partial<DiscordMessage> = {}): DiscordMessage {
  return {
    id: '1200000000000000001',
    server: '900000000000000001',
    channel: '900000000000000002',
    author: { id: USER_ID, username: 'kiwi_fan', global_name: 'Kiwi', avatar: AVATAR, discriminator: '0' },
    content: 'hello **world** https://example.com',
    embeds: [
      {
        type: 'rich',
        url: 'https://example.com/post/1',
        title: 'New illustration',
        description: 'Check the *full* version',
        color: 0xeb459e,
        provider: { name: 'Example Art', url: 'https://example.com' },
        author: { name: 'Mikan', url: 'https://example.com/@mikan' },
        thumbnail: { url: `/data${FILE}.png`, width: 640, height: 480 },
        footer: { text: 'Posted on Example' },
        fields: [{ name: 'Size', value: 'A4', inline: true }],
      },
    ],
    mentions: [],
    attachments: [
      { name: 'sketch.png', path: `${FILE}.png` },
      { name: 'clip.webm', path: `${FILE}.webm` },
      { name: 'pack.zip', path: `${FILE}.zip` },
      { name: 'notes.txt', path: `${FILE}.txt` },
    ],
    published: at(0),
    edited: null,
    added: at(86_400_000),
    ...over,
  };
}

export function videoEmbed() {
  return {
    type: 'video',
    title: 'Process video',
    color: 0x5865f2,
    thumbnail: { url: `/data${FILE}.jpg`, width: 1280, height: 720 },
    video: { url: `/data${FILE}.mp4`, width: 1280, height: 720 },
  };
}

export function communityMessage(over: Partial<CommunityMessage> = {}): CommunityMessage {
  return {
    message_id: '80000001',
    channel_id: '42-1',
    created_at: at(0),
    deleted_at: null,
    replies: [{ user: { name: 'kiwi_fan', role: 'user' }, text: 'Agreed!', created_at: at(60_000) }],
    embeds: [
      {
        type: 'link',
        asset_url: null,
        title_link: 'https://example.com/news',
        image_url: `/data${FILE}.png`,
        thumb_url: `/data${FILE}.png`,
        title: 'Shop update',
        text: 'New prints',
      },
    ],
    attachments: [{ path: `${FILE}.png`, name: 'print.png' }],
    original_json: { user: { name: 'Creator', role: 'campaign' }, created_at: at(0), text: 'The new pack is **live**' },
    ...over,
  };
}
