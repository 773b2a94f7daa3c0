/**
 * The "Similar creators" section of a creator's posts page: the lists the similarity job stored
 * (api/similar/job.ts), shown on the first page of the unfiltered listing only, which is the page the
 * job's 'similar' change rows render again. Server side only.
 */
import { listSimilarCreators, type SimilarCreator } from '@api/data/similar.ts';
import { SIMILAR_PAGE_CARDS } from '@shared/constants.ts';
import type { SiteDeps } from './deps.ts';

export async function loadSimilarCreators(
  deps: SiteDeps,
  page: { service: string; creator: { id: string }; pagination: { current_page: number }; filter: { q: string; tags: string[] } },
): Promise<SimilarCreator[]> {
  if (page.pagination.current_page !== 1 || page.filter.q || page.filter.tags.length > 0) return [];
  return await listSimilarCreators(deps.db, page.service, page.creator.id, SIMILAR_PAGE_CARDS);
}
