/**
 * The Boosty importer. GET /v1/user/current checks the token (renewing it once with the refresh token
 * when Boosty says it expired); GET /v1/user/subscriptions lists the blogs the key pays for or follows;
 * for each blog, its posts page by page (GET /v1/blog/{blogUrl}/post/, newest first, the opaque
 * `extra.offset` until `extra.isLast`), each post's media downloaded and its comments read. Kemono's
 * creator id for Boosty is the blog's handle (blogUrl).
 *
 * Steps: the subscription list; each creator's profile; each post (its files are downloaded before the
 * step, then post + comments commit with the position blog/page offset/item); the creator's end. The
 * cursor names the page's offset and the item next to do, so a restart asks for that page again (fresh
 * signed URLs) and goes on from that post. Posts the key cannot see (hasAccess false) are skipped with
 * a log line, never written; deleted ones are not stored.
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { upsertComment, type CommentInput } from '@api/data/comments.ts';
import { replaceImportWorkKey } from '@api/data/imports.ts';
import type { PostInput } from '@api/data/posts.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { countLabel } from '@shared/format.ts';
import { boostyApi, type Blog, type BoostyApi, type BoostyPost } from './api.ts';
import { boostyKeyText, type BoostyAuth } from './auth.ts';
import { flattenComments, postMedia, postVerdict, toPostInput } from './map.ts';
import { archivePostMedia } from './media.ts';

interface Sub {
  blogUrl: string;
  name: string;
  avatarUrl: string | null;
  coverUrl: string | null;
}

interface CreatorState {
  /** The offset the current page was asked with ('' for the first page). */
  offset: string;
  /** The index in that page of the next post. */
  item: number;
  /** Set when the last page is done. */
  done?: boolean;
  saved: number;
  changed: number;
  locked: number;
}

interface Cursor {
  subs: Sub[];
  /** Index in subs of the blog being imported. */
  at: number;
  creator?: CreatorState;
}

type Prepared =
  | { kind: 'post'; post: PostInput; comments: CommentInput[]; notes: string[] }
  | { kind: 'listed'; line: string }
  | { kind: 'locked' }
  | { kind: 'gone' };

const SERVICE = 'boosty';

function subOf(blog: Blog): Sub {
  return {
    blogUrl: blog.blogUrl,
    name: blog.owner.name || blog.title || blog.blogUrl,
    avatarUrl: blog.owner.hasAvatar === false ? null : (blog.owner.avatarUrl ?? null),
    coverUrl: blog.coverUrl || null,
  };
}

/** Downloads a post's media and reads its comments; writes nothing (the caller's step does). */
async function preparePost(ctx: ImportContext, api: BoostyApi, sub: Sub, post: BoostyPost): Promise<Prepared> {
  const listed = await skipListedPost(ctx, sub.blogUrl, post.id, post.title);
  if (listed) return { kind: 'listed', line: listed };
  const verdict = postVerdict(post);
  if (verdict !== 'post') return { kind: verdict };
  const files = await archivePostMedia(ctx, api.media, postMedia(post));
  const comments = (post.count?.comments ?? 0) > 0 ? await api.comments(sub.blogUrl, post.id) : [];
  return {
    kind: 'post',
    notes: files.notes,
    post: toPostInput(sub.blogUrl, post, files),
    comments: flattenComments(comments, { user: sub.blogUrl, post_id: post.id }),
  };
}

/** Saves the creator (name, icon, banner) and starts its posts at the first page. */
async function startCreator(ctx: ImportContext, api: BoostyApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  await archiveCreatorImage(ctx, api.media, 'icons', SERVICE, sub.blogUrl, sub.avatarUrl);
  await archiveCreatorImage(ctx, api.media, 'banners', SERVICE, sub.blogUrl, sub.coverUrl);
  const next: Cursor = { ...cursor, creator: { offset: '', item: 0, saved: 0, changed: 0, locked: 0 } };
  await ctx.step(() => upsertCreator(ctx.db, { service: SERVICE, id: sub.blogUrl, name: sub.name }), {
    cursor: next,
    log: [`Creator ${sub.name}: importing posts.`],
  });
  return next;
}

/** Imports the blog's posts from the cursor's page and item on; undefined when stopped. */
async function importPosts(ctx: ImportContext, api: BoostyApi, start: Cursor, sub: Sub): Promise<Cursor | undefined> {
  let cursor = start;
  while (!cursor.creator!.done) {
    const page = await api.posts(sub.blogUrl, cursor.creator!.offset);
    const nextOffset = page.extra.offset ?? '';
    const lastPage = page.extra.isLast || !nextOffset || nextOffset === cursor.creator!.offset;
    if (page.data.length <= cursor.creator!.item) {
      // An empty page (or one shorter than when the cursor was written): on to the next.
      cursor = { ...cursor, creator: { ...cursor.creator!, offset: nextOffset, item: 0, done: lastPage } };
      await ctx.step(() => undefined, { cursor });
      continue;
    }
    for (let index = cursor.creator!.item; index < page.data.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const post = page.data[index];
      const prepared = await preparePost(ctx, api, sub, post);
      const c = cursor.creator!;
      const endOfPage = index + 1 >= page.data.length;
      const state: CreatorState = endOfPage ? { ...c, offset: nextOffset, item: 0, done: lastPage } : { ...c, item: index + 1 };
      const lines: string[] = [];
      if (prepared.kind === 'locked') {
        state.locked++;
        lines.push(`Creator ${sub.name}: skipped "${post.title || post.id}": your subscription level cannot see it.`);
      }
      if (prepared.kind === 'listed') lines.push(prepared.line);
      if (prepared.kind === 'post') {
        state.saved++;
        lines.push(...prepared.notes);
      }
      await ctx.step(
        async () => {
          if (prepared.kind !== 'post') return;
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') state.changed++;
          for (const comment of prepared.comments) await upsertComment(ctx.db, comment);
        },
        {
          cursor: { ...cursor, creator: state },
          log: endOfPage ? [...lines, `Creator ${sub.name}: ${countLabel(state.saved, 'post')} imported so far.`] : lines,
        },
      );
      cursor = { ...cursor, creator: state };
    }
  }
  return cursor;
}

async function finishCreator(ctx: ImportContext, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const c = cursor.creator!;
  const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
  const lines = [`Creator ${sub.name}: imported ${countLabel(c.saved, 'post')}.`];
  if (c.locked > 0) lines.push(`Creator ${sub.name}: skipped ${countLabel(c.locked, 'post')} your subscription level cannot see.`);
  await ctx.step(
    async () => {
      if (!(await getCreator(ctx.db, SERVICE, sub.blogUrl))) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: SERVICE,
        id: sub.blogUrl,
        name: sub.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: lines },
  );
  return next;
}

async function importAll(ctx: ImportContext): Promise<void> {
  // A renewed session replaces the sealed key, so a resume after a crash uses the new tokens.
  const onRenewed = async (auth: BoostyAuth) => {
    await replaceImportWorkKey(ctx.db, ctx.importId, sealForWorker(ctx.config, ctx.importId, boostyKeyText(auth)));
    await ctx.log('The access token had expired; Boosty renewed it with the refresh token.');
  };
  const api = boostyApi(ctx, onRenewed);
  // Every run (a resume too) checks the token first, so a refused key fails before anything else.
  await api.currentUser();
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const blogs = await api.subscriptions();
    const subs = [...new Map(blogs.map((blog) => [blog.blogUrl, subOf(blog)])).values()];
    cursor = { subs, at: 0 };
    await ctx.step(() => undefined, { cursor, log: [`Found ${countLabel(subs.length, 'subscription')}.`] });
  }
  await ctx.setSubCount(cursor.subs.length);
  while (cursor.at < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    const sub = cursor.subs[cursor.at];
    const listed = await skipListedCreator(ctx, sub.blogUrl, sub.name);
    if (listed) {
      cursor = { subs: cursor.subs, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.creator) cursor = await startCreator(ctx, api, cursor, sub);
    const done = await importPosts(ctx, api, cursor, sub);
    if (!done) return;
    cursor = await finishCreator(ctx, done, sub);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const boostyImporter: PaysiteImporter = { run: (ctx) => importAll(ctx) };
