/**
 * The Gumroad importer: the key's library (its purchases), grouped by seller. Each purchased product is
 * a post of its seller (kemono's model: creator id = the seller's external id, post id = the product's
 * permalink): the download page gives the content files, the rich content pages and the permalink; the
 * product page gives the description and covers. Products the key did not buy are never asked for.
 *
 * Steps: the library overview (the sellers, `sub_count`); per seller its first library page (creator row,
 * icon); each purchase (its files are downloaded before the step, then the post commits with the
 * position seller/page/item); the seller's end. A restart asks again only for the library page it was on.
 */
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { skipListedCreator, skipListedPost, storePost } from '@api/importer/do-not-post.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveCreatorImage } from '@api/importer/content.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { TransientError } from '@api/importer/errors.ts';
import { countLabel } from '@shared/format.ts';
import { gumroadApi, type GumroadApi } from './api.ts';
import { archivePlan } from './files.ts';
import { buildPost, planPost } from './map.ts';
import type { LibraryProps, LibraryResult } from './pages.ts';
import { parseUrl } from '@shared/parse.ts';

interface Seller {
  id: string;
  name: string;
}

interface Cursor {
  sellers: Seller[];
  /** Index in sellers of the one being imported. */
  at: number;
  /** Set once the current seller's creator row is saved. */
  seller?: { profileUrl: string | null; page: number; pages: number; item: number; saved: number; changed: number; skipped: number };
}

const avatarOf = (url: string | null | undefined) => (url && !/gumroad-default-avatar/.test(url) ? url : null);

/** A seller's {username} from their profile URL, when it is a gumroad.com subdomain. */
function usernameOf(profileUrl: string | null | undefined): string | null {
  return /^([a-z0-9][a-z0-9-]*)\.gumroad\.com$/.exec(parseUrl(profileUrl ?? '')?.hostname.toLowerCase() ?? '')?.[1] ?? null;
}

/** The library's sellers: its creators list, or (older pages without it) the cards' creator ids. */
function sellersOf(library: LibraryProps): Seller[] {
  const sellers = new Map<string, Seller>();
  for (const c of library.creators ?? []) sellers.set(c.id, { id: c.id, name: c.name || c.id });
  for (const r of library.results)
    if (r.product.creator_id && !sellers.has(r.product.creator_id))
      sellers.set(r.product.creator_id, { id: r.product.creator_id, name: r.product.creator?.name || r.product.creator_id });
  if (sellers.size === 0 && library.results.length > 0)
    throw new TransientError('Gumroad answered the library in a shape this importer does not understand (no creators)');
  return [...sellers.values()];
}

/** This seller's cards of a library page (the older, unpaged library ignores the seller filter). */
const cardsOf = (library: LibraryProps, seller: Seller) =>
  library.results.filter((r) => !r.product.creator_id || r.product.creator_id === seller.id);

type Prepared = { kind: 'post'; post: ReturnType<typeof buildPost> } | { kind: 'skip' | 'listed'; line: string } | { kind: 'none' };

/** Fetches a purchase's pages and files; writes nothing (the caller's step does). */
async function preparePurchase(ctx: ImportContext, api: GumroadApi, seller: Seller, card: LibraryResult): Promise<Prepared> {
  const name = card.product.name;
  if (card.purchase.is_bundle_purchase || card.purchase.is_archived) return { kind: 'none' };
  if (!card.purchase.download_url) return { kind: 'skip', line: `Skipped ${name}: Gumroad gives it no content page.` };
  const outcome = await api.downloadPage(card.purchase.download_url);
  if (outcome.kind === 'skip') return { kind: 'skip', line: `Skipped ${name}: ${outcome.reason}.` };
  const download = outcome.props;
  // The permalink (the post id) comes with the download page; nothing of the product is stored before this.
  const listed = await skipListedPost(ctx, seller.id, download.purchase.product_permalink, name);
  if (listed) return { kind: 'listed', line: listed };
  const product = download.purchase.product_long_url ? await api.productPage(download.purchase.product_long_url) : undefined;
  if (!product) await ctx.log(`${name}: the product page is gone; imported from the download page only.`);
  const plan = planPost(download, outcome.url, product, card.product.thumbnail_url);
  const archived = await archivePlan(ctx, api, plan);
  return { kind: 'post', post: buildPost(seller.id, plan, download, product, archived) };
}

/** Saves the seller's creator row and icon and learns how many library pages they have. */
async function startSeller(ctx: ImportContext, cursor: Cursor): Promise<Cursor> {
  const seller = cursor.sellers[cursor.at];
  const api = gumroadApi(ctx);
  const first = await api.library(1, seller.id);
  const card = cardsOf(first, seller)[0]?.product.creator;
  const name = card?.name || seller.name;
  await archiveCreatorImage(ctx, api.client, 'icons', 'gumroad', seller.id, avatarOf(card?.avatar_url));
  const next: Cursor = {
    ...cursor,
    seller: {
      profileUrl: card?.profile_url ?? null,
      page: 1,
      pages: first.pagination?.pages ?? 1,
      item: 0,
      saved: 0,
      changed: 0,
      skipped: 0,
    },
  };
  await ctx.step(() => void upsertCreator(ctx.db, { service: 'gumroad', id: seller.id, name, public_id: usernameOf(card?.profile_url) }), {
    cursor: next,
    log: [`Creator ${name}: ${countLabel(first.pagination?.count ?? cardsOf(first, seller).length, 'purchase')} to import.`],
  });
  return next;
}

/** Imports the current seller's purchases from the cursor's page and item on; undefined when stopped. */
async function importPurchases(ctx: ImportContext, start: Cursor): Promise<Cursor | undefined> {
  let cursor = start;
  const seller = cursor.sellers[cursor.at];
  const api = gumroadApi(ctx, cursor.seller!.profileUrl);
  while (cursor.seller!.page <= cursor.seller!.pages) {
    const library = await api.library(cursor.seller!.page, seller.id);
    const cards = cardsOf(library, seller);
    for (let index = cursor.seller!.item; index < cards.length; index++) {
      if (ctx.signal.aborted) return undefined;
      const prepared = await preparePurchase(ctx, api, seller, cards[index]);
      const s = cursor.seller!;
      const last = index + 1 >= cards.length;
      const next: Cursor = {
        ...cursor,
        seller: {
          ...s,
          page: last ? s.page + 1 : s.page,
          item: last ? 0 : index + 1,
          skipped: s.skipped + (prepared.kind === 'skip' ? 1 : 0),
        },
      };
      await ctx.step(
        async () => {
          if (prepared.kind !== 'post') return;
          next.seller!.saved++;
          if ((await storePost(ctx, prepared.post)).action !== 'unchanged') next.seller!.changed++;
        },
        { cursor: next, log: prepared.kind === 'skip' || prepared.kind === 'listed' ? [prepared.line] : [] },
      );
      cursor = next;
    }
    if (cards.length === 0) {
      cursor = { ...cursor, seller: { ...cursor.seller!, page: cursor.seller!.page + 1, item: 0 } };
      await ctx.step(() => undefined, { cursor });
    }
  }
  return cursor;
}

async function finishSeller(ctx: ImportContext, cursor: Cursor): Promise<Cursor> {
  const s = cursor.seller!;
  const seller = cursor.sellers[cursor.at];
  const next: Cursor = { sellers: cursor.sellers, at: cursor.at + 1 };
  const creator = await getCreator(ctx.db, 'gumroad', seller.id);
  const name = creator?.name ?? seller.name;
  const skipped = s.skipped > 0 ? ` ${countLabel(s.skipped, 'purchase')} skipped.` : '';
  await ctx.step(
    async () => {
      if (!creator) return;
      const now = nowEpoch();
      await upsertCreator(ctx.db, {
        service: 'gumroad',
        id: seller.id,
        name,
        last_imported: now,
        ...(s.changed > 0 ? { updated: now } : {}),
      });
    },
    { cursor: next, log: [`Creator ${name}: imported ${countLabel(s.saved, 'product')}.${skipped}`] },
  );
  return next;
}

async function importAll(ctx: ImportContext): Promise<void> {
  let cursor = await ctx.cursor<Cursor>();
  if (!cursor) {
    const overview = await gumroadApi(ctx).library(1);
    const sellers = sellersOf(overview);
    cursor = { sellers, at: 0 };
    const lines = [`Found ${countLabel(sellers.length, 'creator')} in the library.`];
    if (overview.archived_count)
      lines.push(
        `Left out ${countLabel(overview.archived_count, 'archived purchase')} (unarchive them in the Gumroad library to import them).`,
      );
    await ctx.step(() => undefined, { cursor, log: lines });
  }
  await ctx.setSubCount(cursor.sellers.length);
  while (cursor.at < cursor.sellers.length) {
    if (ctx.signal.aborted) return;
    const seller = cursor.sellers[cursor.at];
    const listed = await skipListedCreator(ctx, seller.id, seller.name);
    if (listed) {
      cursor = { sellers: cursor.sellers, at: cursor.at + 1 };
      await ctx.step(() => undefined, { cursor, log: [listed] });
      continue;
    }
    if (!cursor.seller) cursor = await startSeller(ctx, cursor);
    const done = await importPurchases(ctx, cursor);
    if (!done) return;
    cursor = await finishSeller(ctx, done);
  }
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const gumroadImporter: PaysiteImporter = { run: (ctx) => importAll(ctx) };
