/**
 * The Fanbox importer. Subscriptions come from plan.listSupporting; for each supported creator:
 * creator.get (name, pixiv handle, icon, cover as banner), the supporter card (fancard), then every post
 * page (post.paginateCreator lists the page URLs up front), post.info per post and post.getComments
 * when it has comments. At the end newsletter.list gives the announcements of the imported creators.
 * Kemono's creator id for Fanbox is the numeric pixiv user id, the handle (creatorId) is public_id.
 *
 * Steps: the subscription list, each creator's profile, each post, the creator's end, the newsletters.
 * The cursor names the creator, page and item next to do, so a restart fetches again only the post it
 * was in the middle of (files are content-addressed: a repeated download stores nothing twice).
 */
import { paragraphsHtml } from '@api/importer/text.ts';
import { createHash } from 'node:crypto';
import { findFancardId, upsertFancard } from '@api/data/fancards.ts';
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { upsertAnnouncement } from '@api/data/announcements.ts';
import { getFileByHash } from '@api/data/files.ts';
import { upsertComment, type CommentInput } from '@api/data/comments.ts';
import type { PostInput } from '@api/data/posts.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import {
  archiveCreatorImage,
  archiveFile,
  archiveFiles,
  archiveInlineImages,
  nameFromUrl,
  type ArchivedFile,
} from '@api/importer/content.ts';
import { PaysiteRequestError } from '@api/importer/fetch.ts';
import { fanboxApi, type FanboxApi, type PostInfo, type PostItem } from './api.ts';
import { articleHtml, fileName, flattenComments, postEmbed, postMedia, type ArchivedFiles } from './map.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { archiveTime, escapeHtml } from '@api/importer/text.ts';
import { countLabel } from '@shared/format.ts';

interface Sub {
  userId: string;
  creatorId: string;
  fee: number;
}

interface Cursor {
  subs: Sub[];
  /** Index in subs of the creator being imported. */
  at: number;
  /** Set once the current creator's profile is saved. */
  creator?: { name: string; pages: string[]; page: number; item: number; saved: number; changed: number; restricted: number };
  newslettersDone?: boolean;
}

type Prepared =
  | { kind: 'post'; post: PostInput; comments: CommentInput[] }
  | { kind: 'restricted' }
  | { kind: 'gone' }
  | { kind: 'listed'; line: string };

/** Fetches a post with its files and comments; writes nothing (the caller's step does). */
async function preparePost(ctx: ImportContext, api: FanboxApi, userId: string, item: PostItem): Promise<Prepared> {
  const listed = await skipListedPost(ctx, userId, item.id, item.title);
  if (listed) return { kind: 'listed', line: listed };
  if (item.isRestricted) return { kind: 'restricted' };
  const info = await api.post(item.id);
  if (!info) return { kind: 'gone' };
  if (info.isRestricted || !info.body) return { kind: 'restricted' };
  const body = info.body;
  const media = postMedia(body);
  const cover = info.coverImageUrl ? await archiveFile(ctx, api.client, info.coverImageUrl, nameFromUrl(info.coverImageUrl)) : undefined;
  const archivedFiles: ArchivedFiles = new Map();
  const files: ArchivedFile[] = [];
  for (const file of media.files) {
    const saved = await archiveFile(ctx, api.client, file.url, fileName(file));
    if (saved) {
      files.push(saved);
      archivedFiles.set(file.id, saved);
    }
  }
  let html: string;
  let images: ArchivedFile[] = [];
  if (body.blocks) {
    // An article shows its images inline; archiveInlineImages downloads them.
    html = articleHtml(body, archivedFiles);
  } else {
    images = await archiveFiles(
      ctx,
      api.client,
      media.images.map((img) => ({ url: img.originalUrl, name: nameFromUrl(img.originalUrl) || `${img.id}.${img.extension ?? 'jpg'}` })),
    );
    html = body.html ?? paragraphsHtml(body.text);
  }
  const embed = postEmbed(info);
  if (embed?.url && !body.blocks) html += `<p><a href="${escapeHtml(embed.url)}">${escapeHtml(embed.url)}</a></p>`;
  const content = await archiveInlineImages(ctx, api.client, html);
  const visual = [...images, ...files];
  const main = cover ?? images[0];
  const attachments = cover ? visual : visual.slice(images.length > 0 ? 1 : 0);
  const post: PostInput = {
    service: 'fanbox',
    user: info.user.userId,
    id: info.id,
    title: info.title,
    content,
    published: archiveTime(info.publishedDatetime),
    edited: editedDate(info),
    file: main ?? null,
    attachments,
    embed,
    tags: info.tags ?? [],
  };
  const comments = (info.commentCount ?? item.commentCount ?? 0) > 0 ? await postComments(ctx, api, info) : [];
  return { kind: 'post', post, comments };
}

function editedDate(info: PostInfo): string | null {
  const edited = archiveTime(info.updatedDatetime);
  return edited && edited !== archiveTime(info.publishedDatetime) ? edited : null;
}

async function postComments(ctx: ImportContext, api: FanboxApi, info: PostInfo): Promise<CommentInput[]> {
  try {
    return flattenComments(await api.comments(info.id), { user: info.user.userId, post_id: info.id });
  } catch (error) {
    if (!(error instanceof PaysiteRequestError)) throw error;
    await ctx.log(`Post ${info.id}: comments skipped (Fanbox answered ${error.status}).`);
    return [];
  }
}

/** Saves the creator's profile, icon, banner and fancard, and lists the post pages. */
async function startCreator(ctx: ImportContext, api: FanboxApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const info = await api.creator(sub.creatorId);
  const userId = info.user.userId;
  await archiveCreatorImage(ctx, api.client, 'icons', 'fanbox', userId, info.user.iconUrl);
  await archiveCreatorImage(ctx, api.client, 'banners', 'fanbox', userId, info.coverImageUrl);
  const cardUrl = await api.supporterCard(userId);
  const card = cardUrl ? await archiveFile(ctx, api.client, cardUrl, nameFromUrl(cardUrl) || 'fancard.jpg') : undefined;
  const pages = await api.postPages(sub.creatorId);
  const next: Cursor = { ...cursor, creator: { name: info.user.name, pages, page: 0, item: 0, saved: 0, changed: 0, restricted: 0 } };
  const lines = [`Creator ${info.user.name}: ${countLabel(pages.length, 'page')} of posts to import.`];
  await ctx.step(
    async () => {
      await upsertCreator(ctx.db, { service: 'fanbox', id: userId, name: info.user.name, public_id: info.creatorId });
      const file = card && (await getFileByHash(ctx.db, card.hash));
      if (file && (await findFancardId(ctx.db, 'fanbox', userId, file.id)) === undefined) {
        await upsertFancard(ctx.db, { service: 'fanbox', user_id: userId, file_id: file.id, price: `${sub.fee}円` });
        lines.push(`Creator ${info.user.name}: saved the fancard.`);
      }
    },
    { cursor: next, log: lines },
  );
  return next;
}

/** Imports the current creator's posts from the cursor's page and item on; false when stopped. */
async function importPosts(ctx: ImportContext, api: FanboxApi, start: Cursor): Promise<Cursor | undefined> {
  let cursor = start;
  const state = () => cursor.creator!;
  while (state().page < state().pages.length) {
    const items = await api.postPage(state().pages[state().page]);
    for (let index = state().item; index < items.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const prepared = await preparePost(ctx, api, cursor.subs[cursor.at].userId, items[index]);
      const last = index + 1 >= items.length;
      const c = state();
      const next: Cursor = {
        ...cursor,
        creator: {
          ...c,
          page: last ? c.page + 1 : c.page,
          item: last ? 0 : index + 1,
          restricted: c.restricted + (prepared.kind === 'restricted' ? 1 : 0),
        },
      };
      const lines = prepared.kind === 'listed' ? [prepared.line] : [];
      if (last) lines.push(`Creator ${c.name}: page ${c.page + 1} of ${c.pages.length} done.`);
      await ctx.step(
        async () => {
          if (prepared.kind !== 'post') return;
          next.creator!.saved++;
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') next.creator!.changed++;
          for (const comment of prepared.comments) await upsertComment(ctx.db, comment);
        },
        { cursor: next, log: lines },
      );
      cursor = next;
    }
    if (items.length === 0) {
      const c = state();
      cursor = { ...cursor, creator: { ...c, page: c.page + 1, item: 0 } };
      await ctx.step(() => undefined, { cursor });
    }
  }
  return cursor;
}

async function finishCreator(ctx: ImportContext, cursor: Cursor, userId: string): Promise<Cursor> {
  const c = cursor.creator!;
  const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
  const restricted = c.restricted > 0 ? ` ${countLabel(c.restricted, 'post')} above your plan skipped.` : '';
  await ctx.step(
    async () => {
      const creator = await getCreator(ctx.db, 'fanbox', userId);
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: 'fanbox',
        id: userId,
        name: creator.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: [`Creator ${c.name}: imported ${countLabel(c.saved, 'post')}.${restricted}`] },
  );
  return next;
}

/** The newsletters of creators in the archive, as their announcements (keyed by the newsletter's id). */
async function importNewsletters(ctx: ImportContext, api: FanboxApi, cursor: Cursor): Promise<void> {
  const letters = await api.newsletters();
  const next: Cursor = { ...cursor, newslettersDone: true };
  const log: string[] = [];
  await ctx.step(
    async () => {
      let saved = 0;
      for (const letter of letters) {
        const userId = letter.creator?.user.userId;
        if (!userId || !(await getCreator(ctx.db, 'fanbox', userId)) || (await skipListedCreator(ctx, userId))) continue;
        await upsertAnnouncement(ctx.db, {
          service: 'fanbox',
          user_id: userId,
          hash: createHash('sha256').update(`fanbox-newsletter:${letter.id}`).digest('hex'),
          content: paragraphsHtml(letter.body),
          published: archiveTime(letter.createdAt),
        });
        saved++;
      }
      log.push(`Saved ${countLabel(saved, 'announcement')}.`);
    },
    { cursor: next, log },
  );
}

async function importAll(ctx: ImportContext): Promise<void> {
  const api = fanboxApi(ctx);
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const plans = await api.listSupporting();
    const subs = [
      ...new Map(plans.map((plan) => [plan.user.userId, { userId: plan.user.userId, creatorId: plan.creatorId, fee: plan.fee }])).values(),
    ];
    cursor = { subs, at: 0 };
    await ctx.step(() => undefined, { cursor, log: [`Found ${countLabel(subs.length, 'subscription')}.`] });
  }
  await ctx.setSubCount(cursor.subs.length);
  while (cursor.at < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    const sub = cursor.subs[cursor.at];
    const listed = await skipListedCreator(ctx, sub.userId, cursor.creator?.name);
    if (listed) {
      cursor = { subs: cursor.subs, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.creator) cursor = await startCreator(ctx, api, cursor, sub);
    const done = await importPosts(ctx, api, cursor);
    if (!done) return;
    cursor = await finishCreator(ctx, done, sub.userId);
  }
  if (!cursor.newslettersDone && !ctx.signal.aborted) await importNewsletters(ctx, api, cursor);
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const fanboxImporter: PaysiteImporter = { run: (ctx) => importAll(ctx) };
