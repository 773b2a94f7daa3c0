/**
 * The DLsite importer. One purchased work is one post of its circle (the maker: RG... circles, VG...
 * brands), as kemono had it. Every run first turns the key (the store session) into a Play session and
 * checks it (content/count), so a dead key fails before anything else. The first step plans the import:
 * the library (content/sales) and the works' details in batches of page_limit (content/works), which
 * leave out works DLsite no longer has (withdrawn: skipped with a log line). Then each work is one step:
 * product.json (intro, genres, real file names), the work page's description (inline images archived),
 * the cover, and the files (archives through the download redirects, or DLsite Play's web versions for a
 * browser-only work); post and circle commit with the position. The last step stamps the circles.
 *
 * A re-import downloads a work's archives again only when the work had a version up (upgrade_date) or its
 * files changed name; otherwise the stored files are kept (DLsite archives are often gigabytes).
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { getPost, type PostFileInput } from '@api/data/posts.ts';
import { isRefetchWanted, skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveFile, archiveInlineImages } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { TransientError } from '@api/importer/errors.ts';
import { PaysiteRequestError } from '@api/importer/fetch.ts';
import { countLabel } from '@shared/format.ts';
import { dlsiteApi, type DlsiteApi, type PlayWork, type Product } from './api.ts';
import { archiveWorkFiles } from './files.ts';
import { bodyHtml, coverOf, descriptionHtml, isDrmFile, localizedText, workPost } from './map.ts';

interface Plan {
  /** The works to import, in library order: work number and maker id. */
  works: { w: string; m: string }[];
  /** Maker id -> name. */
  makers: Record<string, string>;
  /** Most worknos one content/works request asks for. */
  limit: number;
}

interface Cursor {
  plan: Plan;
  /** Index in plan.works of the next work. */
  at: number;
  /** Per maker: works saved, works changed. */
  counts: Record<string, [number, number]>;
  finished?: boolean;
}

/** How many withdrawn works the plan's log line names. */
const NAMED = 10;

async function plan(ctx: ImportContext, api: DlsiteApi, pageLimit: number): Promise<Cursor> {
  const sales = await api.sales();
  const worknos = [...new Set(sales.map((s) => s.workno))];
  const limit = Math.max(1, pageLimit);
  const works = new Map((await api.works(worknos, limit)).map((w) => [w.workno, w]));
  const makers: Record<string, string> = {};
  const list: Plan['works'] = [];
  const gone: string[] = [];
  const listed = new Map<string, string>();
  for (const workno of worknos) {
    const work = works.get(workno);
    if (!work) {
      gone.push(workno);
      continue;
    }
    // A circle on the do-not-post list: none of its works is fetched (one line per circle).
    const skip = listed.get(work.maker.id) ?? (await skipListedCreator(ctx, work.maker.id, localizedText(work.maker.name)));
    if (skip) {
      listed.set(work.maker.id, skip);
      continue;
    }
    makers[work.maker.id] ??= localizedText(work.maker.name) || work.maker.id;
    list.push({ w: workno, m: work.maker.id });
  }
  const cursor: Cursor = { plan: { works: list, makers, limit }, at: 0, counts: {} };
  const log = [
    ...listed.values(),
    `Found ${countLabel(worknos.length, 'purchased work')} by ${countLabel(Object.keys(makers).length, 'circle')}.`,
  ];
  if (gone.length) {
    const named = gone.slice(0, NAMED).join(', ') + (gone.length > NAMED ? ` and ${gone.length - NAMED} more` : '');
    log.push(`Skipped ${countLabel(gone.length, 'work')} DLsite no longer has (withdrawn or deleted): ${named}.`);
  }
  await ctx.step(() => undefined, { cursor, log });
  return cursor;
}

/** The files of the stored post when the work had no version up since and lists the same files. */
async function storedFiles(
  ctx: ImportContext,
  work: PlayWork,
  info: Product | undefined,
  edited: string | null,
): Promise<PostFileInput[] | undefined> {
  // A flagged work's files were found broken: download them again.
  if (await isRefetchWanted(ctx, work.maker.id, work.workno)) return undefined;
  const existing = await getPost(ctx.db, 'dlsite', work.maker.id, work.workno);
  if (!existing || (existing.edited ?? null) !== edited || existing.attachments.length === 0) return undefined;
  const listed = (info?.contents ?? []).map((c) => c.file_name).filter((name) => !isDrmFile(name));
  const have = existing.attachments.map((a) => a.name ?? '');
  if (listed.length === 0 || listed.length !== have.length || listed.some((name, i) => name !== have[i])) return undefined;
  return existing.attachments.map((a) => ({ name: a.name, path: a.path }));
}

/**
 * A 4xx other than the ones judged where they come (404 = gone) is DLsite refusing a request this
 * importer made (a header, a cookie, a signature): a change on DLsite's side, said clearly and retried later.
 */
const refused =
  (what = 'a request') =>
  (error: unknown): never => {
    if (error instanceof PaysiteRequestError)
      throw new TransientError(`DLsite refused ${what} (${error.status}): the importer may need an update`);
    throw error;
  };

/** Fetches a work's page, cover and files; writes nothing but the file store (the caller's step writes the post). */
async function prepareWork(ctx: ImportContext, api: DlsiteApi, work: PlayWork) {
  const info = await api.product(work.workno);
  const page = await api.workPage(info?.site_id || 'maniax', work.workno);
  const content = await archiveInlineImages(ctx, api.client, bodyHtml(page ? descriptionHtml(page) : undefined, info));
  const coverRef = coverOf(work, info);
  const cover = coverRef
    ? await archiveFile(ctx, api.client, new URL(coverRef.url, api.client.url('/')).toString(), coverRef.name)
    : undefined;
  const edited = workPost(work, info, { content, cover: null, attachments: [] }).edited ?? null;
  const kept = await storedFiles(ctx, work, info, edited);
  const fetched = kept ? undefined : await archiveWorkFiles(ctx, api, work, info);
  const post = workPost(work, info, { content, cover: cover ?? null, attachments: kept ?? fetched?.files ?? [] });
  return { post, log: fetched?.log ?? [] };
}

async function importWorks(ctx: ImportContext, api: DlsiteApi, start: Cursor): Promise<Cursor | undefined> {
  let cursor = start;
  const { works, limit } = cursor.plan;
  let batch: { start: number; works: Map<string, PlayWork> } | undefined;
  while (cursor.at < works.length) {
    if (ctx.signal.aborted) return undefined;
    const first = Math.floor(cursor.at / limit) * limit;
    if (batch?.start !== first) {
      const ids = works.slice(first, first + limit).map((x) => x.w);
      batch = { start: first, works: new Map((await api.works(ids, limit)).map((w) => [w.workno, w])) };
    }
    const item = works[cursor.at];
    const work = batch.works.get(item.w);
    const listed = await skipListedPost(ctx, item.m, item.w, work ? localizedText(work.name) : null);
    const prepared = work && !listed ? await prepareWork(ctx, api, work).catch(refused(`a request for ${item.w}`)) : undefined;
    const at = cursor.at + 1;
    const log = listed ? [listed] : prepared ? prepared.log : [`Skipped ${item.w}: DLsite no longer has this work.`];
    if (at % limit === 0 || at === works.length) log.push(`Imported ${at} of ${countLabel(works.length, 'work')}.`);
    const counts = { ...cursor.counts };
    const next: Cursor = { ...cursor, at, counts };
    await ctx.step(
      async () => {
        if (!prepared || !work) return;
        const name = localizedText(work.maker.name) || cursor.plan.makers[work.maker.id] || work.maker.id;
        await upsertCreator(ctx.db, { service: 'dlsite', id: work.maker.id, name });
        const changed = (await storePost(ctx, prepared.post)).action !== 'unchanged';
        const [saved, changedCount] = counts[work.maker.id] ?? [0, 0];
        counts[work.maker.id] = [saved + 1, changedCount + (changed ? 1 : 0)];
      },
      { cursor: next, log },
    );
    cursor = next;
  }
  return cursor;
}

/** Stamps every circle imported (last_imported; updated when a work changed) and says what each got. */
async function finish(ctx: ImportContext, cursor: Cursor): Promise<void> {
  const log: string[] = [];
  await ctx.step(
    async () => {
      const now = nowEpoch();
      for (const [id, [saved, changed]] of Object.entries(cursor.counts)) {
        const creator = await getCreator(ctx.db, 'dlsite', id);
        if (!creator) continue;
        await upsertCreator(ctx.db, {
          service: 'dlsite',
          id,
          name: creator.name,
          last_imported: now,
          ...(changed > 0 ? { updated: now } : {}),
        });
        log.push(`Circle ${creator.name}: imported ${countLabel(saved, 'work')}.`);
      }
    },
    { cursor: { ...cursor, finished: true }, log },
  );
}

async function importAll(ctx: ImportContext): Promise<void> {
  const api = dlsiteApi(ctx);
  // Each run, a resume too: a Play session for this run, and a dead key fails before anything else.
  const session = await api.connect();
  let cursor = (await ctx.cursor<Cursor>()) ?? (await plan(ctx, api, session.pageLimit));
  await ctx.setSubCount(Object.keys(cursor.plan.makers).length);
  if (cursor.finished) return;
  const done = await importWorks(ctx, api, cursor);
  if (!done || ctx.signal.aborted) return;
  cursor = done;
  await finish(ctx, cursor);
}

export const dlsiteImporter: PaysiteImporter = { run: (ctx) => importAll(ctx).catch(refused()) };
