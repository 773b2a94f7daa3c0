/**
 * Favourites files for accounts (docs/product.md#export-and-import-of-favourites): reading an uploaded
 * file's text (JSON or CSV, the rules of shared/favorites-transfer.ts) and writing the export in either
 * format. A file the rules refuse is a 400 (413 past the size limit) with the rules' message.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Store } from '../data/store.ts';
import { exportFavorites, importFavoriteRefs, type FavoritesExport } from '../data/favorites-transfer.ts';
import { BadRequestError, PayloadTooLargeError } from '../http/errors.ts';
import {
  FAVORITES_TRANSFER_MESSAGES,
  favoritesCsvRecords,
  parseFavoritesText,
  type FavoritesImportReport,
} from '@shared/favorites-transfer.ts';

/** CSV text to records; throws on malformed CSV (an unclosed quote, a ragged row). */
export function parseCsvText(text: string): string[][] {
  return parse(text, { relax_column_count: false, skip_empty_lines: true, bom: true }) as string[][];
}

/** Merges a favourites file into the account's favourites. */
export async function importFavoritesFile(db: Store, accountId: number, text: string): Promise<FavoritesImportReport> {
  const parsed = parseFavoritesText(text, parseCsvText);
  if (!parsed.ok) {
    if (parsed.message === FAVORITES_TRANSFER_MESSAGES.tooLarge) throw new PayloadTooLargeError(parsed.message);
    throw new BadRequestError(parsed.message);
  }
  return await importFavoriteRefs(db, accountId, parsed.refs);
}

/** The account's favourites as one JSON envelope ({artists, posts}) or CSV text. */
export async function favoritesFile(db: Store, accountId: number, format: 'json' | 'csv'): Promise<FavoritesExport | string> {
  const all = await exportFavorites(db, accountId);
  return format === 'json' ? all : stringify(favoritesCsvRecords(all.artists, all.posts));
}
