/**
 * The SubscribeStar importer. The key is checked on www.subscribestar.com, else on the adult site
 * (a cookie belongs to one of them); the stars the account follows are read from its feed (/feed, then
 * its load-more pages: the distinct authors of its posts, as kemono's importers did, since no page lists
 * subscriptions); then each star's page (/{slug}: name, avatar, cover and the first posts) and its
 * load-more pages (/posts?page_end_order_position=...&star_id=...) give every post the key can see.
 * Kemono's creator id for SubscribeStar is the star's handle (the slug).
 *
 * Steps: the star list; each star's profile; each post (its files are downloaded before the step, then
 * the post commits with the page and the last post id done); each page end; the star's end. A resume
 * reads again the page it was on and skips the posts already done.
 */
import { getCreator, setCreatorLastImported, upsertCreator } from '@api/data/creators.ts';
import { getPost, type PostInput } from '@api/data/posts.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage, archiveFile, archiveInlineImages, type ArchivedFile } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { countLabel } from '@shared/format.ts';
import { SITE_LABEL, SITES, subscribestarApi, type SsApi, type SsSite } from './api.ts';
import {
  feedCreators,
  isLoggedIn,
  nextPage,
  parsePosts,
  parseProfile,
  SsShapeError,
  toPostInput,
  uploadName,
  type SsPostData,
  type SsUploadRef,
} from './map.ts';

const SERVICE = 'subscribestar';
/** Pages read at most per list (a loop guard: 10,000 pages of posts). */
const MAX_PAGES = 10_000;

interface Star {
  slug: string;
  name: string;
}

interface StarState {
  name: string;
  /** Path of the page being imported: the star page (/{slug}) or a load-more page. */
  page: string;
  /** The last post of that page already done (a resume skips up to it). */
  after: string | null;
  pages: number;
  saved: number;
  changed: number;
  locked: number;
}

interface Cursor {
  site: SsSite;
  stars: Star[];
  at: number;
  star?: StarState;
}

const shapeError = (error: unknown) =>
  error instanceof SsShapeError
    ? new TransientError(`SubscribeStar sent a page this importer does not understand: ${error.message}`)
    : error;

/** Which site the key is logged in on (www.subscribestar.com first); KeyRejectedError when neither. */
async function findSite(ctx: ImportContext, known?: SsSite): Promise<SsApi> {
  for (const site of known ? [known] : SITES) {
    const api = subscribestarApi(ctx, site);
    if (await api.loggedIn()) return api;
  }
  throw new KeyRejectedError('SubscribeStar showed the pages of a visitor: the session key is not logged in');
}

/** The stars of the account's feed, newest post first. */
async function readFeed(api: SsApi): Promise<Star[]> {
  const first = await api.page('/feed');
  if (first.redirect?.startsWith('/login')) throw new KeyRejectedError('SubscribeStar sent the feed to its login page');
  if (first.status !== 200) throw new TransientError(`SubscribeStar answered ${first.status} for the feed`);
  const posts: SsPostData[] = parsePosts(first.html, api.root);
  const seen = new Set<string>();
  for (let next = nextPage(first.html), n = 0; next && !seen.has(next) && n < MAX_PAGES; n++) {
    seen.add(next);
    const html = await api.more(next, 'the feed');
    posts.push(...parsePosts(html, api.root));
    next = nextPage(html);
  }
  return feedCreators(posts);
}

/** The star page: its profile saved, or a line saying why the star is skipped. */
async function readStarPage(api: SsApi, star: Star): Promise<{ html: string } | { skip: string }> {
  const page = await api.page(`/${encodeURIComponent(star.slug)}`);
  if (page.redirect?.startsWith('/login')) throw new KeyRejectedError('SubscribeStar sent a star page to its login page');
  if (page.redirect?.includes('/verify_subscriber'))
    return { skip: `Creator ${star.name}: SubscribeStar asks subscribers to verify their account before showing this page; skipped.` };
  if (page.redirect) return { skip: `Creator ${star.name}: SubscribeStar redirected the page elsewhere; skipped.` };
  if (page.status === 404 || page.status === 410) return { skip: `Creator ${star.name}: the page is gone (${page.status}); skipped.` };
  if (page.status !== 200) throw new TransientError(`SubscribeStar answered ${page.status} for a star page`);
  if (!isLoggedIn(page.html)) throw new KeyRejectedError('SubscribeStar showed a star page to a visitor: the session key expired');
  return { html: page.html };
}

async function startStar(ctx: ImportContext, api: SsApi, cursor: Cursor, star: Star, html: string): Promise<Cursor> {
  const profile = parseProfile(html);
  if (!profile) throw new TransientError('SubscribeStar sent a star page without its profile header; the site may have changed');
  await archiveCreatorImage(ctx, api.client, 'icons', SERVICE, star.slug, profile.avatar && (await api.fileUrl(profile.avatar)));
  await archiveCreatorImage(ctx, api.client, 'banners', SERVICE, star.slug, profile.cover && (await api.fileUrl(profile.cover)));
  const state: StarState = {
    name: profile.name,
    page: `/${encodeURIComponent(star.slug)}`,
    after: null,
    pages: 0,
    saved: 0,
    changed: 0,
    locked: 0,
  };
  const next: Cursor = { ...cursor, star: state };
  await ctx.step(() => upsertCreator(ctx.db, { service: SERVICE, id: star.slug, name: profile.name }), {
    cursor: next,
    log: [`Creator ${profile.name}: importing posts from ${SITE_LABEL[api.site]}.`],
  });
  return next;
}

/** Inline images whose src is a site-relative upload link, pointed at the upload host first. */
async function resolveInlineImages(api: SsApi, html: string): Promise<string> {
  const sources = [...html.matchAll(/<img\b[^>]*?\ssrc="(\/[^"/][^"]*)"/gi)].map((m) => m[1]);
  let out = html;
  for (const src of new Set(sources)) {
    const resolved = await api.fileUrl(src.replace(/&amp;/g, '&'));
    out = out.split(`src="${src}"`).join(`src="${resolved.replace(/&/g, '&amp;')}"`);
  }
  return out;
}

/** Downloads a visible post's files and inline images; builds what to store (nothing is written here). */
async function preparePost(ctx: ImportContext, api: SsApi, slug: string, data: SsPostData): Promise<PostInput> {
  const referer = { referer: `${api.root}/posts/${data.id}` };
  const archived: { file: ArchivedFile; upload: SsUploadRef }[] = [];
  for (const upload of data.uploads) {
    const file = await archiveFile(ctx, api.client, await api.fileUrl(upload.url), uploadName(upload), referer);
    if (file) archived.push({ file, upload });
  }
  const content = await archiveInlineImages(ctx, api.client, await resolveInlineImages(api, data.body));
  const stored = data.updated ? (await getPost(ctx.db, SERVICE, slug, data.id))?.published : undefined;
  return toPostInput(slug, data, archived, content, stored);
}

/** Imports the current star's posts from the cursor's page on; undefined when stopped. */
async function importPages(ctx: ImportContext, api: SsApi, start: Cursor, slug: string, firstHtml: string): Promise<Cursor | undefined> {
  let cursor = start;
  const seen = new Set<string>();
  for (let page: string | null = cursor.star!.page; page && !seen.has(page) && seen.size < MAX_PAGES; ) {
    seen.add(page);
    const state = cursor.star!;
    const html = page === `/${encodeURIComponent(slug)}` ? firstHtml : await api.more(page, `${state.name}'s posts`);
    const posts = parsePosts(html, api.root);
    const done = state.after === null ? -1 : posts.findIndex((p) => p.id === state.after);
    for (const data of posts.slice(done + 1)) {
      if (ctx.signal.aborted) return undefined;
      if (data.slug && data.slug !== slug) continue;
      const listed = await skipListedPost(ctx, slug, data.id, data.title);
      if (listed) {
        cursor = { ...cursor, star: { ...cursor.star!, after: data.id } };
        await ctx.step(() => undefined, { cursor, log: [listed] });
        continue;
      }
      const prepared = data.locked ? undefined : await preparePost(ctx, api, slug, data);
      const c = cursor.star!;
      const next: Cursor = { ...cursor, star: { ...c, after: data.id, locked: c.locked + (prepared ? 0 : 1) } };
      const title = data.title ? `"${data.title}"` : 'untitled';
      await ctx.step(
        async () => {
          if (!prepared) return;
          next.star!.saved++;
          if ((await storePost(ctx, prepared)).action !== 'unchanged') next.star!.changed++;
        },
        { cursor: next, log: prepared ? [] : [`Creator ${c.name}: post ${data.id} (${title}) is above your tier; skipped.`] },
      );
      cursor = next;
    }
    const c = cursor.star!;
    const following = nextPage(html);
    cursor = { ...cursor, star: { ...c, page: following ?? '', after: null, pages: c.pages + 1 } };
    await ctx.step(() => undefined, {
      cursor,
      log: following ? [`Creator ${c.name}: ${countLabel(c.saved, 'post')} imported so far (page ${c.pages + 1}).`] : [],
    });
    page = following;
  }
  return cursor;
}

async function finishStar(ctx: ImportContext, cursor: Cursor, slug: string): Promise<Cursor> {
  const c = cursor.star!;
  const next: Cursor = { site: cursor.site, stars: cursor.stars, at: cursor.at + 1 };
  const locked = c.locked > 0 ? ` ${countLabel(c.locked, 'post')} above your tier skipped.` : '';
  await ctx.step(
    async () => {
      const now = nowEpoch();
      const creator = await getCreator(ctx.db, SERVICE, slug);
      if (creator && c.changed > 0)
        await upsertCreator(ctx.db, { service: SERVICE, id: slug, name: creator.name, last_imported: now, updated: now });
      else if (creator) await setCreatorLastImported(ctx.db, SERVICE, slug, now);
    },
    { cursor: next, log: [`Creator ${c.name}: imported ${countLabel(c.saved, 'post')}.${locked}`] },
  );
  return next;
}

async function importAll(ctx: ImportContext): Promise<void> {
  let cursor = await ctx.cursor<Cursor>();
  // The key is checked on every run, a resume too, so an expired key fails before anything else.
  const api = await findSite(ctx, cursor?.site);
  if (!cursor) {
    const stars = await readFeed(api);
    cursor = { site: api.site, stars, at: 0 };
    await ctx.step(() => undefined, {
      cursor,
      log: [`Logged in on ${SITE_LABEL[api.site]}.`, `Found ${countLabel(stars.length, 'creator')} in your feed.`],
    });
  }
  await ctx.setSubCount(cursor.stars.length);
  while (cursor.at < cursor.stars.length) {
    if (ctx.signal.aborted) return;
    const star = cursor.stars[cursor.at];
    const listed = await skipListedCreator(ctx, star.slug, star.name);
    if (listed) {
      cursor = { site: cursor.site, stars: cursor.stars, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    const page = await readStarPage(api, star);
    if ('skip' in page) {
      cursor = { site: cursor.site, stars: cursor.stars, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [page.skip] });
      continue;
    }
    if (!cursor.star) cursor = await startStar(ctx, api, cursor, star, page.html);
    const done = await importPages(ctx, api, cursor, star.slug, page.html);
    if (!done) return;
    cursor = await finishStar(ctx, done, star.slug);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const subscribestarImporter: PaysiteImporter = {
  async run(ctx) {
    try {
      await importAll(ctx);
    } catch (error) {
      throw shapeError(error);
    }
  },
};
