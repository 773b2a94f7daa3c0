/**
 * One Patreon post made ready to store: its files downloaded into the store (the post file first, then
 * images, attachments and audio, each file once), its HTML with inline images archived, and all its
 * comments. Everything slow happens here, before the step that writes it.
 */
import { archiveFiles, archiveInlineImages, type ArchivedFile } from '@api/importer/content.ts';
import { PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import type { CommentInput } from '@api/data/comments.ts';
import type { PostInput } from '@api/data/posts.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { commentsPath, getDocument, nextPath } from './api.ts';
import { commentInputs, type PostPlan } from './map.ts';

export interface PreparedPost {
  post: PostInput;
  comments: CommentInput[];
}

async function archiveAll(
  ctx: ImportContext,
  client: PaysiteClient,
  plan: PostPlan,
): Promise<{ file: ArchivedFile | null; attachments: ArchivedFile[] }> {
  const [file = null] = plan.file ? await archiveFiles(ctx, client, [plan.file]) : [];
  // Patreon lists a post's image both as its image and among its images: keep one copy.
  const seen = new Set(file ? [file.hash] : []);
  const attachments = (await archiveFiles(ctx, client, plan.attachments)).filter(
    (archived) => !seen.has(archived.hash) && seen.add(archived.hash),
  );
  return { file, attachments };
}

async function fetchComments(ctx: ImportContext, client: PaysiteClient, creatorId: string, plan: PostPlan): Promise<CommentInput[]> {
  if (plan.commentCount === 0) return [];
  const out: CommentInput[] = [];
  const key = { service: ctx.service, user: creatorId, post_id: plan.id };
  try {
    for (let path: string | null = commentsPath(plan.id); path && !ctx.signal.aborted; ) {
      const doc = await getDocument(client, path, 'comments');
      out.push(...commentInputs(doc, key));
      path = nextPath(doc.links?.next);
    }
  } catch (error) {
    // A post whose comments are closed or gone still gets archived.
    if (!(error instanceof PaysiteRequestError)) throw error;
    await ctx.log(`Post ${plan.id}: comments not available (Patreon answered ${error.status}).`);
  }
  return out;
}

export async function preparePost(ctx: ImportContext, client: PaysiteClient, creatorId: string, plan: PostPlan): Promise<PreparedPost> {
  const { file, attachments } = await archiveAll(ctx, client, plan);
  const content = await archiveInlineImages(ctx, client, plan.html);
  const comments = await fetchComments(ctx, client, creatorId, plan);
  return {
    post: {
      service: ctx.service,
      user: creatorId,
      id: plan.id,
      title: plan.title,
      content,
      published: plan.published,
      edited: plan.edited,
      file,
      attachments,
      embed: plan.embed,
      poll: plan.poll,
      tags: plan.tags,
    },
    comments,
  };
}
