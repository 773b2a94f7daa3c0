/** Settles a loader's outcome in a page's frontmatter: a response to return, or what to render. */
import type { PageOutcome } from './outcome.ts';

interface AstroLike {
  redirect(to: string, status: 301 | 302 | 303 | 307): Response;
  response: { status?: number; headers?: Headers };
}

/** `status` tells a denied page (401: offer to sign in) from a bad request. */
export type Settled<T> =
  | { page: T; error?: undefined; status?: undefined }
  | { page?: undefined; error: string; status: 400 | 401 | 403 | 410 };

/**
 * Redirects and not-found become the page's response (an empty 404 makes Astro render
 * src/pages/404.astro); a bad request (400), a denied page (401, 403) or a removed one (410 Gone, rendered
 * with src/components/Gone.astro) sets the status and hands back its message to render.
 */
export function settle<T>(outcome: PageOutcome<T>, astro: AstroLike): Response | Settled<T> {
  if (outcome.kind === 'redirect') return astro.redirect(outcome.location, outcome.status);
  if (outcome.kind === 'not-found') return new Response(null, { status: 404, statusText: 'Not Found' });
  if (outcome.kind === 'bad-request') {
    astro.response.status = 400;
    return { error: outcome.message, status: 400 };
  }
  if (outcome.kind === 'gone') {
    astro.response.status = 410;
    // Browsers keep a 410 without this (it is cacheable by default), and lifting the entry undoes it.
    astro.response.headers?.set('Cache-Control', 'no-store');
    return { error: outcome.message, status: 410 };
  }
  if (outcome.kind === 'denied') {
    astro.response.status = outcome.status;
    return { error: outcome.message, status: outcome.status };
  }
  return { page: outcome.data };
}
