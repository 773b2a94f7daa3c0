/**
 * Hostile text for the chat security tests (tests/components/chat/security.test.tsx and
 * tests/e2e/chat-render.spec.ts): script and markup injections, javascript:/data:/vbscript: URLs
 * disguised with case, whitespace, control characters and entities, and markdown link tricks, with the
 * paths of every field of a Discord message and a community message to put them in.
 */
import type { DiscordMessage } from '@api/data/discord.ts';
import type { CommunityMessage } from '@api/data/community.ts';
import { communityMessage, discordMessage, videoEmbed } from './fixtures.ts';

export const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><iframe src=javascript:alert(1)>",
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' \t javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u0001\u0008javascript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;&#x61;vascript:alert(1)',
  'javascript&colon;alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  '//evil.test/x.png',
  '/\\evil.test/x.png',
  '/data/../../etc/passwd',
  'https://evil.test/x.png" onerror="alert(1)',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](<javascript:alert(1)>)',
  '[x]( javascript:alert(1) )',
  '[x](java&#115;cript:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](vbscript:msgbox(1))',
  '[[x](javascript:alert(1))](https://ok.test)',
  '[a [b](javascript:alert(1)) c](https://ok.test)',
  '[x](https://ok.test)(javascript:alert(1))',
  '[x](https://ok.test "t\\" onmouseover=\\"alert(1)")',
  '<javascript:alert(1)>',
  '<https://ok.test/"onmouseover="alert(1)>',
  'https://ok.test/"><script>alert(1)</script>',
  '```\n</code></pre><script>alert(1)</script>\n```',
  '`</code><script>alert(1)</script>`',
  '> <img src=x onerror=alert(1)>',
  '||<script>alert(1)</script>||',
  '<:x" onerror="alert(1):123456789012345678>',
  '<a:x:123456789012345678" onerror="alert(1)>',
  '<t:99999999999999999999:R> <t:-1:R>',
  '- <script>alert(1)</script>\n  - [x](javascript:alert(1))',
  '# <style>*{background:url(javascript:alert(1))}</style>',
  '<style>body{display:none}</style>',
  '<a href="javascript:alert(1)">x</a>',
  '<form action=javascript:alert(1)><button>x</button></form>',
  '<object data=javascript:alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

/** Paths (dot-separated, numbers index arrays) of every field a Discord message carries. */
export const DISCORD_FIELDS = [
  'id',
  'content',
  'published',
  'edited',
  'author.id',
  'author.username',
  'author.global_name',
  'author.avatar',
  'author.discriminator',
  'embeds.0.type',
  'embeds.0.url',
  'embeds.0.title',
  'embeds.0.description',
  'embeds.0.color',
  'embeds.0.provider.name',
  'embeds.0.provider.url',
  'embeds.0.author.name',
  'embeds.0.author.url',
  'embeds.0.thumbnail.url',
  'embeds.0.thumbnail.width',
  'embeds.0.footer.text',
  'embeds.0.fields.0.name',
  'embeds.0.fields.0.value',
  'embeds.1.type',
  'embeds.1.title',
  'embeds.1.video.url',
  'embeds.1.thumbnail.url',
  'embeds.1.video.height',
  'attachments.0.name',
  'attachments.0.path',
  'attachments.1.name',
  'attachments.1.path',
  'attachments.2.name',
  'attachments.2.path',
  'attachments.3.name',
  'attachments.3.path',
];

export const COMMUNITY_FIELDS = [
  'message_id',
  'created_at',
  'deleted_at',
  'original_json.text',
  'original_json.user.name',
  'original_json.user.role',
  'original_json.created_at',
  'embeds.0.type',
  'embeds.0.title',
  'embeds.0.text',
  'embeds.0.title_link',
  'embeds.0.asset_url',
  'embeds.0.image_url',
  'embeds.0.thumb_url',
  'embeds.1.title',
  'embeds.1.text',
  'attachments.0.path',
  'attachments.0.name',
  'replies.0.text',
  'replies.0.user.name',
  'replies.0.user.role',
  'replies.0.created_at',
];

export function withField<T>(value: T, path: string, payload: string): T {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = path.split('.');
  let target = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= /^\d+$/.test(keys[keys.indexOf(key) + 1] ?? '') ? [] : {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys.at(-1)!] = payload;
  return copy as T;
}

/** A Discord message whose every part renders (a rich embed, a video embed, four kinds of attachment). */
export function fullDiscordMessage(): DiscordMessage {
  return discordMessage({ embeds: [discordMessage().embeds[0], videoEmbed()] });
}

/** A community message whose every part renders (a typed and an untyped embed, an attachment, a reply). */
export function fullCommunityMessage(): CommunityMessage {
  return communityMessage({ embeds: [communityMessage().embeds[0], { title: 'no type', text: 'x' }] });
}

/** One message per payload with `field` set to it (ids kept apart unless the id is the field). */
export function hostileDiscordPage(field: string): DiscordMessage[] {
  return PAYLOADS.map((payload, index) => ({
    ...withField(fullDiscordMessage(), field, payload),
    ...(field === 'id' ? {} : { id: String(index) }),
  }));
}

export function hostileCommunityPage(field: string): CommunityMessage[] {
  return PAYLOADS.map((payload, index) => ({
    ...withField(fullCommunityMessage(), field, payload),
    ...(field === 'message_id' ? {} : { message_id: String(index) }),
  }));
}
