/**
 * The personal feed of "New from your favourites": /feeds/favorites/{token}.rss and .atom. No session
 * (feed readers have none): the secret token is the key; anything but a live token answers 404.
 * Rendered on demand and never stored (api/pages/keys.ts knows no such route).
 */
import type { APIRoute } from 'astro';
import { siteDeps } from '@site/loaders/deps.ts';
import { loadFavoritesFeed } from '@site/loaders/favorites-news.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const answer = loadFavoritesFeed(siteDeps(context), context.request, context.params.file ?? '');
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
};
