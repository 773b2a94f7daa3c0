/**
 * The creator header's tab labels that need the archive: the DM and upload counts and whether the creator
 * has linked accounts, one indexed lookup each. A page passes what its own listing already counted, so
 * the header does not query it again. Server side only.
 */
import { hasLinkedCreators } from '@api/data/creators.ts';
import { countCreatorDms } from '@api/data/dms.ts';
import { countCreatorShares } from '@api/data/shares.ts';
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
  return {
    hasLinks: known.hasLinks ?? (await hasLinkedCreators(deps.db, service, creatorId)),
    dmCount: known.dmCount ?? (await countCreatorDms(deps.db, service, creatorId)),
    shareCount: known.shareCount ?? (await countCreatorShares(deps.db, service, creatorId)),
  };
}
