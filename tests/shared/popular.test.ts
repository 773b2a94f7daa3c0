import { describe, expect, it } from 'vitest';
import { popularRange, popularReferenceDate } from '@shared/popular.ts';

describe('popularRange', () => {
  it('covers one day with neighbours per scale', () => {
    const range = popularRange('day', '2024-03-01');
    expect(range).toMatchObject({ from: '2024-03-01', to: '2024-03-01', scale: 'day', range_desc: 'Popular posts of 2024-03-01' });
    expect(range.navigation_dates.day).toEqual(['2024-02-29', '2024-03-02', '2024-03-01']);
  });

  it('covers Monday to Sunday for a week, across a month end', () => {
    const range = popularRange('week', '2024-03-01'); // a Friday
    expect(range.from).toBe('2024-02-26');
    expect(range.to).toBe('2024-03-03');
    expect(range.navigation_dates.week).toEqual(['2024-02-19', '2024-03-04', '2024-02-26']);
  });

  it('covers a whole month, leap years included, and steps across years', () => {
    const range = popularRange('month', '2024-02-15');
    expect(range).toMatchObject({ from: '2024-02-01', to: '2024-02-29', range_desc: 'Popular posts of February 2024' });
    expect(popularRange('month', '2024-01-31').navigation_dates.month).toEqual(['2023-12-01', '2024-02-01', '2024-01-01']);
    expect(popularRange('month', '2024-12-31').to).toBe('2024-12-31');
  });

  it('covers the seven days ending at the date for recent', () => {
    expect(popularRange('recent', '2024-03-01')).toMatchObject({ from: '2024-02-24', to: '2024-03-01', scale: 'recent' });
  });
});

describe('popularReferenceDate', () => {
  it('uses the given date, else today, else the last day with data when that is earlier', () => {
    expect(popularReferenceDate('2020-01-01', '2024-05-05', '2024-01-01')).toBe('2020-01-01');
    expect(popularReferenceDate(undefined, '2024-05-05', '2024-01-01')).toBe('2024-01-01');
    expect(popularReferenceDate(undefined, '2024-05-05', null)).toBe('2024-05-05');
    expect(popularReferenceDate(undefined, '2024-05-05', '2024-06-01')).toBe('2024-05-05');
  });
});
