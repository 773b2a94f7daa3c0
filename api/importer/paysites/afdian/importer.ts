/**
 * The Afdian importer. The key is checked with /api/my/profile on every run; the creators come from
 * /api/my/sponsoring (current sponsorships; the expired ones are counted, not imported). For each creator:
 * its profile (name, avatar as icon, cover as banner), then its post list page by page (publish_sn of the
 * last item is the next page's cursor) and each post's detail (full HTML, pictures, signed audio, video
 * and attachment links), which says whether the key may see it (has_right). Posts the plan does not
 * unlock are skipped with a log line; when there are some, the creator's bought albums are looked at, as
 * a post bought with an album opens when read inside it (get-detail with its album_id).
 *
 * Steps: the sponsorship list; each creator's profile; each post (files downloaded before the step,
 * then the post commits with the position page/item); each page's end; the creator's end. A restart
 * refetches only the page it was on and continues after the last post it committed.
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import type { PostInput } from '@api/data/posts.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage, archiveFile, archiveFiles, archiveInlineImages } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';
import { afdianApi, AfdianAnswerError, isOn, type AfdianApi, type AfdianPost, type AfdianUser } from './api.ts';
import { mapPost, postTitle, publishedOf } from './map.ts';

interface Sub {
  userId: string;
  name: string;
}

interface CreatorState {
  name: string;
  phase: 'posts' | 'albums' | 'done';
  /** publish_sn the current page was asked with ('' for the first page), its number, the next item. */
  page: string;
  pageNo: number;
  item: number;
  /** The last post committed on this page: where to go on when the page moved under us. */
  lastId?: string;
  /** Pinned posts already done (they head the first page and come again at their own place). */
  pinned: string[];
  /** Posts the plan does not unlock (the album pass may still open them); logged at the creator's end. */
  locked: { id: string; title: string }[];
  /** Bought albums to look into, and the next one. */
  albums?: string[];
  album?: number;
  saved: number;
  changed: number;
}

interface Cursor {
  subs: Sub[];
  at: number;
  creator?: CreatorState;
}

const SERVICE = 'afdian';
const MAX_PAGES = 10_000;
const quoted = (title: string) => `"${[...title].slice(0, 60).join('')}"`;

type Prepared = { kind: 'post'; post: PostInput } | { kind: 'locked' } | { kind: 'gone' | 'listed'; line: string };

/** Fetches a post's detail and its files; writes nothing (the caller's step does). */
async function preparePost(ctx: ImportContext, api: AfdianApi, creatorId: string, item: AfdianPost, albumId?: string): Promise<Prepared> {
  const listed = await skipListedPost(ctx, creatorId, item.post_id, postTitle(item));
  if (listed) return { kind: 'listed', line: listed };
  let detail: AfdianPost;
  try {
    detail = await api.post(item.post_id, albumId);
  } catch (error) {
    if (!(error instanceof AfdianAnswerError)) throw error;
    return { kind: 'gone', line: `Skipped ${quoted(postTitle(item))}: ${error.message}.` };
  }
  const mapped = mapPost(detail);
  if (mapped.locked) return { kind: 'locked' };
  const { media } = mapped;
  const main = media.main ? await archiveFile(ctx, api.client, media.main.url, media.main.name) : undefined;
  const attachments = await archiveFiles(ctx, api.client, media.attachments);
  const content = await archiveInlineImages(ctx, api.client, mapped.html);
  return {
    kind: 'post',
    post: {
      service: SERVICE,
      user: creatorId,
      id: detail.post_id,
      title: mapped.title,
      content,
      published: mapped.published ?? publishedOf(item),
      file: main ?? null,
      attachments,
      embed: mapped.embed,
      tags: [],
    },
  };
}

/** Commits one post (or its skip) with the cursor `next`; counts it in `next`. */
async function commitPost(ctx: ImportContext, item: AfdianPost, prepared: Prepared, next: Cursor): Promise<void> {
  const c = next.creator!;
  const lines: string[] = [];
  if (prepared.kind === 'locked') {
    if (!c.locked.some((l) => l.id === item.post_id)) c.locked.push({ id: item.post_id, title: postTitle(item) });
  } else if (prepared.kind === 'gone' || prepared.kind === 'listed') lines.push(prepared.line);
  await ctx.step(
    async () => {
      if (prepared.kind !== 'post') return;
      c.saved++;
      c.locked = c.locked.filter((l) => l.id !== item.post_id);
      if ((await storePost(ctx, prepared.post)).action !== 'unchanged') c.changed++;
    },
    { cursor: next, log: lines },
  );
}

/** Saves the creator's name, icon and banner; the posts start at the first page. */
async function startCreator(ctx: ImportContext, api: AfdianApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  let profile: AfdianUser = { user_id: sub.userId, name: sub.name };
  try {
    profile = await api.profile(sub.userId);
  } catch (error) {
    if (!(error instanceof AfdianAnswerError)) throw error;
    await ctx.log(`Creator ${sub.name}: profile not available (${error.message}).`);
  }
  const name = profile.name || sub.name;
  await archiveCreatorImage(ctx, api.client, 'icons', SERVICE, sub.userId, profile.avatar);
  await archiveCreatorImage(ctx, api.client, 'banners', SERVICE, sub.userId, profile.cover);
  const next: Cursor = {
    ...cursor,
    creator: { name, phase: 'posts', page: '', pageNo: 1, item: 0, pinned: [], locked: [], saved: 0, changed: 0 },
  };
  await ctx.step(() => upsertCreator(ctx.db, { service: SERVICE, id: sub.userId, name, public_id: profile.url_slug || null }), {
    cursor: next,
    log: [`Creator ${name}: importing posts.`],
  });
  return next;
}

/** Where to go on in a page fetched again: after the last committed post, else at the saved index. */
function resumeIndex(list: AfdianPost[], c: CreatorState): number {
  // The pinned post may be on the page twice: the occurrence nearest the saved index is the one done.
  const found = list.flatMap((p, i) => (p.post_id === c.lastId ? [i] : []));
  if (found.length === 0) return c.item;
  return found.reduce((a, b) => (Math.abs(b - (c.item - 1)) < Math.abs(a - (c.item - 1)) ? b : a)) + 1;
}

/** Imports the creator's post pages from the cursor on; undefined when stopped. */
async function importPosts(ctx: ImportContext, api: AfdianApi, start: Cursor, sub: Sub): Promise<Cursor | undefined> {
  let cursor = start;
  for (let pages = 0; cursor.creator!.phase === 'posts' && pages < MAX_PAGES; pages++) {
    const c = cursor.creator!;
    const { list, hasMore } = await api.posts(sub.userId, c.page);
    for (let index = resumeIndex(list, c); index < list.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const item = list[index];
      const pinned = isOn(item.user_top);
      const state = cursor.creator!;
      const next: Cursor = {
        ...cursor,
        creator: {
          ...state,
          item: index + 1,
          lastId: item.post_id,
          pinned: pinned ? [...state.pinned, item.post_id] : state.pinned,
          locked: [...state.locked],
        },
      };
      // A pinned post heads the first page and comes again at its own place: it is imported once.
      const repeat = state.pinned.includes(item.post_id);
      if (repeat) await ctx.step(() => undefined, { cursor: next });
      else await commitPost(ctx, item, await preparePost(ctx, api, sub.userId, item), next);
      cursor = next;
    }
    const state = cursor.creator!;
    const last = [...list].reverse().find((p) => !isOn(p.user_top)) ?? list.at(-1);
    const nextSn = last?.publish_sn != null ? String(last.publish_sn) : '';
    const more = hasMore && list.length > 0 && nextSn !== '' && nextSn !== state.page;
    cursor = {
      ...cursor,
      creator: more
        ? { ...state, page: nextSn, pageNo: state.pageNo + 1, item: 0, lastId: undefined }
        : { ...state, phase: state.locked.length > 0 ? 'albums' : 'done' },
    };
    await ctx.step(() => undefined, {
      cursor,
      log: [`Creator ${state.name}: page ${state.pageNo} done, ${countLabel(state.saved, 'post')} so far.`],
    });
  }
  return cursor;
}

/**
 * Posts the plan does not unlock may belong to an album the key bought: each bought album's catalog is
 * read and those posts are asked for again inside it.
 */
async function importAlbums(ctx: ImportContext, api: AfdianApi, start: Cursor, sub: Sub): Promise<Cursor | undefined> {
  let cursor = start;
  if (!cursor.creator!.albums) {
    const bought: string[] = [];
    for (let page = 1; page <= 50; page++) {
      const { list, hasMore } = await api.albums(sub.userId, page);
      bought.push(...list.filter((a) => a.bought).map((a) => a.albumId));
      if (!hasMore || list.length === 0) break;
    }
    cursor = { ...cursor, creator: { ...cursor.creator!, albums: bought, album: 0 } };
    await ctx.step(() => undefined, { cursor });
  }
  while (cursor.creator!.album! < cursor.creator!.albums!.length) {
    const state = cursor.creator!;
    const albumId = state.albums![state.album!];
    const ids = (await api.albumPostIds(albumId)).filter((id) => state.locked.some((l) => l.id === id));
    for (const id of ids) {
      if (ctx.signal.aborted) return undefined;
      if (!cursor.creator!.locked.some((l) => l.id === id)) continue;
      const prepared = await preparePost(ctx, api, sub.userId, { post_id: id }, albumId);
      // Still locked inside the album: nothing to commit, it stays counted as locked.
      if (prepared.kind !== 'post') continue;
      const next: Cursor = { ...cursor, creator: { ...cursor.creator!, locked: [...cursor.creator!.locked] } };
      await commitPost(ctx, { post_id: id }, prepared, next);
      cursor = next;
    }
    cursor = { ...cursor, creator: { ...cursor.creator!, album: state.album! + 1 } };
    await ctx.step(() => undefined, { cursor });
  }
  cursor = { ...cursor, creator: { ...cursor.creator!, phase: 'done' } };
  return cursor;
}

async function finishCreator(ctx: ImportContext, api: AfdianApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const c = cursor.creator!;
  // A key that stopped working mid-import makes every post look locked: say so rather than finish.
  if (c.locked.length > 0) await api.me();
  const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
  const locked = c.locked.length > 0 ? ` ${countLabel(c.locked.length, 'post')} your sponsorship does not unlock skipped.` : '';
  const lines = c.locked.map((l) => `Skipped ${quoted(l.title)}: your sponsorship does not unlock it.`);
  await ctx.step(
    async () => {
      const creator = await getCreator(ctx.db, SERVICE, sub.userId);
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: SERVICE,
        id: sub.userId,
        name: creator.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: [...lines, `Creator ${c.name}: imported ${countLabel(c.saved, 'post')}.${locked}`] },
  );
  return next;
}

async function importAll(ctx: ImportContext): Promise<void> {
  const api = afdianApi(ctx);
  // Every run (a resume too): an expired key fails here, before anything else.
  await api.me();
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const { current, expired } = await api.sponsoring();
    const subs = [...new Map(current.map((u) => [u.user_id, { userId: u.user_id, name: u.name || u.url_slug || u.user_id }])).values()];
    const lines = [`Found ${countLabel(subs.length, 'sponsored creator')}.`];
    if (expired.length > 0) lines.push(`${countLabel(expired.length, 'sponsorship')} that ran out not imported.`);
    cursor = { subs, at: 0 };
    await ctx.step(() => undefined, { cursor, log: lines });
  }
  await ctx.setSubCount(cursor.subs.length);
  while (cursor.at < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    const sub = cursor.subs[cursor.at];
    const listed = await skipListedCreator(ctx, sub.userId, sub.name);
    if (listed) {
      cursor = { subs: cursor.subs, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.creator) cursor = await startCreator(ctx, api, cursor, sub);
    if (cursor.creator!.phase === 'posts') {
      const done = await importPosts(ctx, api, cursor, sub);
      if (!done) return;
      cursor = done;
    }
    if (cursor.creator!.phase === 'albums') {
      const done = await importAlbums(ctx, api, cursor, sub);
      if (!done) return;
      cursor = done;
    }
    cursor = await finishCreator(ctx, api, cursor, sub);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const afdianImporter: PaysiteImporter = { run: (ctx) => importAll(ctx) };
