/**
 * Pages that only send the visitor elsewhere: a random creator or post, and a post named by service
 * and id alone. Rendered on demand, never stored (a stored random page would always pick the same).
 */
import { randomCreator } from '@api/data/creators.ts';
import { randomPost, resolvePost } from '@api/data/posts.ts';
import { archiveDb } from './archive-db.ts';
import { isPaysite } from '@shared/paysites.ts';
import { creatorPageUrl, postUrl } from '@shared/urls.ts';
import { badRequest, notFound, redirect, type PageOutcome } from './outcome.ts';

export function loadRandomCreator(): PageOutcome<never> {
  const creator = randomCreator(archiveDb());
  return creator ? redirect(creatorPageUrl(creator.service, creator.id)) : notFound;
}

export function loadRandomPost(): PageOutcome<never> {
  const post = randomPost(archiveDb());
  return post ? redirect(postUrl(post.service, post.user, post.id)) : notFound;
}

/** /{service}/post/{post}: 303 to the post's full URL (SPEC.md section 2). */
export function loadPostLookup(service: string | undefined, postId: string | undefined): PageOutcome<never> {
  if (!service) return badRequest('Service name is required.');
  if (!postId) return badRequest('Post ID is required.');
  if (!isPaysite(service)) return notFound;
  const found = resolvePost(archiveDb(), service, postId);
  return found ? redirect(postUrl(found.service, found.artist_id, found.post_id), 303) : notFound;
}
