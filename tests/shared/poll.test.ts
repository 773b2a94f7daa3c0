import { describe, expect, it } from 'vitest';
import { nextPollSort, pollPercent, pollTotal, sortPollChoices } from '@shared/poll.ts';

const choices = [
  { text: 'a', votes: 120 },
  { text: 'b', votes: 45 },
  { text: 'c', votes: 300 },
  { text: 'd', votes: 45 },
];

describe('poll rules', () => {
  it('shows percentages with 2 decimals, 0.00 when nobody voted', () => {
    expect(pollPercent(1, 3)).toBe('33.33');
    expect(pollPercent(2, 3)).toBe('66.67');
    expect(pollPercent(300, 510)).toBe('58.82');
    expect(pollPercent(5, 5)).toBe('100.00');
    expect(pollPercent(0, 0)).toBe('0.00');
  });

  it('cycles descending, ascending, unsorted', () => {
    expect(nextPollSort('none')).toBe('desc');
    expect(nextPollSort('desc')).toBe('asc');
    expect(nextPollSort('asc')).toBe('none');
  });

  it('sorts by votes keeping the stored order of ties, and leaves the input alone', () => {
    expect(sortPollChoices(choices, 'desc').map((c) => c.text)).toEqual(['c', 'a', 'b', 'd']);
    expect(sortPollChoices(choices, 'asc').map((c) => c.text)).toEqual(['b', 'd', 'a', 'c']);
    expect(sortPollChoices(choices, 'none').map((c) => c.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(choices.map((c) => c.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('takes the total from the poll, or the sum of the votes when it has none', () => {
    expect(pollTotal({ total_votes: 400, choices })).toBe(400);
    expect(pollTotal({ total_votes: 0, choices })).toBe(510);
    expect(pollTotal({ total_votes: null, choices })).toBe(510);
  });
});
