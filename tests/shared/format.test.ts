import { describe, expect, it } from 'vitest';
import { favoritesLabel, formatDate, formatDateTime, formatYearMonth, relativeTime } from '@shared/format.ts';

const now = Date.parse('2025-06-15T12:00:00Z');

describe('absolute dates', () => {
  it('shows YYYY-MM-DD, with the time, or year-month', () => {
    expect(formatDate('2024-06-04T23:53:36')).toBe('2024-06-04');
    expect(formatDateTime('2024-06-04T23:53:36.123')).toBe('2024-06-04 23:53:36');
    expect(formatYearMonth('2024-06-04T23:53:36')).toBe('2024-06');
  });
});

describe('relativeTime', () => {
  it('reads stored dates without a zone as UTC', () => {
    expect(relativeTime('2025-06-15T11:00:00', now)).toBe('1 hour ago');
    expect(relativeTime('2025-06-15T11:00:00Z', now)).toBe('1 hour ago');
    expect(relativeTime('2025-06-15T13:00:00+02:00', now)).toBe('1 hour ago');
    expect(relativeTime('2025-06-14', now)).toBe('1 day ago');
  });

  it('counts whole units passed, in the largest unit below its limit', () => {
    expect(relativeTime('2025-06-15T12:00:00', now)).toBe('now');
    expect(relativeTime('2025-06-15T11:59:01', now)).toBe('59 seconds ago');
    expect(relativeTime('2025-06-15T11:59:00', now)).toBe('1 minute ago');
    expect(relativeTime('2025-06-14T12:00:01', now)).toBe('23 hours ago');
    expect(relativeTime('2025-06-14T12:00:00', now)).toBe('1 day ago');
    expect(relativeTime('2025-05-17T12:00:00', now)).toBe('29 days ago');
    expect(relativeTime('2025-05-16T12:00:00', now)).toBe('1 month ago');
    expect(relativeTime('2024-06-16T12:00:00', now)).toBe('11 months ago');
    expect(relativeTime('2024-06-15T12:00:00', now)).toBe('1 year ago');
    expect(relativeTime('2020-01-01T00:00:00', now)).toBe('5 years ago');
  });

  it('speaks of the future too', () => {
    expect(relativeTime('2025-06-18T12:00:00', now)).toBe('in 3 days');
  });

  it('is empty for a missing or unreadable date', () => {
    expect(relativeTime(null, now)).toBe('');
    expect(relativeTime('', now)).toBe('');
    expect(relativeTime('not a date', now)).toBe('');
  });
});

describe('favourite counts', () => {
  it('says favorite for one and favorites otherwise', () => {
    expect(favoritesLabel(0)).toBe('0 favorites');
    expect(favoritesLabel(1)).toBe('1 favorite');
    expect(favoritesLabel(12)).toBe('12 favorites');
  });
});
