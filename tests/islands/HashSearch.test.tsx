/** Server rendering only (no DOM library is installed); the interactions are in tests/e2e/hash-search.spec.ts. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import HashSearch from '@site/islands/files/HashSearch.tsx';
import HashResults from '@site/islands/files/HashResults.tsx';
import { PostCard as PostCardView } from '@site/components/archive/PostCard.tsx';
import type { PostCardData as CardPost } from '@shared/shapes/posts.ts';
import type { HashSearchAnswer } from '@site/client/hash-search.ts';
import { cardAttachmentLabel } from '@shared/post-card.ts';

const HASH = 'ab'.repeat(32);
const PNG = `/ab/ab/${HASH}.png`;

function answer(partial: Partial<HashSearchAnswer>): HashSearchAnswer {
  return {
    id: 1,
    hash: HASH,
    mime: 'image/png',
    ext: '.png',
    size: 3,
    added: '2024-01-01T00:00:00',
    posts: [],
    discord_posts: [],
    ...partial,
  };
}

const post = (over: Partial<CardPost> = {}) =>
  ({
    id: '10',
    user: '20',
    service: 'patreon',
    title: 'A title',
    substring: '',
    published: '2024-06-04T23:53:36',
    file: { name: 'a.png', path: PNG },
    attachments: [],
    ...over,
  }) as CardPost;

describe('HashSearch', () => {
  it('renders the hash form without the file picker (a JavaScript enhancement) and no results before searching', () => {
    const html = renderToStaticMarkup(<HashSearch imageHost="" />);
    expect(html).not.toContain('type="file"');
    expect(html).toMatch(new RegExp('<input id="hash-search-hash" type="text"[^>]* name="hash" value=""/>'));
    expect(html).toContain('<label for="hash-search-hash">SHA-256 hash</label>');
    expect(html).toContain('Choosing a file needs JavaScript; paste its hash here.');
    expect(html).toMatch(/<button type="submit"[^>]*>Submit<\/button>/);
    expect(html).toContain('action="/search_hash" method="get"');
    expect(html).not.toContain('<progress');
    expect(html).not.toContain('hash-search__results');
  });

  it("renders the server's search: the hash in the input and its results", () => {
    const html = renderToStaticMarkup(
      <HashSearch
        imageHost=""
        initial={{ query: HASH.toUpperCase(), found: { hash: HASH, answer: { posts: [post()], discord_posts: [] } }, error: null }}
      />,
    );
    expect(html).toMatch(new RegExp(`<input id="hash-search-hash" type="text"[^>]* name="hash" value="${HASH}"/>`));
    expect(html.match(/<article class="post-card"/g)).toHaveLength(1);
    expect(html).toContain(`<code>${HASH}</code>`);
  });

  it("keeps a bad hash in the input with 'Invalid hash!' under the form", () => {
    const html = renderToStaticMarkup(<HashSearch imageHost="" initial={{ query: 'abc', found: null, error: 'Invalid hash!' }} />);
    expect(html).toMatch(/<input id="hash-search-hash" type="text"[^>]* name="hash" value="abc"\/>/);
    expect(html).toContain('<ul class="api-form-errors" role="alert"><li>Invalid hash!</li></ul>');
    expect(html).not.toContain('hash-search__results');
  });
});

describe('HashResults', () => {
  it('shows the empty state for a 404 and for a file nothing carries', () => {
    const empty = '<p class="empty">Nobody here but us chickens! There are no posts for your query.</p>';
    expect(renderToStaticMarkup(<HashResults hash={HASH} answer={null} imageHost="" />)).toContain(empty);
    expect(renderToStaticMarkup(<HashResults hash={HASH} answer={answer({})} imageHost="" />)).toContain(empty);
  });

  it('shows post cards and one Discord line per message, linking to the message', () => {
    const html = renderToStaticMarkup(
      <HashResults
        hash={HASH}
        imageHost=""
        answer={answer({
          posts: [post() as never, post({ id: '11', title: '' }) as never],
          discord_posts: [
            {
              id: '300',
              server: '100',
              server_name: 'Guild',
              channel: '200',
              channel_name: 'art',
              published: '',
              author: { id: '1', username: 'u' } as never,
              content: '',
            },
            {
              id: '301',
              server: '100',
              server_name: null,
              channel: '201',
              channel_name: null,
              published: '',
              author: { id: '1', username: 'u' } as never,
              content: '',
            },
          ],
        })}
      />,
    );
    expect(html.match(/<article class="post-card"/g)).toHaveLength(2);
    expect(html).toContain(`<code>${HASH}</code>`);
    expect(html).toContain('<li><a href="/discord/server/100/200/300">Server Guild channel art</a></li>');
    expect(html).toContain('<li><a href="/discord/server/100/201/301">Server 100 channel 201</a></li>');
    expect(html).not.toContain('Nobody here');
  });

  it('leaves out the Discord list when no message carries the file', () => {
    const html = renderToStaticMarkup(<HashResults hash={HASH} imageHost="" answer={answer({ posts: [post() as never] })} />);
    expect(html).not.toContain('hash-search__discord');
    expect(html).toContain('card-grid');
  });
});

describe('PostCardView', () => {
  it("renders the listings' card markup", () => {
    const html = renderToStaticMarkup(<PostCardView post={post()} imageHost="https://img.example.org" />);
    expect(html).toBe(
      '<article class="post-card" data-id="10" data-service="patreon" data-user="20">' +
        '<a href="/patreon/user/20/post/10"><header class="post-card__header">A title</header>' +
        `<div class="post-card__image-container"><img class="post-card__image" src="https://img.example.org/thumbnail/data${PNG}" alt="" loading="lazy" decoding="async"/></div>` +
        '<footer class="post-card__footer"><time dateTime="2024-06-04T23:53:36">2024-06-04</time><span>1 attachment</span></footer>' +
        '</a></article>',
    );
  });

  it('uses the shared title and thumbnail rules', () => {
    const long = 'x'.repeat(60);
    const html = renderToStaticMarkup(
      <PostCardView
        post={post({ title: 'DM', substring: long, file: {}, attachments: [{ path: '/a/b/c.zip' }], published: null })}
        imageHost=""
      />,
    );
    expect(html).toContain(`<header class="post-card__header">${'x'.repeat(50)}…</header>`);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<time');
    expect(html).toContain('<span>1 attachment</span>');
  });
});

describe('cardAttachmentLabel', () => {
  it('counts the file and the attachments', () => {
    expect(cardAttachmentLabel({ file: {}, attachments: [] })).toBe('No attachments');
    expect(cardAttachmentLabel({ file: null })).toBe('No attachments');
    expect(cardAttachmentLabel({ file: { path: PNG } })).toBe('1 attachment');
    expect(cardAttachmentLabel({ file: { path: PNG }, attachments: [{}, {}] })).toBe('3 attachments');
  });
});
