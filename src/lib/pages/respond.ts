/** Turns a loader's redirect or not-found outcome into the page's response (Astro frontmatter helper). */
import type { PageOutcome } from './outcome.ts';

export function earlyResponse(outcome: PageOutcome<unknown>, redirect: (to: string, status: 301 | 302 | 303 | 307) => Response): Response | undefined {
  if (outcome.kind === 'redirect') return redirect(outcome.location, outcome.status);
  // An empty 404 makes Astro render src/pages/404.astro with status 404.
  if (outcome.kind === 'not-found') return new Response(null, { status: 404, statusText: 'Not Found' });
  return undefined;
}
