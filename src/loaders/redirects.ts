/**
 * Pages that only send the visitor elsewhere: a random creator or post, and a post named by service
 * and id alone. Rendered on demand, never stored (a stored random page would always pick the same).
 */
import type { SiteDeps } from './deps.ts';
import { randomCreator } from '@api/data/creators.ts';
import { randomPost, resolvePost } from '@api/data/posts.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import { creatorPageUrl, postUrl } from '@shared/urls.ts';
import { badRequest, gone, notFound, redirect, type PageOutcome } from './outcome.ts';
import { isCreatorListed, isPostIdListed } from '@api/data/do-not-post.ts';
import { GONE_MESSAGES } from '@shared/error-page.ts';

export async function loadRandomCreator(deps: SiteDeps): Promise<PageOutcome<never>> {
  const creator = await randomCreator(deps.db);
  return creator ? redirect(creatorPageUrl(creator.service, creator.id)) : notFound;
}

export async function loadRandomPost(deps: SiteDeps): Promise<PageOutcome<never>> {
  const post = await randomPost(deps.db);
  return post ? redirect(postUrl(post.service, post.user, post.id)) : notFound;
}

/** /{service}/post/{post}: 303 to the post's full URL (docs/product.md#route-table). */
export async function loadPostLookup(deps: SiteDeps, service: string | undefined, postId: string | undefined): Promise<PageOutcome<never>> {
  if (!service) return badRequest('Service name is required.');
  if (!postId) return badRequest('Post ID is required.');
  if (!isPaysite(service)) return notFound;
  const listed = await isPostIdListed(deps.db, service, postId);
  if (listed) return gone(listed.post_id === null ? GONE_MESSAGES.creator : GONE_MESSAGES.post);
  const found = await resolvePost(deps.db, service, postId);
  // A post of a removed creator (its creator is listed, not its id) is found only while its row stands.
  if (found && (await isCreatorListed(deps.db, found.service, found.artist_id))) return gone(GONE_MESSAGES.creator);
  return found ? redirect(postUrl(found.service, found.artist_id, found.post_id), 303) : notFound;
}
