/**
 * The creator header's tab labels that need the archive: the DM and upload counts and whether the creator
 * has linked accounts, read in one statement. A page passes what its own listing already counted, so the
 * header shows the same number as the listing beneath it. Server side only.
 */
import { creatorTabCounts } from '@api/data/creators.ts';
import type { SiteDeps } from './deps.ts';

export interface CreatorHeaderCounts {
  dmCount: number;
  shareCount: number;
  hasLinks: boolean;
}

export async function loadCreatorHeader(
  deps: SiteDeps,
  service: string,
  creatorId: string,
  known: Partial<CreatorHeaderCounts> = {},
): Promise<CreatorHeaderCounts> {
  return { ...(await creatorTabCounts(deps.db, service, creatorId)), ...known };
}
