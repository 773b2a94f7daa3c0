/**
 * Chat content is untrusted: hostile text goes through EVERY field of a Discord message and a
 * community message, and the rendered HTML must hold only the elements the components write, no
 * event handlers, no style but the embed colour, links only to http(s) or the archive (always in a
 * new tab without opener or referrer), and media only from the archive or the content host.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import DiscordMessages from '@site/components/chat/DiscordMessages.tsx';
import CommunityMessages from '@site/components/chat/CommunityMessages.tsx';
import type { DiscordMessage } from '@api/data/discord.ts';
import type { CommunityMessage } from '@api/data/community.ts';
import { discordMessage } from './fixtures.ts';
import {
  COMMUNITY_FIELDS,
  DISCORD_FIELDS,
  PAYLOADS,
  fullCommunityMessage,
  fullDiscordMessage,
  hostileCommunityPage,
  hostileDiscordPage,
  withField,
} from './hostile.ts';

const CONTENT_HOST = 'https://cdn.test';
const ALLOWED_TAGS = new Set([
  'ol',
  'ul',
  'li',
  'div',
  'span',
  'a',
  'img',
  'video',
  'br',
  'strong',
  'em',
  'u',
  's',
  'code',
  'pre',
  'blockquote',
  'small',
  'time',
  'dl',
  'dt',
  'dd',
  'p',
  'svg',
  'title',
  'path',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster', 'srcset', 'action', 'formaction', 'data', 'xlink:href', 'background', 'cite']);
const ARCHIVE = /^\/(?:thumbnail\/)?data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}(?:\.[a-z0-9]+)?(?:\?f=[^"]*)?$/i;
const BROWSE = /^\/file\/[0-9a-f]{64}$/;
const CONTENT_HOST_MEDIA =
  /^https:\/\/cdn\.test\/(?:avatars\/\d+\/(?:a_)?[0-9a-f]{32}\.png|embed\/avatars\/[0-5]\.png|emojis\/\d+\.(?:png|gif))$/;

function decode(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every problem found in the markup, as readable lines (empty when safe). */
function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  for (const tag of html.matchAll(/<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s[^>]*)?)\/?>/g)) {
    const [, name, attributes] = tag;
    if (!ALLOWED_TAGS.has(name.toLowerCase())) problems.push(`element <${name}>`);
    const attrs = new Map<string, string>();
    // React writes every attribute as name="value" with quotes escaped, so this split is exact.
    const rest = attributes.replace(/\s([^\s="/>]+)(?:="([^"]*)")?/g, (_, key: string, value = '') => {
      attrs.set(key.toLowerCase(), decode(value));
      return '';
    });
    if (rest.trim() !== '' && rest.trim() !== '/') problems.push(`unparsed attributes ${JSON.stringify(rest)} in <${name}>`);
    for (const [key, value] of attrs) {
      if (key.startsWith('on')) problems.push(`event handler ${key} on <${name}>`);
      if (key === 'style' && !/^--embed-color:#[0-9a-f]{6}$/.test(value)) problems.push(`style ${JSON.stringify(value)}`);
      if (!URL_ATTRIBUTES.has(key)) continue;
      const isMedia = key !== 'href';
      const ok = isMedia
        ? (ARCHIVE.test(value) && !value.includes('?')) || CONTENT_HOST_MEDIA.test(value)
        : /^https?:\/\//i.test(value) || ARCHIVE.test(value) || BROWSE.test(value);
      if (!ok) problems.push(`${key}=${JSON.stringify(value)} on <${name}>`);
      if (isMedia && !['img', 'video'].includes(name)) problems.push(`${key} on <${name}>`);
    }
    if (name === 'a' && (attrs.get('target') !== '_blank' || attrs.get('rel') !== 'noopener noreferrer')) {
      problems.push(`link without target=_blank rel="noopener noreferrer": ${tag[0]}`);
    }
  }
  if (/<script/i.test(html)) problems.push('script element');
  return problems;
}

describe('the safety check itself', () => {
  it('catches what it is meant to catch', () => {
    expect(unsafeParts('<script>x</script>')).toContain('element <script>');
    expect(unsafeParts('<img src="/x" onerror="a()"/>')).toEqual(['src="/x" on <img>', 'event handler onerror on <img>']);
    expect(unsafeParts('<a href="javascript:alert(1)" target="_blank" rel="noopener noreferrer">x</a>')).toHaveLength(1);
    expect(unsafeParts('<a href="https://ok.test/">x</a>')).toHaveLength(1);
    expect(unsafeParts('<img src="https://evil.test/x.png"/>')).toHaveLength(1);
    expect(unsafeParts('<div style="background:url(x)"></div>')).toHaveLength(1);
  });
});

describe('Discord messages with hostile fields', () => {
  const base = fullDiscordMessage();

  it('the untouched message renders every part (so each field below is really rendered)', () => {
    const html = renderToStaticMarkup(<DiscordMessages messages={[base]} contentHost={CONTENT_HOST} imageHost="" />);
    for (const part of [
      'chat-embed__provider',
      'chat-embed__author',
      'chat-embed__title',
      'chat-embed__description',
      'chat-embed__footer',
      '<dt>',
      'video class="chat-embed__media"',
      'chat-attachment--image',
      'chat-attachment--video',
      'chat-file--archive',
      'chat-file__name',
      'chat-group__avatar',
    ]) {
      expect(html).toContain(part);
    }
    expect(unsafeParts(html)).toEqual([]);
  });

  const render = (messages: DiscordMessage[], markedId?: string) =>
    renderToStaticMarkup(<DiscordMessages messages={messages} markedId={markedId} contentHost={CONTENT_HOST} imageHost="" />);

  it.each(DISCORD_FIELDS)('%s', (field) => {
    // Every payload in one page (each message a second apart, so some group and some do not)...
    if (unsafeParts(render(hostileDiscordPage(field), PAYLOADS[0])).length === 0) return;
    // ...and when that fails, one at a time to say which.
    for (const payload of PAYLOADS) {
      expect(unsafeParts(render([withField(base, field, payload)], payload)), `${field} = ${JSON.stringify(payload)}`).toEqual([]);
    }
  });
});

describe('community messages with hostile fields', () => {
  const base = fullCommunityMessage();

  it('the untouched message renders every part', () => {
    const html = renderToStaticMarkup(<CommunityMessages messages={[base]} imageHost="" />);
    for (const part of [
      'chat-embed__title',
      'chat-embed__description',
      'chat-embed__media',
      'Invalid embed!',
      'chat-attachment--image',
      'chat-community__replies',
      'chat-badge',
    ]) {
      expect(html).toContain(part);
    }
    expect(unsafeParts(html)).toEqual([]);
  });

  const render = (messages: CommunityMessage[]) => renderToStaticMarkup(<CommunityMessages messages={messages} imageHost="" />);

  it.each(COMMUNITY_FIELDS)('%s', (field) => {
    if (unsafeParts(render(hostileCommunityPage(field))).length === 0) return;
    for (const payload of PAYLOADS) {
      expect(unsafeParts(render([withField(base, field, payload)])), `${field} = ${JSON.stringify(payload)}`).toEqual([]);
    }
  });
});

describe('hostile text shows as text', () => {
  it('keeps a script tag in content visible and escaped', () => {
    const html = renderToStaticMarkup(
      <DiscordMessages messages={[discordMessage({ content: '<script>alert(1)</script>' })]} contentHost={CONTENT_HOST} imageHost="" />,
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
