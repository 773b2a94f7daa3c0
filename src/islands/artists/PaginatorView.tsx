/**
 * The paginator for islands: same markup as src/components/archive/Paginator.astro. Its links are real
 * URLs (open in a new tab, copy); a plain click is handed to `onNavigate` instead of loading the page.
 */
import type { MouseEvent } from 'react';
import type { Pagination } from '@shared/pagination.ts';
import { withOffset } from '@shared/urls.ts';

interface Props {
  pagination: Pagination;
  baseUrl: string;
  onNavigate: (offset: number) => void;
  label?: string;
  /** As Paginator.astro's: the one below the list is labelled '(bottom)'. */
  position?: 'top' | 'bottom';
}

export default function PaginatorView({ pagination, baseUrl, onNavigate, label = 'Pages', position = 'top' }: Props) {
  if (!pagination.visible) return null;
  const { current_page: current, total_pages: totalPages, limit } = pagination;
  const link = (offset: number, text: string, extra: { rel?: string; 'aria-label'?: string } = {}) => (
    <a
      href={withOffset(baseUrl, offset)}
      {...extra}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onNavigate(offset);
      }}
    >
      {text}
    </a>
  );
  return (
    <nav className="paginator" aria-label={position === 'bottom' ? `${label} (bottom)` : label}>
      <p className="paginator__summary">
        Showing {pagination.current_min} - {pagination.current_max} of {pagination.total_count}
      </p>
      <ul className="paginator__links">
        {current > 1 && <li>{link(0, '«', { 'aria-label': 'First page' })}</li>}
        {current > 1 && <li>{link((current - 2) * limit, '‹', { rel: 'prev', 'aria-label': 'Previous page' })}</li>}
        {pagination.links.map((entry) => (
          <li key={entry.page}>
            {entry.page === current ? <span aria-current="page">{entry.page}</span> : link(entry.offset, String(entry.page))}
          </li>
        ))}
        {current < totalPages && <li>{link(current * limit, '›', { rel: 'next', 'aria-label': 'Next page' })}</li>}
        {current < totalPages && <li>{link((totalPages - 1) * limit, '»', { 'aria-label': 'Last page' })}</li>}
      </ul>
    </nav>
  );
}
