/**
 * The Fansly importer. With the user's token it asks Fansly's API (signed as the web app signs it,
 * api.ts) who the user is (/account/me: also proves the key), which accounts the user subscribes to
 * (/subscriptions, active ones) and follows (/account/{me}/following, paged by offset), then for each of
 * those creators: the account (name, avatar, banner), and the timeline (/timelinenew/{id}, newest first,
 * `before` = the last post id of the previous page, until an empty page) with every post's media
 * resolved through the page's accountMedia / bundles and /account/media. With include-DMs, the message
 * groups with those creators (dms.ts).
 *
 * Steps: the creator list; each creator's profile; each post (its files downloaded before the step,
 * then the post commits with the position creator/page/index); each page's end; the creator's end; the
 * DM steps. A restart resumes at the post it was on; a re-import changes nothing unless Fansly did.
 */
import { upsertCreator } from '@api/data/creators.ts';
import { skipListedCreator, skipListedPost, storePost, unlistedCreators } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';
import { accounts, following, me, openFanslyApi, postContainer, subscriptions, type FanslyApi } from './api.ts';
import { FIRST_DM_CURSOR, importDms, type DmCursor } from './dms.ts';
import { archivePostFiles, completeMedia } from './files.ts';
import { indexMedia, postPlan, profileImage } from './map.ts';

export interface FanslyCreator {
  id: string;
  name: string;
}

interface Cursor {
  creators: FanslyCreator[];
  /** The creator being imported (index into creators). */
  i: number;
  /** The `before` of the timeline page being worked on; null before the creator's profile is saved. */
  before: string | null;
  /** Posts of that page already committed. */
  done: number;
  saved: number;
  /** Posts skipped because every media item is locked / deleted; locked items left out of stored posts. */
  locked: number;
  deleted: number;
  lockedItems: number;
  changed: boolean;
  dms?: DmCursor;
}

/** JK resolves accounts five ids at a time "to avoid URL length issues". */
const ACCOUNT_BATCH = 5;
const FOLLOWING_PAGE = 50;
/** Subscription status of an active subscription (JK `Account` model). */
const ACTIVE = 3;

/** The subscribed (active) and followed accounts, subscribed first, with their names. */
async function creatorList(api: FanslyApi, ownId: string): Promise<{ creators: FanslyCreator[]; subscribed: number; followed: number }> {
  const subs = await api.get('/subscriptions', {}, subscriptions, 'the subscriptions');
  const subscribed = [...new Set(subs.subscriptions.filter((s) => s.status === ACTIVE).map((s) => s.accountId))];
  const followed: string[] = [];
  for (let offset = 0; ; offset += FOLLOWING_PAGE) {
    const page = await api.get(
      `/account/${ownId}/following`,
      { before: '0', after: '0', limit: String(FOLLOWING_PAGE), offset: String(offset) },
      following,
      'the followed accounts',
    );
    followed.push(...page.map((f) => f.accountId));
    if (page.length < FOLLOWING_PAGE) break;
  }
  const ids = [...new Set([...subscribed, ...followed])].filter((id) => id !== ownId);
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += ACCOUNT_BATCH) {
    const found = await api.get('/account', { ids: ids.slice(i, i + ACCOUNT_BATCH).join(',') }, accounts, 'accounts');
    for (const a of found) names.set(a.id, a.displayName || a.username);
  }
  // An account Fansly no longer answers for (deleted, banned) has nothing to import.
  const creators = ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! }));
  return { creators, subscribed: subscribed.length, followed: new Set(followed).size };
}

async function saveProfile(ctx: ImportContext, api: FanslyApi, creator: FanslyCreator): Promise<{ name: string; username: string | null }> {
  const [account] = await api.get('/account', { ids: creator.id }, accounts, 'an account');
  if (!account) return { name: creator.name, username: null };
  await archiveCreatorImage(ctx, api.files, 'icons', ctx.service, creator.id, profileImage(account.avatar));
  await archiveCreatorImage(ctx, api.files, 'banners', ctx.service, creator.id, profileImage(account.banner));
  return { name: account.displayName || account.username, username: account.username };
}

function endLines(name: string, cursor: Cursor): string[] {
  const lines = [`Creator ${name}: imported ${countLabel(cursor.saved, 'post')}.`];
  if (cursor.locked > 0) lines.push(`Creator ${name}: skipped ${countLabel(cursor.locked, 'post')} this account cannot see.`);
  if (cursor.deleted > 0) lines.push(`Creator ${name}: skipped ${countLabel(cursor.deleted, 'post')} whose media were deleted.`);
  if (cursor.lockedItems > 0)
    lines.push(`Creator ${name}: left out ${countLabel(cursor.lockedItems, 'locked media item')} of posts it could see in part.`);
  return lines;
}

type Save = (write: () => unknown, cursor: Cursor, log: string[]) => Promise<unknown>;

async function importCreator(ctx: ImportContext, api: FanslyApi, start: Cursor, save: Save): Promise<Cursor> {
  let cursor = start;
  const creator = cursor.creators[cursor.i];
  if (cursor.before === null) {
    const listed = await skipListedCreator(ctx, creator.id, creator.name);
    if (listed) {
      cursor = { ...cursor, i: cursor.i + 1 };
      await save(() => undefined, cursor, [listed]);
      return cursor;
    }
    const profile = await saveProfile(ctx, api, creator);
    creator.name = profile.name;
    cursor = { ...cursor, before: '0', done: 0, saved: 0, locked: 0, deleted: 0, lockedItems: 0, changed: false };
    await save(
      () => upsertCreator(ctx.db, { service: ctx.service, id: creator.id, name: profile.name, public_id: profile.username }),
      cursor,
      [`Creator ${profile.name}: importing posts.`],
    );
  }
  while (cursor.before !== null) {
    if (ctx.signal.aborted) return cursor;
    const page = await api.get(
      `/timelinenew/${creator.id}`,
      { before: cursor.before, after: '0', wallId: '', contentSearch: '' },
      postContainer,
      'a page of posts',
    );
    if (page.posts.length === 0) break;
    const index = indexMedia(page.accountMedia, page.accountMediaBundles);
    await completeMedia(
      api,
      index,
      page.posts.map((p) => p.attachments),
    );
    for (let i = cursor.done; i < page.posts.length; i++) {
      if (ctx.signal.aborted) return cursor;
      const plan = postPlan(page.posts[i], index, { aggregated: page.aggregatedPosts, accounts: page.accounts });
      if (plan.verdict !== 'store') {
        const skipped = plan.verdict === 'skip-locked' ? { locked: cursor.locked + 1 } : { deleted: cursor.deleted + 1 };
        cursor = { ...cursor, done: i + 1, ...skipped };
        await save(() => undefined, cursor, []);
        continue;
      }
      const listed = await skipListedPost(ctx, creator.id, plan.id);
      if (listed) {
        cursor = { ...cursor, done: i + 1 };
        await save(() => undefined, cursor, [listed]);
        continue;
      }
      const { file, attachments } = await archivePostFiles(ctx, api.files, plan);
      if (ctx.signal.aborted) return cursor;
      const next: Cursor = { ...cursor, done: i + 1, saved: cursor.saved + 1, lockedItems: cursor.lockedItems + plan.locked };
      await save(
        async () => {
          const result = await storePost(ctx, {
            service: ctx.service,
            user: creator.id,
            id: plan.id,
            title: '',
            content: plan.html,
            published: plan.published,
            file,
            attachments,
            embed: plan.embed,
            tags: plan.tags,
          });
          // The step stores the cursor after this runs, so the flag commits with the post.
          if (result.action !== 'unchanged') next.changed = true;
        },
        next,
        [],
      );
      cursor = next;
    }
    cursor = { ...cursor, before: page.posts.at(-1)!.id, done: 0 };
    await save(() => undefined, cursor, [`Creator ${creator.name}: imported ${countLabel(cursor.saved, 'post')} so far.`]);
  }
  const changed = cursor.changed;
  const lines = endLines(creator.name, cursor);
  cursor = { ...cursor, i: cursor.i + 1, before: null, done: 0 };
  await save(
    () =>
      upsertCreator(ctx.db, {
        service: ctx.service,
        id: creator.id,
        name: creator.name,
        last_imported: nowEpoch(),
        ...(changed ? { updated: nowEpoch() } : {}),
      }),
    cursor,
    lines,
  );
  return cursor;
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const fanslyImporter: PaysiteImporter = { run: (ctx) => run(ctx) };

async function run(ctx: ImportContext): Promise<void> {
  const api = await openFanslyApi(ctx);
  const save: Save = (write, cursor, log) => ctx.step(write, { cursor, log });
  // Asked on every run (a resume too), so an expired token fails before anything else.
  const own = await api.get('/account/me', {}, me, 'the account');
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const found = await creatorList(api, own.account.id);
    cursor = { creators: found.creators, i: 0, before: null, done: 0, saved: 0, locked: 0, deleted: 0, lockedItems: 0, changed: false };
    await save(() => undefined, cursor, [
      `Found ${countLabel(found.creators.length, 'creator')} (${countLabel(found.subscribed, 'subscription')}, ${countLabel(found.followed, 'followed account')}).`,
    ]);
  }
  await ctx.setSubCount(cursor.creators.length);

  while (cursor.i < cursor.creators.length) {
    if (ctx.signal.aborted) return;
    cursor = await importCreator(ctx, api, cursor, save);
  }
  if (!ctx.saveDms || ctx.signal.aborted) return;
  const base = cursor;
  await importDms(
    ctx,
    api,
    await unlistedCreators(ctx, new Map(cursor.creators.map((c) => [c.id, c.name]))),
    cursor.dms ?? FIRST_DM_CURSOR,
    (write, dms, log) => save(write, { ...base, dms }, log),
  );
}
