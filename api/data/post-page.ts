/**
 * The post page answer (GET /v1/{service}/user/{id}/post/{post}) and the revision answer: the full post,
 * its media lists, and props {flagged, revisions}. The site's post and revision pages render the same.
 */
import type { Store } from './store.ts';
import { getPostAndFlag } from './posts.ts';
import { postMedia } from './post-media.ts';
import { revisionsWithNeighbours } from './post-revisions.ts';
import type { PostPage, PostRevision, PostRevisionPage } from '@shared/shapes/posts.ts';

/**
 * The post page answer of GET /v1/{service}/user/{id}/post/{post}: the full post (getPostAndFlag), its
 * attachments, previews and videos with `server` set to `server` (the origin that serves files,
 * e.g. 'http://localhost:4321'), and props {flagged, revisions}. Undefined when the post does not exist.
 *
 * props.revisions are [index, post] pairs: [0, the post as it is now], then [1, newest older version],
 * [2, ...], so a post without older versions has the one pair. Clients (KToolBox, kemono-dl) read the
 * index as an integer; an older version is told apart by its revision_id.
 */
export async function getPostPage(
  db: Store,
  service: string,
  creatorId: string,
  postId: string,
  server = '',
): Promise<PostPage | undefined> {
  const found = await getPostAndFlag(db, service, creatorId, postId);
  if (!found) return undefined;
  const { post, flagged } = found;
  // The revisions carry the current post's neighbours, which getPostAndFlag has just looked up.
  const older = await revisionsWithNeighbours(db, service, creatorId, postId, post);
  const revisions: PostPage['props']['revisions'] = [[0, post], ...older.map((rev, i): [number, PostRevision] => [i + 1, rev])];
  return { post, ...postMedia(post, server), props: { flagged, revisions } };
}

/** The older version `revisionId` among a post page's revisions, or undefined. */
export function findRevision(page: PostPage, revisionId: number): PostRevision | undefined {
  const found = page.props.revisions.find(([, version]) => 'revision_id' in version && version.revision_id === revisionId);
  return found?.[1] as PostRevision | undefined;
}

/**
 * GET /v1/{service}/user/{id}/post/{post}/revision/{revision}: the same envelope as getPostPage
 * (`props` is the post's: flag state and every version), with the revision as `post` and its
 * attachments, previews and videos. Undefined when the post or the revision does not exist.
 */
export async function getPostRevisionPage(
  db: Store,
  service: string,
  creatorId: string,
  postId: string,
  revisionId: number,
  server = '',
): Promise<PostRevisionPage | undefined> {
  const page = await getPostPage(db, service, creatorId, postId, server);
  const revision = page && findRevision(page, revisionId);
  if (!page || !revision) return undefined;
  return { post: revision, ...postMedia(revision, server), props: page.props };
}
