/**
 * What every importer does with the do-not-post list (api/data/do-not-post.ts) and with flags:
 *
 * - skipListedCreator before anything of a creator is fetched or stored (icon, banner, profile, posts,
 *   DMs): a listed creator is passed over whole.
 * - skipListedPost before a post's files are downloaded: a listed post is passed over.
 * Both return the log line to commit with the step that moves the cursor past the creator or post
 * (null when it is not listed), so the line is logged exactly once even across a crash and resume.
 *
 * - storePost instead of upsertPost inside a step: upsertPost clears a written post's flags (a flagged
 *   post is one whose files were broken; it has just been fetched again) and storePost logs that in the
 *   same transaction. Importers that skip posts they already have ask isRefetchWanted first: a flagged
 *   post is fetched again.
 *
 * upsertPost and upsertCreator refuse to write listed content themselves too, so a forgotten check can
 * never bring removed content back; the checks here are what keep the files from being downloaded.
 */
import { isCreatorListed, isPostListed } from '@api/data/do-not-post.ts';
import { isPostFlagged } from '@api/data/flags.ts';
import { upsertPost, type PostInput, type UpsertPostResult } from '@api/data/posts.ts';
import type { ImportContext } from './context.ts';

/** The log line for a creator on the list. */
export function listedCreatorLine(name: string): string {
  return `Creator ${name} is on the do-not-post list; skipped.`;
}

/** The log line for a post on the list. */
export function listedPostLine(title: string): string {
  return `Post ${title} is on the do-not-post list; skipped.`;
}

/** The log line for a flagged post written again. */
export function flagClearedLine(title: string): string {
  return `Post ${title} was flagged; fetched again and its flag cleared.`;
}

/**
 * Whether a creator is on the do-not-post list.
 * @param name the paysite's display name of the creator when known (else its id is used)
 * @returns the log line to commit with the step that passes over the creator, or null to import it
 */
export async function skipListedCreator(
  ctx: Pick<ImportContext, 'db' | 'service'>,
  creatorId: string,
  name?: string | null,
): Promise<string | null> {
  return (await isCreatorListed(ctx.db, ctx.service, creatorId)) ? listedCreatorLine(name || creatorId) : null;
}

/**
 * Whether a post is on the do-not-post list (by itself or through its creator).
 * @param title the post's title when it has one (else its id is used)
 * @returns the log line to commit with the step that passes over the post, or null to import it
 */
export async function skipListedPost(
  ctx: Pick<ImportContext, 'db' | 'service'>,
  creatorId: string,
  postId: string,
  title?: string | null,
): Promise<string | null> {
  return (await isPostListed(ctx.db, ctx.service, creatorId, postId)) ? listedPostLine(title || postId) : null;
}

/** For importers that skip posts they already have: fetch it anyway when someone flagged it. */
export async function isRefetchWanted(ctx: Pick<ImportContext, 'db' | 'service'>, creatorId: string, postId: string): Promise<boolean> {
  return await isPostFlagged(ctx.db, ctx.service, creatorId, postId);
}

/**
 * upsertPost from inside an importer's step; when the write cleared the post's flags, logs so in the
 * same transaction (ctx.log joins the step's transaction), so the line commits with the post exactly once.
 */
export async function storePost(ctx: Pick<ImportContext, 'db' | 'log'>, input: PostInput): Promise<UpsertPostResult> {
  const result = await upsertPost(ctx.db, input);
  if (result.flags_cleared) await ctx.log(flagClearedLine(input.title || input.id));
  return result;
}

/** The creators of a map (id -> name) not on the list: whose DMs may be fetched and stored. */
export async function unlistedCreators(
  ctx: Pick<ImportContext, 'db' | 'service'>,
  creators: Map<string, string>,
): Promise<Map<string, string>> {
  const unlisted = new Map<string, string>();
  for (const [id, name] of creators) if (!(await isCreatorListed(ctx.db, ctx.service, id))) unlisted.set(id, name);
  return unlisted;
}
