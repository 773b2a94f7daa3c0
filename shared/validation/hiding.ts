/** Hiding creators and tags: the tag parameter (shared/hiding.ts has the rule). */
import { rule } from './rules.ts';
import { hiddenTagProblem, HIDDEN_TAG_MAX } from '../hiding.ts';

/** A tag to hide or show again: as written, non-empty, no surrounding spaces or control characters. */
export const hiddenTagParam = rule(
  (raw, fail): string => {
    const value = typeof raw === 'string' ? raw : '';
    const problem = hiddenTagProblem(value);
    if (problem) fail(problem);
    return value;
  },
  { type: 'string', maxLength: HIDDEN_TAG_MAX },
);
