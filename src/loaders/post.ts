/**
 * Loaders of the post page and the revision page. Both read the post page answer of the API
 * (getPostPageUnlessListed: the post, its neighbours and its revisions) and its comments, and shape one view that
 * the shared components in src/components/post render. Server side only.
 *
 * A revision page shows the version as it was, with the post's revision list and comments; its
 * prev/next are the revision's own `prev`/`next` fields, which the API fills with the post's
 * neighbours (docs/decisions.md).
 */
import type { SiteDeps } from './deps.ts';
import fs from 'node:fs';
import { findRevision, getPostPageUnlessListed } from '@api/data/post-page.ts';
import { listComments } from '@api/data/comments.ts';
import { postMedia } from '@api/data/post-media.ts';
import type { FullPost, PostRevision, Video } from '@shared/shapes/posts.ts';
import { htmlToText, hashFromPath, truncateChars } from '@api/data/util.ts';
import { archiveTypeOf } from '@api/media/archives.ts';
import { thumbnailFileOf } from '@api/media/thumbnails.ts';
import { dataPaths } from '@api/config.ts';
import { formatDateTime } from '@shared/format.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { archiveFileUrl, fileUrl, postUrl, revisionUrl, thumbnailUrl } from '@shared/urls.ts';
import { badRequest, gone, notFound, ok } from './outcome.ts';
import { GONE_MESSAGES } from '@shared/error-page.ts';
import { resolveCreator } from './archive.ts';

/** og:description and the meta description: the content's text, cut here. */
export const POST_DESCRIPTION_MAX = 200;

export interface RevisionChoice {
  label: string;
  url: string;
  selected: boolean;
}

export interface Download {
  name: string;
  url: string;
  /** /file/{hash} for .zip, .rar and .7z files. */
  browseUrl: string | null;
}

interface PostParams {
  service?: string;
  id?: string;
  post?: string;
}

/** The selector's label: the API numbers versions (0 now, then 1, 2, ...); the page names them. */
function revisionLabel(version: FullPost | PostRevision): string {
  return 'revision_id' in version ? `Revision ${version.revision_id} (${formatDateTime(version.added)})` : 'Current';
}

function downloadsOf(attachments: { name: string | null; path: string; extension: string }[], imageHost: string): Download[] {
  return attachments.map((attachment) => {
    const name = attachment.name || attachment.path.split('/').pop() || attachment.path;
    const hash = hashFromPath(attachment.path);
    const archive = archiveTypeOf(attachment.extension) ?? archiveTypeOf(name.slice(name.lastIndexOf('.')));
    return { name, url: fileUrl(imageHost, attachment.path, name), browseUrl: hash && archive ? archiveFileUrl(hash) : null };
  });
}

/**
 * The videos with their poster: the video's thumbnail when its poster frame is stored (the server
 * cannot make one; the demo seed writes them), else none, and the browser shows its own placeholder.
 */
function withPosters(deps: SiteDeps, videos: Video[], imageHost: string): (Video & { poster: string | null })[] {
  const { thumbnails } = dataPaths(deps.config.dataDir);
  return videos.map((video) => {
    const hash = hashFromPath(video.path);
    const poster = hash && fs.existsSync(thumbnailFileOf(thumbnails, hash)) ? thumbnailUrl(imageHost, video.path) : null;
    return { ...video, poster };
  });
}

/** The post page (revisionId undefined) or one of its revision pages. */
async function loadView(deps: SiteDeps, params: PostParams, revisionId?: number) {
  const postId = params.post ?? '';
  const subpath = `/post/${encodeURIComponent(postId)}${revisionId !== undefined ? `/revision/${revisionId}` : ''}`;
  const resolved = await resolveCreator(deps, params.service, params.id, subpath);
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  const { imageHost } = deps.config;
  const db = deps.db;
  const { listed, page, hasComments } = await getPostPageUnlessListed(db, service, creator.id, postId, imageHost);
  if (listed) return gone(GONE_MESSAGES.post);
  if (!page) return notFound;
  let shown: FullPost | PostRevision = page.post;
  let media = { attachments: page.attachments, previews: page.previews, videos: page.videos };
  if (revisionId !== undefined) {
    const found = findRevision(page, revisionId);
    if (!found) return notFound;
    shown = found;
    media = postMedia(shown, imageHost);
  }
  const versionUrl = (id: number | undefined) =>
    id === undefined ? postUrl(service, creator.id, postId) : revisionUrl(service, creator.id, postId, id);
  // The current version alone is no choice: the selector shows when there are older ones.
  const versions = page.props.revisions.length > 1 ? page.props.revisions : [];
  const revisions: RevisionChoice[] = versions.map(([, version]) => {
    const id = 'revision_id' in version ? version.revision_id : undefined;
    return { label: revisionLabel(version), url: versionUrl(id), selected: id === revisionId };
  });
  const firstImage = media.previews.find((preview) => preview.type === 'thumbnail');
  return ok({
    service,
    creator,
    post: shown,
    revisionId: revisionId ?? null,
    url: versionUrl(revisionId),
    prevUrl: shown.prev ? postUrl(service, creator.id, shown.prev) : null,
    nextUrl: shown.next ? postUrl(service, creator.id, shown.next) : null,
    previews: media.previews,
    videos: withPosters(deps, media.videos, imageHost),
    downloads: downloadsOf(media.attachments, imageHost),
    revisions,
    comments: hasComments ? await listComments(db, service, creator.id, postId) : [],
    flagged: page.props.flagged,
    description: truncateChars(htmlToText(shown.content), POST_DESCRIPTION_MAX),
    image: firstImage && firstImage.type === 'thumbnail' ? thumbnailUrl(imageHost, firstImage.path) : null,
    imageHost,
  });
}

export async function loadPost(deps: SiteDeps, params: PostParams) {
  if (!params.post?.trim()) return badRequest('Post ID is required.');
  return await loadView(deps, params);
}

export async function loadRevision(deps: SiteDeps, params: PostParams & { revision?: string }) {
  if (!params.post?.trim()) return badRequest('Post ID is required.');
  if (!params.revision?.trim()) return badRequest('Revision ID is required.');
  // Revision ids are positive integers; anything else names no revision.
  if (!/^[1-9]\d{0,14}$/.test(params.revision)) return notFound;
  return await loadView(deps, params, Number(params.revision));
}

export type PostView = Extract<Awaited<ReturnType<typeof loadView>>, { kind: 'ok' }>['data'];

/** The page part of the document title. */
export function postPageTitle(view: PostView): string {
  const title = `"${view.post.title || 'Untitled'}" by ${view.creator.name} from ${paysiteLabel(view.service)}`;
  return view.revisionId === null ? title : `${title} (revision ${view.revisionId})`;
}
