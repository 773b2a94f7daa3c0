/**
 * The post page answer (GET /v1/{service}/user/{id}/post/{post}) and the revision answer: the full post,
 * its media lists, and props {flagged, revisions}. The site's post and revision pages render the same.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { getFullRowAnd, toFullPost } from './post-rows.ts';
import { NEIGHBOUR_COLUMNS, type PostNeighbours } from './post-neighbours.ts';
import { FLAGGED_COLUMN } from './flags.ts';
import { postListedQuery } from './do-not-post.ts';
import { HAS_COMMENTS_COLUMN } from './comments.ts';
import { postMedia } from './post-media.ts';
import { HAS_REVISIONS_COLUMN, revisionsWithNeighbours } from './post-revisions.ts';
import type { FullPost, PostPage, PostRevision, PostRevisionPage } from '@shared/shapes/posts.ts';

interface PostLookup {
  /** The post itself is on the do-not-post list (its creator's entry is the creator lookup's to answer). */
  listed: boolean;
  found?: { post: FullPost; flagged: boolean; hasRevisions: boolean; hasComments: boolean };
}

/**
 * What a post page needs to know about its post, in one statement (the page a rebuild renders most):
 * the row with both neighbours, whether it is flagged, has older versions or comments (most have
 * neither, so those queries are skipped), and whether the post is listed.
 */
async function lookUpPost(db: Store, service: string, creatorId: string, postId: string): Promise<PostLookup> {
  type Extra = PostNeighbours & { flagged: number; has_revisions: number; has_comments: number; listed: number };
  const { row, extra } = await getFullRowAnd<Extra>(
    db,
    service,
    creatorId,
    postId,
    sql`${NEIGHBOUR_COLUMNS}, ${FLAGGED_COLUMN}, ${HAS_REVISIONS_COLUMN}, ${HAS_COMMENTS_COLUMN},
      ${postListedQuery(service, creatorId, postId)} AS listed`,
  );
  const found = row && {
    post: toFullPost(row, row),
    flagged: Number(row.flagged) === 1,
    hasRevisions: Number(row.has_revisions) === 1,
    hasComments: Number(row.has_comments) === 1,
  };
  return { listed: Number(extra.listed) > 0, found };
}

async function pageOf(db: Store, found: NonNullable<PostLookup['found']>, server: string): Promise<PostPage> {
  const { post, flagged } = found;
  // The revisions carry the current post's neighbours, which lookUpPost has just read.
  const older = found.hasRevisions ? await revisionsWithNeighbours(db, post.service, post.user, post.id, post) : [];
  const revisions: PostPage['props']['revisions'] = [[0, post], ...older.map((rev, i): [number, PostRevision] => [i + 1, rev])];
  return { post, ...postMedia(post, server), props: { flagged, revisions } };
}

/**
 * The post page answer of GET /v1/{service}/user/{id}/post/{post}: the full post (lookUpPost), its
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
  const { found } = await lookUpPost(db, service, creatorId, postId);
  return found && (await pageOf(db, found, server));
}

/**
 * The site's post page: getPostPage, unless the post itself was removed at its owner's request
 * (`listed`, even when its row came back), and whether it has comments to list.
 */
export async function getPostPageUnlessListed(
  db: Store,
  service: string,
  creatorId: string,
  postId: string,
  server = '',
): Promise<{ listed: boolean; page: PostPage | undefined; hasComments: boolean }> {
  const { listed, found } = await lookUpPost(db, service, creatorId, postId);
  return { listed, page: found && !listed ? await pageOf(db, found, server) : undefined, hasComments: found?.hasComments ?? false };
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
