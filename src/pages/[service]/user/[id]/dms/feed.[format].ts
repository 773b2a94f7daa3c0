/** A creator's approved DMs as RSS or Atom (docs/product.md#feeds); kept in the page store like the page it follows. */
import type { APIRoute } from 'astro';
import { siteDeps } from '@site/loaders/deps.ts';
import { feedResponse, loadCreatorDmsFeed } from '@site/loaders/feeds.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => feedResponse(await loadCreatorDmsFeed(siteDeps(context), context.params));
