/**
 * The OnlyFans importer. Each run loads the signing rules (IMPORTER_ONLYFANS_RULES) and asks
 * users/me (an expired session fails first); a fresh import then lists the active subscriptions. For
 * each creator: the profile (name, avatar as icon, header as banner), then its pinned posts (offset
 * paging), its timeline without them (newest first, `beforePublishTime` = the last post's
 * postedAtPrecise) and its archived posts (same paging). Kemono's creator id for OnlyFans is the
 * username; the numeric id only selects the posts.
 *
 * Steps: the subscription list, each creator's profile, each post (its files are downloaded before the
 * step; post + cursor commit together), each list's end, the creator's end. The cursor names the list
 * and where in it to go on, so a restart fetches again at most the post it was in the middle of.
 * A refused signature or unusable rules end the import with a line saying so (an operator has to
 * update the rules; the session key is fine, so it is not marked dead).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { getPost, type PostInput } from '@api/data/posts.ts';
import { isRefetchWanted, skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { dataPaths, paysiteEndpoint } from '@api/config.ts';
import { archiveCreatorImage, archiveFile, archiveInlineImages, type ArchivedFile } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { parseOnlyfansCredential } from '@api/importer/credential.ts';
import { KeyRejectedError } from '@api/importer/errors.ts';
import { countLabel } from '@shared/format.ts';
import { onlyfansApi, SigningRefusedError, type OnlyfansApi, type OnlyfansPost, type PostPage } from './api.ts';
import { onlyfansEndpoints } from './endpoints.ts';
import { mediaPlan, postCursor, postHtml, postTitle, skipReason, toPostInput, type PlannedFile } from './map.ts';
import { loadRules, RulesError, rulesLabel } from './rules.ts';

const LISTS = ['pinned', 'timeline', 'archived'] as const;
type List = (typeof LISTS)[number];

interface Sub {
  /** The numeric user id (API paths). */
  id: string;
  username: string;
}

interface CreatorState {
  name: string;
  /** The list being imported; 'done' after the last. */
  list: List | 'done';
  /** Pinned: how many were done. */
  offset: number;
  /** Timeline and archived: the postedAtPrecise of the last post done. */
  before?: string;
  saved: number;
  changed: number;
  locked: number;
  deleted: number;
}

interface Cursor {
  subs: Sub[];
  at: number;
  creator?: CreatorState;
}

type Prepared = { kind: 'post'; post: PostInput; lines: string[] } | { kind: 'listed'; lines: string[] } | { kind: 'deleted' | 'locked' };

/** Files of the stored copy by name: OnlyFans' media URLs name the file by its content, so a re-import need not fetch them again. */
async function storedFiles(ctx: ImportContext, user: string, postId: string): Promise<Map<string, ArchivedFile>> {
  const files = new Map<string, ArchivedFile>();
  // A flagged post's files were found broken: download them again.
  if (await isRefetchWanted(ctx, user, postId)) return files;
  const stored = await getPost(ctx.db, 'onlyfans', user, postId);
  const filesDir = dataPaths(ctx.config.dataDir).files;
  for (const file of [...(stored?.file ? [stored.file] : []), ...(stored?.attachments ?? [])]) {
    const hash = /([0-9a-f]{64})\.[a-z0-9]+$/.exec(file.path)?.[1];
    if (file.name && hash && fs.existsSync(path.join(filesDir, file.path)))
      files.set(file.name, { name: file.name, path: file.path, hash });
  }
  return files;
}

async function preparePost(ctx: ImportContext, api: OnlyfansApi, user: string, post: OnlyfansPost): Promise<Prepared> {
  const listed = await skipListedPost(ctx, user, post.id, postTitle(post));
  if (listed) return { kind: 'listed', lines: [listed] };
  const skip = skipReason(post);
  if (skip) return { kind: skip };
  const plan = mediaPlan(post);
  const known = await storedFiles(ctx, user, post.id);
  const fetchFile = async (item: PlannedFile | undefined) =>
    item ? (known.get(item.name) ?? (await archiveFile(ctx, api.client, item.url, item.name))) : undefined;
  const file = await fetchFile(plan.file);
  const attachments: ArchivedFile[] = [];
  for (const item of plan.attachments) {
    const saved = await fetchFile(item);
    if (saved) attachments.push(saved);
  }
  const content = await archiveInlineImages(ctx, api.client, postHtml(post));
  return { kind: 'post', lines: plan.skipped, post: toPostInput(user, post, content, { file, attachments }) };
}

/** Saves the creator's profile, icon and banner; undefined when OnlyFans no longer has the account. */
async function startCreator(ctx: ImportContext, api: OnlyfansApi, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const user = await api.user(sub.username);
  if (!user) {
    const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
    await ctx.step(() => undefined, { cursor: next, log: [`Creator ${sub.username}: OnlyFans no longer has this account; skipped.`] });
    return next;
  }
  const name = user.name || user.username;
  await archiveCreatorImage(ctx, api.client, 'icons', 'onlyfans', sub.username, user.avatar);
  await archiveCreatorImage(ctx, api.client, 'banners', 'onlyfans', sub.username, user.header);
  const next: Cursor = {
    ...cursor,
    creator: { name, list: 'pinned', offset: 0, saved: 0, changed: 0, locked: 0, deleted: 0 },
  };
  await ctx.step(() => upsertCreator(ctx.db, { service: 'onlyfans', id: sub.username, name }), {
    cursor: next,
    log: [`Creator ${name}: importing posts.`],
  });
  return next;
}

function fetchPage(api: OnlyfansApi, sub: Sub, state: CreatorState & { list: List }): Promise<PostPage> {
  if (state.list === 'pinned') return api.pinned(sub.id, state.offset);
  if (state.list === 'timeline') return api.timeline(sub.id, state.before);
  return api.archived(sub.id, state.before);
}

/** Imports the current creator's lists from the cursor on; undefined when stopped. */
async function importPosts(ctx: ImportContext, api: OnlyfansApi, start: Cursor, sub: Sub): Promise<Cursor | undefined> {
  let cursor = start;
  const state = () => cursor.creator!;
  for (let current = state(); current.list !== 'done'; current = state()) {
    const page = await fetchPage(api, sub, { ...current, list: current.list });
    let moved = false;
    for (const item of page.posts) {
      if (ctx.signal.aborted) return undefined;
      const prepared = await preparePost(ctx, api, sub.username, item);
      const c = state();
      const position = c.list === 'pinned' ? { offset: c.offset + 1 } : { before: postCursor(item) ?? c.before };
      moved ||= c.list === 'pinned' || position.before !== c.before;
      const next: Cursor = {
        ...cursor,
        creator: {
          ...c,
          ...position,
          locked: c.locked + (prepared.kind === 'locked' ? 1 : 0),
          deleted: c.deleted + (prepared.kind === 'deleted' ? 1 : 0),
        },
      };
      await ctx.step(
        async () => {
          if (prepared.kind !== 'post') return;
          next.creator!.saved++;
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') next.creator!.changed++;
        },
        { cursor: next, log: prepared.kind === 'post' || prepared.kind === 'listed' ? prepared.lines : [] },
      );
      cursor = next;
    }
    // The list ends when OnlyFans says so, or when a page brought the cursor no further.
    if (page.hasMore && moved) {
      if (state().list !== 'pinned') await ctx.log(`Creator ${state().name}: ${countLabel(state().saved, 'post')} so far.`);
      continue;
    }
    const c = state();
    const list = LISTS[LISTS.indexOf(current.list) + 1] ?? 'done';
    cursor = { ...cursor, creator: { ...c, list, offset: 0, before: undefined } };
    await ctx.step(() => undefined, { cursor });
  }
  return cursor;
}

async function finishCreator(ctx: ImportContext, cursor: Cursor, sub: Sub): Promise<Cursor> {
  const c = cursor.creator!;
  const next: Cursor = { subs: cursor.subs, at: cursor.at + 1 };
  const lines = [`Creator ${c.name}: imported ${countLabel(c.saved, 'post')}.`];
  if (c.locked > 0)
    lines.push(
      `Creator ${c.name}: skipped ${countLabel(c.locked, 'locked post')} (pay-per-view not bought, or media this account cannot see).`,
    );
  if (c.deleted > 0) lines.push(`Creator ${c.name}: skipped ${countLabel(c.deleted, 'deleted post')}.`);
  await ctx.step(
    async () => {
      const creator = await getCreator(ctx.db, 'onlyfans', sub.username);
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: 'onlyfans',
        id: sub.username,
        name: creator.name,
        last_imported: now,
        ...(c.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: lines },
  );
  return next;
}

async function listSubscriptions(ctx: ImportContext, api: OnlyfansApi): Promise<Cursor> {
  const count = await api.subscriptionCount();
  const subs = new Map<string, Sub>();
  for (let offset = 0, pages = 0; pages < 1000; pages++) {
    const page = await api.subscriptions(offset);
    for (const user of page.users) if (user.subscribedBy !== false) subs.set(user.id, { id: user.id, username: user.username });
    offset += page.users.length;
    if (!page.hasMore) break;
  }
  const cursor: Cursor = { subs: [...subs.values()], at: 0 };
  const expired = count.expired > 0 ? ` ${countLabel(count.expired, 'expired subscription')} not imported (their posts are locked).` : '';
  await ctx.step(() => undefined, { cursor, log: [`Found ${countLabel(cursor.subs.length, 'active subscription')}.${expired}`] });
  return cursor;
}

async function importAll(ctx: ImportContext, api: OnlyfansApi): Promise<void> {
  // Every run, a resume too: an expired session fails before anything else.
  await api.me();
  let cursor = (await ctx.cursor<Cursor>()) ?? (await listSubscriptions(ctx, api));
  await ctx.setSubCount(cursor.subs.length);
  while (cursor.at < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    const sub = cursor.subs[cursor.at];
    const listed = await skipListedCreator(ctx, sub.username);
    if (listed) {
      cursor = { subs: cursor.subs, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.creator) {
      cursor = await startCreator(ctx, api, cursor, sub);
      if (!cursor.creator) continue;
    }
    const done = await importPosts(ctx, api, cursor, sub);
    if (!done) return;
    cursor = await finishCreator(ctx, done, sub);
  }
}

async function run(ctx: ImportContext): Promise<void> {
  const credential = parseOnlyfansCredential(ctx.key);
  if (!credential?.auth_id || !credential['x-bc'] || !credential.user_agent)
    throw new KeyRejectedError('The OnlyFans key lacks its auth_id, x-bc or User-Agent');
  const setting = paysiteEndpoint(ctx.config.importer, 'onlyfans').settings?.rules ?? onlyfansEndpoints.settings!.rules.default;
  const end = (line: string) => ctx.step(() => undefined, { log: [line] });
  try {
    const rules = await loadRules(setting, ctx.config.importer, ctx.signal);
    try {
      await importAll(ctx, onlyfansApi(ctx, credential, rules));
    } catch (error) {
      if (!(error instanceof SigningRefusedError)) throw error;
      await end(
        `${error.message}: the signing rules (${rulesLabel(rules, setting)}) are out of date, or this server's clock is off. ` +
          'The import stopped; what was imported so far is kept. The operator has to update IMPORTER_ONLYFANS_RULES (docs/importing.md) before OnlyFans can be imported again.',
      );
    }
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    await end(`${error.message} The import stopped; the operator has to fix IMPORTER_ONLYFANS_RULES (docs/importing.md).`);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const onlyfansImporter: PaysiteImporter = { run };
