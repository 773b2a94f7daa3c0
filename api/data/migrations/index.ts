/** Forward-only migrations, applied in order by migrate() in api/data/db.ts. Never edit a released one. */
import initial from './001_initial.ts';
import listingSpeed from './002_listing_speed.ts';
import archiveStatus from './003_archive_status.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [initial, listingSpeed, archiveStatus];
