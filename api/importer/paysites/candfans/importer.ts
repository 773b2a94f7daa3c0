/**
 * The CandFans importer. The key's own account (get-user-mine, which also checks the key), the creators
 * whose plans it joined (get-entry-plans) and those it follows (get-follow, by page); for each creator
 * its profile (get-users: name, handle, icon, banner) and its timeline (get-timeline, every post type,
 * oldest first, by page until an empty one). A post the key cannot see (can_browsing 0: above its plans,
 * sold separately, a back number) is skipped and counted in the creator's log line. Trove's creator id is
 * CandFans' numeric user id; the handle (user_code) is the public id.
 *
 * Steps: the creator list, each creator's profile, each post, the creator's end. The cursor names the
 * creator, timeline page and item next to do; oldest-first pages stay put when new posts arrive, so a
 * restart fetches again only the post it was in the middle of (files are content-addressed).
 */
import { paragraphsHtml } from '@api/importer/text.ts';
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import type { PostFileInput, PostInput } from '@api/data/posts.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage, archiveFile, archiveInlineImages } from '@api/importer/content.ts';
import { archiveHls } from '@api/importer/hls.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';
import { candfansApi, type CandfansApi, type TimelinePost } from './api.ts';
import { absolute, postInput, postMedia, visibility, type Visibility } from './map.ts';

interface Sub {
  code: string;
  joined: boolean;
}

interface CreatorState {
  id: number;
  name: string;
  page: number;
  item: number;
  saved: number;
  changed: number;
  hidden: Partial<Record<Exclude<Visibility, 'visible'>, number>>;
  /** Post ids of the last page, to notice a site that ignores `page` and answers the same page again. */
  last: number[];
}

interface Cursor {
  subs: Sub[];
  at: number;
  creator?: CreatorState;
}

/** The most timeline pages read of one creator (a guard against a site that never answers an empty page). */
const MAX_PAGES = 5000;

async function listCreators(ctx: ImportContext, api: CandfansApi): Promise<Cursor> {
  const ownId = await api.me();
  const joined = await api.entryPlans();
  const followed: string[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const users = await api.follows(ownId, page);
    if (users.length === 0 || users.every((u) => followed.includes(u.user_code))) break;
    followed.push(...users.map((u) => u.user_code).filter((code) => !followed.includes(code)));
  }
  const subs: Sub[] = [
    ...joined.map((code) => ({ code, joined: true })),
    ...followed.filter((code) => !joined.includes(code)).map((code) => ({ code, joined: false })),
  ];
  const cursor: Cursor = { subs, at: 0 };
  await ctx.step(() => undefined, {
    cursor,
    log: [`Found ${countLabel(subs.length, 'creator')} (${joined.length} with a joined plan, ${followed.length} followed).`],
  });
  return cursor;
}

/** Saves the creator's profile, icon and banner; undefined (the creator skipped) when CandFans has no such user. */
async function startCreator(ctx: ImportContext, api: CandfansApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const user = await api.user(sub.code);
  if (!user) {
    const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
    await ctx.step(() => undefined, { cursor: next, log: [`Creator ${sub.code}: CandFans has no such user; skipped.`] });
    return next;
  }
  const id = String(user.id);
  // CandFans' creator id is known only from its profile: checked before anything of it is stored.
  const listed = await skipListedCreator(ctx, id, user.username);
  if (listed) {
    const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
    await ctx.step(() => undefined, { cursor: next, log: [listed] });
    return next;
  }
  await archiveCreatorImage(ctx, api.client, 'icons', 'candfans', id, absolute(user.profile_img, api.imageBase));
  await archiveCreatorImage(ctx, api.client, 'banners', 'candfans', id, absolute(user.profile_cover_img, api.imageBase));
  const next: Cursor = {
    ...cursor,
    creator: { id: user.id, name: user.username, page: 1, item: 0, saved: 0, changed: 0, hidden: {}, last: [] },
  };
  await ctx.step(() => upsertCreator(ctx.db, { service: 'candfans', id, name: user.username, public_id: user.user_code }), {
    cursor: next,
    log: [`Creator ${user.username}: importing posts.`],
  });
  return next;
}

/** Downloads a visible post's files and builds it; writes nothing (the caller's step does). */
async function preparePost(ctx: ImportContext, api: CandfansApi, post: TimelinePost, creatorId: string): Promise<PostInput> {
  const media = postMedia(post, api.imageBase);
  const thumbnail = media.thumbnail ? await archiveFile(ctx, api.client, media.thumbnail) : undefined;
  const files: PostFileInput[] = [];
  for (const item of media.items) {
    const saved = item.hls
      ? await archiveHls(ctx, api.client, item.url, item.name)
      : await archiveFile(ctx, api.client, item.url, item.name);
    if (saved) files.push(saved);
  }
  const content = await archiveInlineImages(ctx, api.client, paragraphsHtml(post.contents_text));
  return postInput(post, creatorId, content, { thumbnail, files });
}

/** Imports the current creator's timeline from the cursor's page and item on; undefined when stopped. */
async function importPosts(ctx: ImportContext, api: CandfansApi, start: Cursor): Promise<Cursor | undefined> {
  let cursor = start;
  const state = () => cursor.creator!;
  while (state().page <= MAX_PAGES) {
    const posts = await api.timeline(state().id, state().page);
    const ids = posts.map((p) => p.post_id);
    if (posts.length === 0) return cursor;
    if (ids.every((id) => state().last.includes(id))) {
      await ctx.log(`Creator ${state().name}: CandFans answered page ${state().page} with the posts of the page before; stopped there.`);
      return cursor;
    }
    for (let index = state().item; index < posts.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const post = posts[index];
      const seen = visibility(post);
      const listed = await skipListedPost(ctx, String(state().id), String(post.post_id), post.title);
      const prepared = seen === 'visible' && !listed ? await preparePost(ctx, api, post, String(state().id)) : undefined;
      const c = state();
      const last = index + 1 >= posts.length;
      const next: Cursor = {
        ...cursor,
        creator: {
          ...c,
          page: last ? c.page + 1 : c.page,
          item: last ? 0 : index + 1,
          last: last ? ids : c.last,
          hidden: seen === 'visible' ? c.hidden : { ...c.hidden, [seen]: (c.hidden[seen] ?? 0) + 1 },
        },
      };
      await ctx.step(
        async () => {
          if (!prepared) return;
          next.creator!.saved++;
          if ((await storePost(ctx, prepared)).action !== 'unchanged') next.creator!.changed++;
        },
        { cursor: next, log: [...(listed ? [listed] : []), ...(last ? [`Creator ${c.name}: page ${c.page} done.`] : [])] },
      );
      cursor = next;
    }
  }
  return cursor;
}

const HIDDEN_REASONS: Record<Exclude<Visibility, 'visible'>, string> = {
  plan: 'for a plan this account has not joined',
  single: 'sold separately',
  backNumber: 'back numbers not bought',
};

async function finishCreator(ctx: ImportContext, cursor: Cursor): Promise<Cursor> {
  const c = cursor.creator!;
  const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
  const lines = [`Creator ${c.name}: imported ${countLabel(c.saved, 'post')}.`];
  for (const [reason, count] of Object.entries(c.hidden) as [keyof typeof HIDDEN_REASONS, number][])
    if (count > 0)
      lines.push(`Creator ${c.name}: skipped ${countLabel(count, 'post')} this account cannot see (${HIDDEN_REASONS[reason]}).`);
  await ctx.step(
    async () => {
      const id = String(c.id);
      const creator = await getCreator(ctx.db, 'candfans', id);
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: 'candfans',
        id,
        name: creator.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: lines },
  );
  return next;
}

async function importAll(ctx: ImportContext): Promise<void> {
  const api = candfansApi(ctx);
  let cursor = (await ctx.cursor<Cursor>()) ?? (await listCreators(ctx, api));
  await ctx.setSubCount(cursor.subs.length);
  while (cursor.at < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    if (!cursor.creator) {
      cursor = await startCreator(ctx, api, cursor, cursor.subs[cursor.at]);
      if (!cursor.creator) continue;
    } else {
      // Listed while this creator was being imported (a resume): passed over from here on.
      const listed = await skipListedCreator(ctx, String(cursor.creator.id), cursor.creator.name);
      if (listed) {
        cursor = { subs: cursor.subs, at: cursor.at + 1 };
        await ctx.step(() => undefined, { cursor, log: [listed] });
        continue;
      }
    }
    const done = await importPosts(ctx, api, cursor);
    if (!done) return;
    cursor = await finishCreator(ctx, done);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const candfansImporter: PaysiteImporter = { run: (ctx) => importAll(ctx) };
