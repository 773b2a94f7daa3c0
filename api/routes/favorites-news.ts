/**
 * "New from your favourites" (docs/product.md#new-from-your-favourites): posts of the signed-in
 * account's favourite creators added since a date or its last visit of /account/favorites/new, their
 * count for the sidebar, and the personal feed's link. Reading here never records a visit (only opening
 * the page does), and every answer is private: no shared cache keeps it.
 */
import type { Response } from 'express';
import { z } from 'zod';
import type { Account } from '../data/accounts.ts';
import { countNewPosts, feedCreatedAt, listNewPosts } from '../data/favorites-news.ts';
import { clearFeedToken, newsBaseline, resetFeedToken } from '../feeds/favorites.ts';
import { defineRoutes, route } from '../http/route.ts';
import { postSummary } from '@shared/shapes/posts.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { favoritesFeedPath, NEWS_COUNT_CAP } from '@shared/favorites-news.ts';
import { favoritesNewsQuerySchema } from '@shared/validation/favorites-news.ts';

/** Routes with `access: 'account'` always have one; this only narrows the type. */
function accountId(account: Account | null): number {
  if (!account) throw new Error('An account route ran without an account.');
  return account.id;
}

function personal(res: Response): void {
  res.set('Cache-Control', 'private, no-store');
}

const feedLink = z.object({
  token: z.string(),
  rss: z.string(),
  atom: z.string(),
  created_at: z.string(),
});

export default defineRoutes(
  'favorites-news',
  [
    route({
      method: 'get',
      version: 1,
      path: '/account/favorites/new',
      summary:
        "Posts of the signed-in account's favourite creators added to the archive since a date (default: its last visit of the page), newest added first, 50 per page.",
      description:
        'since is YYYY-MM-DD (UTC midnight); without it, the last visit of /account/favorites/new (a week back before the first). Reading does not record a visit.',
      access: 'account',
      query: favoritesNewsQuerySchema,
      response: z.object({ since: z.string(), total: z.number().int(), posts: z.array(postSummary) }),
      errors: [400, 401],
      handler: async ({ query, deps, account, res }) => {
        personal(res);
        const id = accountId(account);
        const since = query.since ?? (await newsBaseline(deps.db, id));
        return { since, total: await countNewPosts(deps.db, id, since), posts: await listNewPosts(deps.db, id, since, query.o, PAGE_SIZE) };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/favorites/new/count',
      summary: `How many posts of the signed-in account's favourite creators were added since its last visit of the page, counted up to ${NEWS_COUNT_CAP} (capped says when there are more).`,
      access: 'account',
      response: z.object({ count: z.number().int(), capped: z.boolean() }),
      errors: [401],
      handler: async ({ deps, account, res }) => {
        personal(res);
        const id = accountId(account);
        const count = await countNewPosts(deps.db, id, await newsBaseline(deps.db, id), NEWS_COUNT_CAP + 1);
        return { count: Math.min(count, NEWS_COUNT_CAP), capped: count > NEWS_COUNT_CAP };
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/account/favorites/feed',
      summary: 'Makes a new secret link of the personal feed (RSS and Atom) of the signed-in account; the previous link stops working.',
      description: 'The token is answered once: only its SHA-256 is stored.',
      access: 'account',
      response: feedLink,
      errors: [401, 403],
      handler: async ({ deps, account, res }) => {
        personal(res);
        const id = accountId(account);
        const token = await resetFeedToken(deps.db, id);
        return {
          token,
          rss: favoritesFeedPath(token, 'rss'),
          atom: favoritesFeedPath(token, 'atom'),
          created_at: (await feedCreatedAt(deps.db, id)) ?? '',
        };
      },
    }),
    route({
      method: 'delete',
      version: 1,
      path: '/account/favorites/feed',
      summary: 'Turns the personal feed of the signed-in account off: its link answers 404 (200 also when there was none).',
      access: 'account',
      response: z.literal(true),
      errors: [401, 403],
      handler: async ({ deps, account, res }) => {
        personal(res);
        await clearFeedToken(deps.db, accountId(account));
        return true as const;
      },
    }),
  ],
  "New posts from the signed-in account's favourite creators, and its personal feed.",
);
