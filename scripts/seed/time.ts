/** Time in the demo archive: epoch milliseconds while generating, stored as the data modules' ISO dates. */
import { nowIso } from '@api/data/util.ts';

export const DAY = 86_400_000;

/** ISO 8601 without zone from epoch ms: '2024-06-04T23:53:36'. */
export function iso(ms: number): string {
  return nowIso(new Date(ms));
}
