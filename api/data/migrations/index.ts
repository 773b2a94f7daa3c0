/** Forward-only migrations, applied in order by migrate() in api/data/db.ts. Never edit a released one. */
import initial from './001_initial.ts';
import listingSpeed from './002_listing_speed.ts';
import archiveStatus from './003_archive_status.ts';
import shortWords from './004_short_words.ts';
import rateLimits from './005_rate_limits.ts';
import importFingerprints from './006_import_fingerprints.ts';
import keyFingerprints from './007_key_fingerprints.ts';
import importWorker from './008_import_worker.ts';
import autoImport from './009_auto_import.ts';
import operations from './010_operations.ts';
import favoritesNews from './011_favorites_news.ts';
import hiding from './012_hiding.ts';
import similar from './013_similar.ts';
import searchSpeed from './014_search_speed.ts';
import listingOrder from './015_listing_order.ts';
import searchPostings from './016_search_postings.ts';
import type { Db } from '../db.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Runs after `sql` in the same transaction: for data SQL alone cannot compute. */
  fill?: (db: Db) => void;
}

export const MIGRATIONS: Migration[] = [
  initial,
  listingSpeed,
  archiveStatus,
  shortWords,
  rateLimits,
  importFingerprints,
  keyFingerprints,
  importWorker,
  autoImport,
  operations,
  favoritesNews,
  hiding,
  similar,
  searchSpeed,
  listingOrder,
  searchPostings,
];
