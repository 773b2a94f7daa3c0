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

export function loadCreatorHeader(
  deps: SiteDeps,
  service: string,
  creatorId: string,
  known: Partial<CreatorHeaderCounts> = {},
): CreatorHeaderCounts {
  return {
    hasLinks: known.hasLinks ?? hasLinkedCreators(deps.db, service, creatorId),
    dmCount: known.dmCount ?? countCreatorDms(deps.db, service, creatorId),
    shareCount: known.shareCount ?? countCreatorShares(deps.db, service, creatorId),
  };
}
