/** The latest popular posts of a period (?period=) as RSS or Atom (docs/product.md#feeds); kept in the page store like the page it follows. */
import type { APIRoute } from 'astro';
import { siteDeps } from '@site/loaders/deps.ts';
import { feedResponse, loadPopularFeed } from '@site/loaders/feeds.ts';

export const prerender = false;

export const GET: APIRoute = async (context) =>
  feedResponse(await loadPopularFeed(siteDeps(context), context.params, context.url.searchParams));
