/**
 * A poll's choices with votes and percentages (2 decimals). Clicking the Choice header cycles the
 * order: most votes first, fewest first, then the stored order again (docs/product.md#post-page).
 */
import { useState, type CSSProperties } from 'react';
import { nextPollSort, pollPercent, sortPollChoices, type PollChoiceLike, type PollSort } from '@shared/poll';

interface Props {
  choices: PollChoiceLike[];
  total: number;
}

const ARIA_SORT = { none: 'none', desc: 'descending', asc: 'ascending' } as const;
const ARROW = { none: '', desc: ' ▼', asc: ' ▲' } as const;

export default function PollChoices({ choices, total }: Props) {
  const [sort, setSort] = useState<PollSort>('none');
  return (
    <table className="post-poll__choices">
      <thead>
        <tr>
          <th scope="col" aria-sort={ARIA_SORT[sort]}>
            <button type="button" className="post-poll__sort" onClick={() => setSort(nextPollSort(sort))}>
              Choice{ARROW[sort]}
            </button>
          </th>
          <th scope="col">Votes</th>
          <th scope="col">%</th>
        </tr>
      </thead>
      <tbody>
        {sortPollChoices(choices, sort).map((choice, index) => {
          const percent = pollPercent(choice.votes, total);
          return (
            <tr key={`${choice.text}-${index}`} style={{ '--share': `${percent}%` } as CSSProperties}>
              <td>{choice.text}</td>
              <td className="post-poll__votes">{choice.votes}</td>
              <td className="post-poll__percent">{percent}%</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
