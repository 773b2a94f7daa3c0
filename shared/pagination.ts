/** The paginator model (docs/product.md#page-sizes-and-paging): up to 11 page links, hidden when one page fits. */
import { PAGE_SIZE, PAGINATION_MAX_LINKS } from './constants.ts';

export interface Pagination {
  total_count: number;
  limit: number;
  total_pages: number;
  current_page: number;
  current_min: number;
  current_max: number;
  /** Offsets of the page links to show (at most PAGINATION_MAX_LINKS), in order. */
  links: Array<{ page: number; offset: number }>;
  visible: boolean;
}

export function paginate(totalCount: number, offset: number, limit = PAGE_SIZE): Pagination {
  const totalPages = Math.max(1, Math.ceil(totalCount / limit));
  const currentPage = Math.min(totalPages, Math.floor(offset / limit) + 1);
  const half = Math.floor(PAGINATION_MAX_LINKS / 2);
  let first = Math.max(1, currentPage - half);
  const last = Math.min(totalPages, first + PAGINATION_MAX_LINKS - 1);
  first = Math.max(1, last - PAGINATION_MAX_LINKS + 1);
  const links = [];
  for (let page = first; page <= last; page += 1) links.push({ page, offset: (page - 1) * limit });
  return {
    total_count: totalCount,
    limit,
    total_pages: totalPages,
    current_page: currentPage,
    current_min: totalCount === 0 ? 0 : offset + 1,
    current_max: Math.min(offset + limit, totalCount),
    links,
    visible: totalCount > limit,
  };
}
