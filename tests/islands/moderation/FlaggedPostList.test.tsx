/** Server rendering only (no DOM library is installed): the moderators' flagged-post list before any interaction. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import FlaggedPostList from '@site/islands/moderation/FlaggedPostList.tsx';
import type { FlaggedPost } from '@shared/shapes/flags.ts';

const post: FlaggedPost = {
  service: 'fanbox',
  user: '300',
  id: '31',
  title: 'Broken <zip>',
  creator_name: 'Carol',
  flagged_at: '2031-01-04T00:00:00.000Z',
  flag_count: 3,
  reasons: ['missing files', 'reason-other'],
};

describe('FlaggedPostList', () => {
  it('links the post and creator, shows count, time and reasons, escaped, with Dismiss disabled until hydrated', () => {
    const html = renderToStaticMarkup(<FlaggedPostList initial={[post]} />);
    expect(html).toContain('<a href="/fanbox/user/300/post/31">Broken &lt;zip&gt;</a>');
    expect(html).toContain('<a href="/fanbox/user/300">Carol</a>');
    expect(html).toContain('3, the latest <time dateTime="2031-01-04T00:00:00.000Z">2031-01-04 00:00:00</time>');
    expect(html).toContain('<dd>missing files, reason-other</dd>');
    expect(html).toMatch(
      /<button type="button" class="button" disabled="" aria-label="Dismiss the flags of Broken &lt;zip&gt;">Dismiss<\/button>/,
    );
    expect(html).not.toContain('role="alert"');
  });

  it('says so when nothing is flagged, and names a post without a title by its id', () => {
    expect(renderToStaticMarkup(<FlaggedPostList initial={[]} />)).toContain('<p class="empty">No flagged posts.</p>');
    const html = renderToStaticMarkup(<FlaggedPostList initial={[{ ...post, title: '', creator_name: null }]} />);
    expect(html).toContain('<a href="/fanbox/user/300/post/31">31</a>');
    expect(html).toContain('<a href="/fanbox/user/300">300</a>');
  });
});
