/** The `<option>`s of a paysite select, in the spec's order with their labels (one list for every form). */
import { PAYSITE_DESCRIPTORS } from '@shared/paysites/index.ts';

export default function PaysiteOptions() {
  return (
    <>
      {PAYSITE_DESCRIPTORS.map(({ id, label }) => (
        <option key={id} value={id}>
          {label}
        </option>
      ))}
    </>
  );
}
