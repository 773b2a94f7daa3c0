/**
 * The Fantia importer. The key (`_session_id`) is checked on /api/v1/me at every run. The fanclubs it
 * backs come from its paid plans (/mypage/users/plans?type=not_free, by page); for each fanclub:
 * /api/v1/fanclubs/{id} (name, icon, cover as banner), then its post list pages (/fanclubs/{id}/posts,
 * newest first, until a page has no posts), and /api/v1/posts/{id} per post with the CSRF token of the
 * list page. Kemono's creator id for Fantia is the fanclub id.
 *
 * Steps: the fanclub list (with whether the account's adult setting was off, see ./adult.ts); each
 * fanclub's profile; each post (its files are downloaded before the step, then the post commits with the
 * position fanclub/page/item); the fanclub's end. A restart fetches again only the post it was on.
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { skipListedCreator, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';
import { adultSetting, restoreAdult, setAdult } from './adult.ts';
import { fantiaApi, type FantiaApi } from './api.ts';
import { preparePost } from './post.ts';

interface CreatorState {
  name: string;
  /** The post list page being imported (from 1) and the index of the next post on it. */
  page: number;
  item: number;
  saved: number;
  changed: number;
  /** Posts the key sees nothing of, and posts gone between the list and the post API. */
  locked: number;
  gone: number;
}

interface Cursor {
  fanclubs: string[];
  /** Index in fanclubs of the fanclub being imported. */
  at: number;
  /** The account hid adult posts when the import started: the importer shows them for the import. */
  adultWasOff?: boolean;
  creator?: CreatorState;
}

/** Saves the fanclub as a creator (name, icon, banner); undefined when Fantia has no such fanclub. */
async function startCreator(ctx: ImportContext, api: FantiaApi, cursor: Cursor, id: string): Promise<Cursor> {
  const fanclub = await api.fanclub(id);
  if (!fanclub) {
    const next: Cursor = { ...cursor, at: cursor.at + 1, creator: undefined };
    await ctx.step(() => undefined, { cursor: next, log: [`Fanclub ${id}: Fantia has no such fanclub any more; skipped.`] });
    return next;
  }
  const name = fanclub.name || fanclub.fanclub_name || fanclub.creator_name || id;
  await archiveCreatorImage(ctx, api.client, 'icons', 'fantia', id, fanclub.icon?.original);
  await archiveCreatorImage(ctx, api.client, 'banners', 'fantia', id, fanclub.cover?.original);
  const next: Cursor = { ...cursor, creator: { name, page: 1, item: 0, saved: 0, changed: 0, locked: 0, gone: 0 } };
  await ctx.step(() => upsertCreator(ctx.db, { service: 'fantia', id, name }), {
    cursor: next,
    log: [`Fanclub ${name}: importing posts.`],
  });
  return next;
}

/** Imports the current fanclub's posts from the cursor's page and item on; undefined when stopped. */
async function importPosts(ctx: ImportContext, api: FantiaApi, start: Cursor, fanclubId: string): Promise<Cursor | undefined> {
  let cursor = start;
  let previous = '';
  for (;;) {
    const c = cursor.creator!;
    const list = await api.postList(fanclubId, c.page);
    // A page with no posts is the end (Fantia answers 200 past the last page); a repeated page too.
    const signature = list?.ids.join(',') ?? '';
    if (!list || list.ids.length === 0 || signature === previous) break;
    previous = signature;
    for (let index = cursor.creator!.item; index < list.ids.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const prepared = await preparePost(ctx, api, fanclubId, list.ids[index], list.token);
      const s = cursor.creator!;
      const last = index + 1 >= list.ids.length;
      const next: Cursor = {
        ...cursor,
        creator: {
          ...s,
          page: last ? s.page + 1 : s.page,
          item: last ? 0 : index + 1,
          locked: s.locked + (prepared.kind === 'locked' ? 1 : 0),
          gone: s.gone + (prepared.kind === 'gone' ? 1 : 0),
        },
      };
      const lines = [...prepared.lines];
      if (last) lines.push(`Fanclub ${s.name}: page ${s.page} done.`);
      await ctx.step(
        async () => {
          if (prepared.kind !== 'post') return;
          next.creator!.saved++;
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') next.creator!.changed++;
        },
        { cursor: next, log: lines },
      );
      cursor = next;
    }
  }
  return cursor;
}

async function finishCreator(ctx: ImportContext, cursor: Cursor, id: string): Promise<Cursor> {
  const c = cursor.creator!;
  const next: Cursor = { ...cursor, at: cursor.at + 1, creator: undefined };
  const extra = [
    c.locked > 0 ? ` ${countLabel(c.locked, 'post')} above your plan skipped.` : '',
    c.gone > 0 ? ` ${countLabel(c.gone, 'post')} gone from Fantia skipped.` : '',
  ].join('');
  await ctx.step(
    async () => {
      const creator = await getCreator(ctx.db, 'fantia', id);
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: 'fantia',
        id,
        name: creator.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: [`Fanclub ${c.name}: imported ${countLabel(c.saved, 'post')}.${extra}`] },
  );
  return next;
}

/** Shows adult posts for this run when the account hid them at the start; false when that failed. */
async function showAdult(ctx: ImportContext, api: FantiaApi): Promise<void> {
  if (await setAdult(api.client, true)) {
    await ctx.log("Turned on the Fantia account's adult setting for this import; it is turned off again at the end.");
  } else {
    await ctx.log("Could not turn on the Fantia account's adult setting: adult posts are skipped.");
  }
}

async function importAll(ctx: ImportContext, api: FantiaApi, cursor: Cursor): Promise<void> {
  await ctx.setSubCount(cursor.fanclubs.length);
  while (cursor.at < cursor.fanclubs.length) {
    if (ctx.signal.aborted) return;
    const id = cursor.fanclubs[cursor.at];
    const listed = await skipListedCreator(ctx, id, cursor.creator?.name);
    if (listed) {
      cursor = { ...cursor, at: cursor.at + 1, creator: undefined };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.creator) {
      cursor = await startCreator(ctx, api, cursor, id);
      if (!cursor.creator) continue;
    }
    const done = await importPosts(ctx, api, cursor, id);
    if (!done) return;
    cursor = await finishCreator(ctx, done, id);
  }
}

async function run(ctx: ImportContext): Promise<void> {
  const api = fantiaApi(ctx);
  await api.checkKey();
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const adult = await adultSetting(api.client);
    const fanclubs = await api.paidFanclubs();
    cursor = { fanclubs, at: 0, ...(adult === 'off' ? { adultWasOff: true } : {}) };
    const lines = [`Found ${countLabel(fanclubs.length, 'fanclub')} with a paid plan.`];
    if (adult === 'unknown') lines.push("Could not read the Fantia account's adult setting: adult posts may be skipped.");
    // Committed before the setting changes, so a crash right after still puts it back at the end.
    await ctx.step(() => undefined, { cursor, log: lines });
  }
  try {
    if (cursor.adultWasOff) await showAdult(ctx, api);
    await importAll(ctx, api, cursor);
  } finally {
    if (cursor.adultWasOff) await restoreAdult(ctx);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const fantiaImporter: PaysiteImporter = { run };
