/**
 * The signed-in account's hidden creators and tags (docs/product.md#hiding-creators-and-tags).
 * Hiding and showing again are idempotent (200 `true` either way); an unknown creator is 404, a bad
 * service or tag 400. The listings that leave hidden items out are in posts.ts and creators.ts
 * (api/hiding/filter.ts).
 */
import { z } from 'zod';
import { countHidden, hideCreator, hideTag, listHiddenCreators, listHiddenTags, unhideCreator, unhideTag } from '../data/hidden.ts';
import type { Account } from '../data/accounts.ts';
import { ConflictError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { HIDDEN_LIST_MAX } from '@shared/hiding.ts';
import { hiddenTagParam } from '@shared/validation/hiding.ts';
import { creatorParams, requireCreator } from './creator-common.ts';

const tagParams = z.object({ tag: hiddenTagParam });
const listFull = (kind: string) => new ConflictError(`You can hide at most ${HIDDEN_LIST_MAX} ${kind}.`);

function own(account: Account | null): Account {
  if (!account) throw new Error('An account route ran without an account.');
  return account;
}

const change = (summary: string, errors: number[]) => ({
  version: 1 as const,
  access: 'account' as const,
  response: z.literal(true),
  errors,
  summary,
});

export default defineRoutes(
  'hiding',
  [
    route({
      method: 'get',
      version: 1,
      path: '/account/hidden',
      summary: "The signed-in account's hidden creators (with their names) and tags, newest first.",
      access: 'account',
      response: z.object({
        creators: z.array(z.object({ service: z.string(), id: z.string(), name: z.string().nullable(), added: z.string() })),
        tags: z.array(z.object({ tag: z.string(), added: z.string() })),
      }),
      errors: [401],
      handler: async ({ deps, account }) => ({
        creators: await listHiddenCreators(deps.db, own(account).id),
        tags: await listHiddenTags(deps.db, own(account).id),
      }),
    }),
    route({
      ...change('Hides a creator from the listings of this account (200 also when it already was).', [400, 401, 404, 409]),
      method: 'post',
      path: '/account/hidden/creator/{service}/{id}',
      params: creatorParams,
      handler: async ({ params, deps, account }) => {
        await requireCreator(deps.db, params.service, params.id);
        if ((await countHidden(deps.db, own(account).id)).creators >= HIDDEN_LIST_MAX) throw listFull('creators');
        await hideCreator(deps.db, own(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...change('Shows a hidden creator again (200 also when it was not hidden).', [400, 401]),
      method: 'delete',
      path: '/account/hidden/creator/{service}/{id}',
      params: creatorParams,
      handler: async ({ params, deps, account }) => {
        await unhideCreator(deps.db, own(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...change(
        'Hides the posts with this tag, and the tag, from the listings of this account (200 also when it already was).',
        [400, 401, 409],
      ),
      method: 'post',
      path: '/account/hidden/tag/{tag}',
      params: tagParams,
      handler: async ({ params, deps, account }) => {
        if ((await countHidden(deps.db, own(account).id)).tags >= HIDDEN_LIST_MAX) throw listFull('tags');
        await hideTag(deps.db, own(account).id, params.tag);
        return true as const;
      },
    }),
    route({
      ...change('Shows a hidden tag again (200 also when it was not hidden).', [400, 401]),
      method: 'delete',
      path: '/account/hidden/tag/{tag}',
      params: tagParams,
      handler: async ({ params, deps, account }) => {
        await unhideTag(deps.db, own(account).id, params.tag);
        return true as const;
      },
    }),
  ],
  "The signed-in account's hidden creators and tags.",
);
