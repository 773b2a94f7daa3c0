/** The `<option>`s of a paysite select, in the spec's order with their labels (one list for every form). */
import { PAYSITES, PAYSITE_LABELS } from '@shared/paysites.ts';

export default function PaysiteOptions() {
  return (
    <>
      {PAYSITES.map((paysite) => (
        <option key={paysite} value={paysite}>
          {PAYSITE_LABELS[paysite]}
        </option>
      ))}
    </>
  );
}
