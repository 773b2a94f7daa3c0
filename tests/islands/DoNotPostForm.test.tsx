/** Server rendering only (no DOM library is installed): the do-not-post page's islands before any interaction. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import DoNotPostForm from '@site/islands/moderation/DoNotPostForm.tsx';
import LiftButton, { liftQuestion } from '@site/islands/moderation/LiftButton.tsx';
import { PAYSITES } from '@shared/paysites/index.ts';

describe('DoNotPostForm', () => {
  it('asks for a URL or service + creator id + post id, and a required reason of at most 1000 characters', () => {
    const html = renderToStaticMarkup(<DoNotPostForm />);
    expect(html).toContain('aria-label="Remove a creator or a post"');
    expect(html).toContain('name="url"');
    expect(html).toContain('name="creator_id"');
    expect(html).toContain('name="post_id"');
    expect(html).toMatch(/<textarea name="reason" required="" maxLength="1000"/);
    for (const service of PAYSITES) expect(html).toContain(`<option value="${service}">`);
    // Waits for hydration before it can be sent (no plain-HTML path).
    expect(html).toMatch(/<button type="submit" disabled="[^"]*"[^>]*>Remove<\/button>/);
  });
});

describe('LiftButton', () => {
  it('is named after its entry and disabled until hydrated', () => {
    const html = renderToStaticMarkup(<LiftButton entryId={3} label="the creator Painter (patreon 123)" />);
    expect(html).toContain('aria-label="Lift the creator Painter (patreon 123)"');
    expect(html).toMatch(/<button type="button" class="button" disabled=""/);
  });

  it('asks before lifting, saying what lifting does', () => {
    expect(liftQuestion('the post "Sketches" (patreon post 456)')).toBe(
      'Lift the do-not-post entry of the post "Sketches" (patreon post 456)? Its pages will answer 404 instead of 410, and it may be imported again.',
    );
  });
});
