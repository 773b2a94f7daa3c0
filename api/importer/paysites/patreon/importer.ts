/**
 * The Patreon importer. With the user's `session_id` cookie it asks Patreon's website API for the
 * user's memberships (the subscriptions), then for each creator: the profile (name, avatar, cover),
 * every post page by page (newest first) with files, inline images, embed, poll, tags and comments,
 * and, when asked, the creator's DMs. A creator is the campaign owner's Patreon user id, as kemono's
 * patreon/user/{id} URLs use it.
 *
 * Resumable: the cursor holds the subscriptions found, the creator being imported, the posts page
 * being worked on and how many of its posts are committed (one step per post), then the DM position.
 * The key is checked first on every run, so an expired key fails the import before anything else.
 */
import { paysiteEndpoint } from '@api/config.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertComment } from '@api/data/comments.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import { skipListedCreator, skipListedPost, storePost, unlistedCreators } from '@api/importer/do-not-post.ts';
import { createPaysiteClient, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { CURRENT_USER_PATH, campaignAttributes, getDocument, nextPath, parseOr, postsPath } from './api.ts';
import { FIRST_DM_CURSOR, importDms, type DmCursor } from './dms.ts';
import { dataList, indexIncluded, postPlan, related, relatedId } from './map.ts';
import { preparePost } from './posts.ts';
import { countLabel } from '@shared/format.ts';

interface Subscription {
  campaignId: string;
  /** The campaign owner's Patreon user id: the archive's creator id. */
  creatorId: string;
  name: string;
  icon: string | null;
  banner: string | null;
}

interface Cursor {
  subs: Subscription[];
  /** The creator being imported (index into subs). */
  i: number;
  /** Its posts page being worked on; null before its profile is saved. */
  page: string | null;
  /** Posts of that page already committed. */
  done: number;
  /** Posts saved and posts this account may not see, for the creator's summary line. */
  saved: number;
  locked: number;
  /** Whether any post of the creator was new or changed (its `updated` date moves). */
  changed: boolean;
  dms?: DmCursor;
}

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The subscribed campaigns from the current user's memberships (also proves the key works). */
async function subscriptions(client: PaysiteClient): Promise<Subscription[]> {
  const doc = await getDocument(client, CURRENT_USER_PATH, 'the current user');
  const index = indexIncluded(doc);
  const [user] = dataList(doc);
  const subs = new Map<string, Subscription>();
  for (const member of related(user, 'active_memberships', index)) {
    for (const campaign of related(member, 'campaign', index)) {
      const attrs = parseOr(campaignAttributes, campaign.attributes, 'a campaign');
      const creatorId = relatedId(campaign, 'creator');
      if (!creatorId || subs.has(campaign.id)) continue;
      subs.set(campaign.id, {
        campaignId: campaign.id,
        creatorId,
        name: attrs.name,
        icon: attrs.avatar_photo_url ?? null,
        banner: attrs.cover_photo_url ?? null,
      });
    }
  }
  return [...subs.values()];
}

async function importCreator(
  ctx: ImportContext,
  client: PaysiteClient,
  start: Cursor,
  save: (write: () => unknown, cursor: Cursor, log: string[]) => Promise<unknown>,
): Promise<Cursor> {
  let cursor = start;
  const sub = cursor.subs[cursor.i];
  if (cursor.page === null) {
    const listed = await skipListedCreator(ctx, sub.creatorId, sub.name);
    if (listed) {
      cursor = { ...cursor, i: cursor.i + 1 };
      await save(() => undefined, cursor, [listed]);
      return cursor;
    }
    await archiveCreatorImage(ctx, client, 'icons', ctx.service, sub.creatorId, sub.icon);
    await archiveCreatorImage(ctx, client, 'banners', ctx.service, sub.creatorId, sub.banner);
    cursor = { ...cursor, page: postsPath(sub.campaignId), done: 0, saved: 0, locked: 0, changed: false };
    await save(() => upsertCreator(ctx.db, { service: ctx.service, id: sub.creatorId, name: sub.name }), cursor, [
      `Creator ${sub.name}: importing posts.`,
    ]);
  }
  while (cursor.page !== null) {
    if (ctx.signal.aborted) return cursor;
    const doc = await getDocument(client, cursor.page, 'a page of posts');
    const index = indexIncluded(doc);
    const posts = Array.isArray(doc.data) ? doc.data : [];
    for (let i = cursor.done; i < posts.length; i++) {
      if (ctx.signal.aborted) return cursor;
      const plan = postPlan(posts[i], index);
      if (!plan.canView) {
        cursor = { ...cursor, done: i + 1, locked: cursor.locked + 1 };
        await save(() => undefined, cursor, []);
        continue;
      }
      const listed = await skipListedPost(ctx, sub.creatorId, plan.id, plan.title);
      if (listed) {
        cursor = { ...cursor, done: i + 1 };
        await save(() => undefined, cursor, [listed]);
        continue;
      }
      if (plan.unreadableText) await ctx.log(`Post ${plan.id}: its text is in a form the importer cannot read; stored without text.`);
      const prepared = await preparePost(ctx, client, sub.creatorId, plan);
      if (ctx.signal.aborted) return cursor;
      const next: Cursor = { ...cursor, done: i + 1, saved: cursor.saved + 1 };
      await save(
        async () => {
          // The step stores the cursor after this runs, so the flag commits with the post.
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') next.changed = true;
          for (const comment of prepared.comments) await upsertComment(ctx.db, comment);
        },
        next,
        [],
      );
      cursor = next;
    }
    const next = nextPath(doc.links?.next);
    if (next !== null) {
      cursor = { ...cursor, page: next, done: 0 };
      await save(() => undefined, cursor, [`Creator ${sub.name}: imported ${cursor.saved} posts so far.`]);
      continue;
    }
    const lines = [`Creator ${sub.name}: imported ${cursor.saved} posts.`];
    if (cursor.locked > 0) lines.push(`Creator ${sub.name}: skipped ${cursor.locked} posts this account cannot see.`);
    const changed = cursor.changed;
    cursor = { ...cursor, i: cursor.i + 1, page: null, done: 0 };
    await save(
      () =>
        upsertCreator(ctx.db, {
          service: ctx.service,
          id: sub.creatorId,
          name: sub.name,
          last_imported: nowEpoch(),
          ...(changed ? { updated: nowEpoch() } : {}),
        }),
      cursor,
      lines,
    );
  }
  return cursor;
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const patreonImporter: PaysiteImporter = { run: (ctx) => run(ctx) };

async function run(ctx: ImportContext): Promise<void> {
  const client = createPaysiteClient({
    label: 'Patreon',
    endpoint: paysiteEndpoint(ctx.config.importer, 'patreon'),
    importer: ctx.config.importer,
    headers: { cookie: `session_id=${ctx.key}`, 'user-agent': USER_AGENT },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });
  const save = (write: () => void, cursor: Cursor, log: string[]) => ctx.step(write, { cursor, log });

  const found = await subscriptions(client);
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    cursor = { subs: found, i: 0, page: null, done: 0, saved: 0, locked: 0, changed: false };
    await save(() => undefined, cursor, [`Found ${countLabel(found.length, 'subscription')}.`]);
  }
  await ctx.setSubCount(cursor.subs.length);

  while (cursor.i < cursor.subs.length) {
    if (ctx.signal.aborted) return;
    cursor = await importCreator(ctx, client, cursor, save);
  }
  if (!ctx.saveDms || ctx.signal.aborted) return;
  const creators = await unlistedCreators(ctx, new Map(cursor.subs.map((s) => [s.creatorId, s.name])));
  const base = cursor;
  await importDms(ctx, client, creators, cursor.dms ?? FIRST_DM_CURSOR, (write, dms, log) => save(write, { ...base, dms }, log));
}
