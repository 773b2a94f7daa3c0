/** Server rendering of the Discord message list (static HTML; the browser checks are in tests/e2e). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import DiscordMessages, { groupMessages } from '@site/components/chat/DiscordMessages.tsx';
import { CHAT_GROUP_GAP_MS } from '@shared/constants.ts';
import { AVATAR, FILE, HASH, USER_ID, at, discordMessage, videoEmbed } from './fixtures.ts';

const render = (props: Partial<Parameters<typeof DiscordMessages>[0]> = {}) =>
  renderToStaticMarkup(
    <DiscordMessages messages={[discordMessage()]} contentHost="https://cdn.test" imageHost="https://img.test" {...props} />,
  );

describe('DiscordMessages', () => {
  it('exports the grouping it uses', () => {
    expect(typeof groupMessages).toBe('function');
  });

  it('gives each message its id and data-message-id, and marks only the marked one', () => {
    const messages = [discordMessage({ id: '11' }), discordMessage({ id: '12', published: at(1000) })];
    const html = render({ messages, markedId: '12' });
    expect(html).toContain('<li id="message-11" data-message-id="11" class="chat-message">');
    expect(html).toContain('<li id="message-12" data-message-id="12" class="chat-message chat-message--marked" aria-current="true">');
    expect(html.match(/aria-current/g)).toHaveLength(1);
    expect(render({ messages })).not.toContain('chat-message--marked');
  });

  it('groups one author under one header, oldest first, and splits at the gap or another author', () => {
    const a = { id: USER_ID, username: 'kiwi_fan', global_name: 'Kiwi', avatar: AVATAR };
    const b = { id: '80351110224678913', username: 'mikan', global_name: null, avatar: null, discriminator: '0' };
    const messages = [
      discordMessage({ id: '5', author: a, published: at(CHAT_GROUP_GAP_MS + 70_000) }),
      discordMessage({ id: '4', author: b, published: at(65_000) }),
      discordMessage({ id: '3', author: a, published: at(60_000) }),
      discordMessage({ id: '2', author: a, published: at(30_000) }),
      discordMessage({ id: '1', author: a, published: at(0) }),
    ];
    const html = render({ messages });
    const groups = [...html.matchAll(/<li class="chat-group">(.*?)<\/ol><\/div><\/li>/g)].map((m) =>
      [...m[1].matchAll(/data-message-id="(\d+)"/g)].map((x) => x[1]),
    );
    expect(groups).toEqual([['1', '2', '3'], ['4'], ['5']]);
    expect(html.match(/class="chat-group__author"/g)).toHaveLength(3);
    expect(html).toContain(`src="https://cdn.test/avatars/${USER_ID}/${AVATAR}.png"`);
    // A user without an avatar gets the initial drawn by the page: nothing is loaded from the network.
    expect(html).not.toContain('embed/avatars');
    expect(html).toMatch(/<span class="chat-group__avatar chat-avatar chat-avatar--tone-[0-5]" aria-hidden="true">M<\/span>/);
    expect(html).toMatch(/<img class="chat-group__avatar chat-avatar chat-avatar--tone-[0-5]" src="[^"]+" data-initial="K" alt=""/);
    expect(html).toContain('<span class="chat-group__author" title="kiwi_fan">Kiwi</span>');
    expect(html).toContain('<span class="chat-group__author">mikan</span>');
    // Only the later messages of a group carry their own time, in the avatar column.
    expect(html.match(/class="chat-message__time"/g)).toHaveLength(2);
    expect(html).toContain(
      '<time class="chat-group__time" dateTime="2024-05-01T12:00:00" title="2024-05-01 12:00:00">2024-05-01 12:00:00</time>',
    );
  });

  it('renders content as markdown and marks edits and bots', () => {
    const html = render({ messages: [discordMessage({ edited: at(5000), author: { id: USER_ID, username: 'ModBot', bot: true } })] });
    expect(html).toContain(
      '<div class="chat-message__content">hello <strong>world</strong> <a href="https://example.com/" target="_blank" rel="noopener noreferrer">https://example.com</a></div>',
    );
    expect(html).toContain('<span class="chat-message__edited" title="Edited 2024-05-01 12:00:05">(edited)</span>');
    expect(html).toContain('<span class="chat-badge">BOT</span>');
  });

  it('shows embeds with provider, author, linked title, description, fields, footer, colour and a capped thumbnail', () => {
    const html = render();
    expect(html).toContain('<div class="chat-embed" style="--embed-color:#eb459e">');
    expect(html).toContain(
      '<a class="chat-embed__provider" href="https://example.com/" target="_blank" rel="noopener noreferrer">Example Art</a>',
    );
    expect(html).toContain(
      '<a class="chat-embed__author" href="https://example.com/@mikan" target="_blank" rel="noopener noreferrer">Mikan</a>',
    );
    expect(html).toContain(
      '<a class="chat-embed__title" href="https://example.com/post/1" target="_blank" rel="noopener noreferrer">New illustration</a>',
    );
    expect(html).toContain('<div class="chat-embed__description">Check the <em>full</em> version</div>');
    expect(html).toContain('<dt>Size</dt><dd>A4</dd>');
    expect(html).toContain('<small class="chat-embed__footer">Posted on Example</small>');
    expect(html).toContain(
      `<img class="chat-embed__media" src="https://img.test/thumbnail/data${FILE}.png" alt="New illustration" width="400" height="300"`,
    );
  });

  it('shows an embed video with its thumbnail as poster, and the default colour without one', () => {
    const html = render({ messages: [discordMessage({ embeds: [{ ...videoEmbed(), color: undefined }], attachments: [] })] });
    expect(html).toContain('style="--embed-color:#4f545c"');
    expect(html).toContain(
      `<video class="chat-embed__media" controls="" preload="metadata" src="https://img.test/data${FILE}.mp4" poster="https://img.test/thumbnail/data${FILE}.jpg" width="400" height="225">`,
    );
  });

  it('leaves out embeds with nothing to show and media that is not archived', () => {
    const html = render({
      messages: [
        discordMessage({ embeds: [{ type: 'rich' }, { type: 'image', thumbnail: { url: 'https://third.party/x.png' } }], attachments: [] }),
      ],
    });
    expect(html).not.toContain('chat-embed');
    expect(html).not.toContain('third.party');
  });

  it('shows attachments: image thumbnails, video players, file links with an archive icon and browse link', () => {
    const html = render();
    expect(html).toContain(
      `<a class="chat-attachment chat-attachment--image" href="https://img.test/data${FILE}.png?f=sketch.png" target="_blank" rel="noopener noreferrer"><img src="https://img.test/thumbnail/data${FILE}.png" alt="sketch.png"`,
    );
    expect(html).toContain(
      `<video class="chat-attachment chat-attachment--video" controls="" preload="metadata" src="https://img.test/data${FILE}.webm">`,
    );
    expect(html).toMatch(/<div class="chat-attachment chat-file chat-file--archive"><svg[^>]*role="img" aria-label="Archive"/);
    expect(html).toContain(`<a class="chat-file__browse" href="/file/${HASH}" target="_blank" rel="noopener noreferrer">browse »</a>`);
    expect(html).toMatch(
      /<div class="chat-attachment chat-file"><svg[^>]*aria-hidden="true"[^>]*>.*?<a class="chat-file__name" href="[^"]*\.txt\?f=notes\.txt" download="notes\.txt"/,
    );
  });

  it('renders an empty list for no messages', () => {
    expect(render({ messages: [] })).toBe('<ol class="chat-log chat-log--discord"></ol>');
  });
});
