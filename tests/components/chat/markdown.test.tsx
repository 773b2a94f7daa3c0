/** Chat markdown rendered to static HTML (react-dom/server; no DOM library is installed). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChatMarkdown, parseChatMarkdown } from '@site/components/chat/markdown.tsx';

const ID = '123456789012345678';
const html = (text: string, contentHost: string | undefined = 'https://cdn.test') =>
  renderToStaticMarkup(<ChatMarkdown text={text} contentHost={contentHost} />);
const LINK = 'target="_blank" rel="noopener noreferrer"';

describe('ChatMarkdown', () => {
  it('shows user, channel and role mentions as unknown placeholders', () => {
    expect(html(`hi <@${ID}> <@!${ID}> in <#${ID}> for <@&${ID}>, @everyone @here`)).toBe(
      'hi <span class="chat-mention">@unknown-user</span> <span class="chat-mention">@unknown-user</span> in ' +
        '<span class="chat-mention">#unknown-channel</span> for <span class="chat-mention">@unknown-role</span>, ' +
        '<span class="chat-mention">@everyone</span> <span class="chat-mention">@here</span>',
    );
  });

  it('shows custom emojis from the content host, animated ones as gif; ":name:" without a host', () => {
    expect(html(`<:blobcat:${ID}> <a:dance:${ID}>`)).toBe(
      `<img class="chat-emoji" src="https://cdn.test/emojis/${ID}.png" alt=":blobcat:" title=":blobcat:" width="22" height="22" loading="lazy"/> ` +
        `<img class="chat-emoji" src="https://cdn.test/emojis/${ID}.gif" alt=":dance:" title=":dance:" width="22" height="22" loading="lazy"/>`,
    );
    expect(html(`<:blobcat:${ID}>`, '')).toBe(':blobcat:');
  });

  it('opens links in a new tab: bare, <autolinked> and masked', () => {
    expect(html('see https://example.com/a and <https://example.org> or [the shop](https://shop.test/x "Shop")')).toBe(
      `see <a href="https://example.com/a" ${LINK}>https://example.com/a</a> and <a href="https://example.org/" ${LINK}>https://example.org</a>` +
        ` or <a href="https://shop.test/x" ${LINK} title="Shop">the shop</a>`,
    );
  });

  it('shows a masked link to anything but http(s) as its label only', () => {
    expect(html('[click](javascript:alert(1)) [data](data:text/html,x)')).toBe('click data');
  });

  it('never nests links', () => {
    expect(html('[see https://a.test](https://b.test)')).toBe(`<a href="https://b.test/" ${LINK}>see https://a.test</a>`);
  });

  it('renders code blocks and inline code as text', () => {
    expect(html('```js\nconst a = "<b>";\n```\nuse `<i>` here')).toBe(
      '<pre class="chat-code"><code data-lang="js">const a = &quot;&lt;b&gt;&quot;;</code></pre>use <code>&lt;i&gt;</code> here',
    );
  });

  it('renders quotes, line breaks and emphasis', () => {
    expect(html('> quoted\n> twice\nafter')).toBe('<blockquote class="chat-quote">quoted<br/>twice</blockquote>after');
    expect(html('**b** *i* __u__ ~~s~~\nnext')).toBe('<strong>b</strong> <em>i</em> <u>u</u> <s>s</s><br/>next');
    expect(html('||secret||')).toBe('<span class="chat-spoiler" tabindex="0" title="Spoiler">secret</span>');
  });

  it('renders lists: bulleted, numbered from their first number, nested', () => {
    expect(html('Todo:\n- lineart\n- **colours**\nthen')).toBe(
      'Todo:<ul class="chat-list"><li>lineart</li><li><strong>colours</strong></li></ul>then',
    );
    expect(html('3. three\n4. four')).toBe('<ol class="chat-list" start="3"><li>three</li><li>four</li></ol>');
    expect(html('- top\n  - nested\n- next')).toBe(
      '<ul class="chat-list"><li>top<ul class="chat-list"><li>nested</li></ul></li><li>next</li></ul>',
    );
    expect(html('a - b and 2. c')).toBe('a - b and 2. c');
  });

  it('renders headings, subtext and timestamps', () => {
    expect(html('# Big\n-# small print')).toBe(
      '<span class="chat-heading chat-heading--1">Big</span><small class="chat-subtext">small print</small>',
    );
    expect(html('<t:1700000000:R>')).toBe('<time class="chat-timestamp" dateTime="2023-11-14T22:13:20Z">2023-11-14 22:13:20</time>');
  });

  it('shows text the parser is not given (too long) as plain text with line breaks', () => {
    const long = `${'**x** '.repeat(2000)}\nend`;
    const out = html(long);
    expect(out).toContain('**x**');
    expect(out.endsWith('<br/>end')).toBe(true);
    expect(parseChatMarkdown('')).toEqual([]);
  });

  it('renders nothing for empty text', () => {
    expect(html('')).toBe('');
  });
});
