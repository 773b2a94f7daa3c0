/** Server rendering of the Patreon community message list (static HTML). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import CommunityMessages from '@site/components/chat/CommunityMessages.tsx';
import { FILE, at, communityMessage } from './fixtures.ts';

const render = (messages = [communityMessage()]) => renderToStaticMarkup(<CommunityMessages messages={messages} imageHost="" />);

describe('CommunityMessages', () => {
  it('gives each message its id and shows author, date and markdown text', () => {
    const html = render();
    expect(html).toContain('<li id="community-message-80000001" data-message-id="80000001" class="chat-community">');
    expect(html).toContain('<span class="chat-community__author">Creator</span>');
    expect(html).toContain('<time class="chat-community__time" dateTime="2024-05-01T12:00:00">2024-05-01 12:00:00</time>');
    expect(html).toContain('<div class="chat-message__content">The new pack is <strong>live</strong></div>');
  });

  it.each([
    ['user', null],
    ['campaign', 'CREATOR'],
    ['admin', 'ADMIN'],
    ['patreon_admin', 'PATREON'],
  ])('shows role %s as %s', (role, label) => {
    const html = render([communityMessage({ replies: [], original_json: { user: { name: 'Someone', role }, text: 'hi' } })]);
    if (label) expect(html).toContain(`<span class="chat-badge chat-badge--${label.toLowerCase()}">${label}</span>`);
    else expect(html).not.toContain('chat-badge');
  });

  it("shows 'Message deleted' and nothing else of a deleted message", () => {
    const html = render([
      communityMessage({ deleted_at: at(3600_000), original_json: { user: { name: 'Creator', role: 'campaign' }, text: 'secret words' } }),
    ]);
    expect(html).toContain('<p class="chat-community__deleted">Message deleted</p>');
    expect(html).toContain('class="chat-community chat-community--deleted"');
    expect(html).not.toContain('secret words');
    expect(html).not.toContain('chat-embed');
    expect(html).not.toContain('Agreed!');
  });

  it("shows 'Invalid embed!' for an embed without a type, and typed embeds with title link, text and image", () => {
    const html = render([communityMessage({ embeds: [{ title: 'Broken', text: 'no type' }, ...communityMessage().embeds] })]);
    expect(html).toContain('<div class="chat-embed chat-embed--invalid">Invalid embed!</div>');
    expect(html).not.toContain('Broken');
    expect(html).toContain(
      '<a class="chat-embed__title" href="https://example.com/news" target="_blank" rel="noopener noreferrer">Shop update</a>',
    );
    expect(html).toContain(`<img class="chat-embed__media" src="/thumbnail/data${FILE}.png" alt="Shop update"`);
  });

  it('shows attachments and replies', () => {
    const html = render();
    expect(html).toContain(`href="/data${FILE}.png?f=print.png"`);
    expect(html).toContain('<ol class="chat-community__replies" aria-label="1 reply">');
    expect(html).toContain('<span class="chat-community__author">kiwi_fan</span>');
    expect(html).toContain('Agreed!');
  });

  it('shows messages oldest first whatever order they come in', () => {
    const html = render([
      communityMessage({ message_id: '3', created_at: at(2000) }),
      communityMessage({ message_id: '1', created_at: at(0) }),
      communityMessage({ message_id: '2', created_at: at(1000) }),
    ]);
    expect([...html.matchAll(/id="community-message-(\d+)"/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
  });
});
