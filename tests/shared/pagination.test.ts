import { describe, expect, it } from 'vitest';
import { paginate } from '@shared/pagination.ts';

describe('paginate', () => {
  it('is hidden when the count fits one page', () => {
    expect(paginate(50, 0).visible).toBe(false);
    expect(paginate(51, 0).visible).toBe(true);
  });

  it('shows at most 11 links around the current page', () => {
    const pages = paginate(5000, 2500);
    expect(pages.current_page).toBe(51);
    expect(pages.total_pages).toBe(100);
    expect(pages.links).toHaveLength(11);
    expect(pages.links[0].page).toBe(46);
    expect(pages.links.at(-1)?.page).toBe(56);
    expect(paginate(5000, 0).links.map((link) => link.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(paginate(5000, 4950).links.at(-1)).toEqual({ page: 100, offset: 4950 });
  });

  it('reports the shown range', () => {
    expect(paginate(120, 100)).toMatchObject({ current_min: 101, current_max: 120, limit: 50 });
    expect(paginate(0, 0)).toMatchObject({ current_min: 0, current_max: 0, total_pages: 1 });
  });
});
