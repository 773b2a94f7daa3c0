/** Server rendering only (no DOM library is installed); the dialog's behaviour is in tests/e2e/takedown.spec.ts. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import TakedownButton, { takedownSummary } from '@site/islands/moderation/TakedownButton.tsx';
import { describeRemoval, takedownPath } from '@site/islands/moderation/takedowns.ts';

const creator = { kind: 'creator', service: 'patreon', creatorId: '123', creatorName: 'Painter' } as const;
const post = { ...creator, kind: 'post', postId: '456', postTitle: 'Sketches' } as const;

describe('TakedownButton', () => {
  it('renders nothing on the stored page: only an administrator, known after hydration, sees it', () => {
    expect(renderToStaticMarkup(<TakedownButton {...creator} />)).toBe('');
    expect(renderToStaticMarkup(<TakedownButton {...post} />)).toBe('');
  });

  it('names what a creator takedown removes', () => {
    const summary = takedownSummary(creator);
    expect(summary.title).toBe('Remove Painter');
    expect(summary.text).toContain('Painter (patreon 123)');
    expect(summary.text).toContain('its posts, files');
    expect(summary.text).toContain('410 Gone');
    expect(summary.submit).toBe('Remove Painter');
  });

  it('names the post, its creator and an untitled post', () => {
    expect(takedownSummary(post).title).toBe('Remove the post "Sketches"');
    expect(takedownSummary(post).text).toContain('(patreon post 456) by Painter');
    expect(takedownSummary({ ...post, postTitle: '' }).title).toBe('Remove the post "Untitled"');
  });
});

describe('takedown calls and notices', () => {
  it('calls the creator or the post takedown route', () => {
    expect(takedownPath({ service: 'patreon', creatorId: '1 2', postId: null })).toBe('/admin/takedown/patreon/user/1%202');
    expect(takedownPath({ service: 'patreon', creatorId: '1', postId: '9' })).toBe('/admin/takedown/patreon/user/1/post/9');
  });

  it('describes what the server removed', () => {
    expect(describeRemoval({ removed: { posts: 1 }, files_deleted: 1, files_kept: 0 })).toBe('1 post, 1 file deleted');
    expect(describeRemoval({ removed: { posts: 12 }, files_deleted: 30, files_kept: 2 })).toBe(
      '12 posts, 30 files deleted (2 kept: still used elsewhere)',
    );
  });
});
