/**
 * Loader of the hash search page (/search_hash?hash=): the server runs the search the `hash` parameter
 * asks for, so the page shows its results without JavaScript and the island starts from them instead
 * of asking the API again. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { searchHash } from '@api/data/files.ts';
import { trimHashAnswer } from '@shared/hash-search.ts';
import type { HashSearchFound } from '@shared/shapes/hash-search.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { sha256Hash } from '@shared/validation/files.ts';

export interface HashSearchPage {
  /** 200, or 400 when `hash` is not a SHA-256 ('Invalid hash!' under the form). */
  status: 200 | 400;
  /** The `hash` parameter as sent (null when absent), what the hash input shows. */
  query: string | null;
  /** The search that ran, when `hash` was valid. */
  found: HashSearchFound | null;
  /** The form's message for a bad `hash`. */
  error: string | null;
}

export async function loadHashSearchPage(deps: SiteDeps, search: URLSearchParams): Promise<HashSearchPage> {
  const query = search.get('hash');
  if (query === null) return { status: 200, query, found: null, error: null };
  const parsed = sha256Hash.safeParse(query);
  if (!parsed.success) return { status: 400, query, found: null, error: firstIssueMessage(parsed.error) };
  const answer = (await searchHash(deps.db, parsed.data)) ?? null;
  return { status: 200, query, found: { hash: parsed.data, answer: trimHashAnswer(answer) }, error: null };
}
