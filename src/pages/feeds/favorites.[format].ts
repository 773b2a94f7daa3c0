/**
 * The personal feed of "New from your favourites": /feeds/favorites.rss?token=... and .atom. No session
 * (feed readers have none): the secret token is the key, in the query so that request logs (which drop
 * the query) never hold it; anything but a live token answers 404. Rendered on demand and never stored
 * (api/pages/keys.ts knows no such route).
 */
import type { APIRoute } from 'astro';
import { siteDeps } from '@site/loaders/deps.ts';
import { loadFavoritesFeed } from '@site/loaders/favorites-news.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const answer = await loadFavoritesFeed(
    siteDeps(context),
    context.request,
    context.params.format ?? '',
    context.url.searchParams.get('token') ?? '',
  );
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
};
