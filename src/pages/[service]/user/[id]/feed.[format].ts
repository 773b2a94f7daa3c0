/** A creator's posts as RSS (feed.rss) or Atom (feed.atom) (docs/product.md#feeds); kept in the page store like the page it follows. */
import type { APIRoute } from 'astro';
import { siteDeps } from '@site/loaders/deps.ts';
import { feedResponse, loadCreatorFeed } from '@site/loaders/feeds.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => feedResponse(await loadCreatorFeed(siteDeps(context), context.params));
