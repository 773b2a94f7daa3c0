/** Poll display rules (docs/product.md#post-page), shared by the page and the poll island. Browser-safe. */

export interface PollChoiceLike {
  text: string;
  votes: number;
}

/** Clicking the choices header cycles through these, starting from the stored order. */
export type PollSort = 'none' | 'desc' | 'asc';

export function nextPollSort(sort: PollSort): PollSort {
  return sort === 'none' ? 'desc' : sort === 'desc' ? 'asc' : 'none';
}

/** A choice's share of the votes with 2 decimals ('33.33'); '0.00' when nobody voted. */
export function pollPercent(votes: number, total: number): string {
  return (total > 0 ? (votes / total) * 100 : 0).toFixed(2);
}

/** The choices in display order; ties keep their stored order. */
export function sortPollChoices<T extends PollChoiceLike>(choices: readonly T[], sort: PollSort): T[] {
  const indexed = choices.map((choice, index) => ({ choice, index }));
  if (sort !== 'none') {
    const sign = sort === 'desc' ? -1 : 1;
    indexed.sort((a, b) => sign * (a.choice.votes - b.choice.votes) || a.index - b.index);
  }
  return indexed.map((entry) => entry.choice);
}

/**
 * The total the percentages are taken of: the poll's total_votes, or the sum of the choices when the
 * archive has no total (a multiple-choice poll's total may be lower than the sum: it counts voters).
 */
export function pollTotal(poll: { total_votes?: number | null; choices: readonly PollChoiceLike[] }): number {
  const total = poll.total_votes ?? 0;
  return total > 0 ? total : poll.choices.reduce((sum, choice) => sum + choice.votes, 0);
}
