/** Creators: the whole list, profiles, random creator, linked profiles, and the non-post tabs. */
import { z } from 'zod';
import { linkedCreators, listAllCreators, randomCreator } from '../data/creators.ts';
import { listAnnouncements } from '../data/announcements.ts';
import { listFancards } from '../data/fancards.ts';
import { lastChangeId } from '../data/changes.ts';
import { listCreatorTags } from '../data/tags.ts';
import type { Store } from '../data/store.ts';
import { NotFoundError } from '../http/errors.ts';
import { randomVisibleCreator } from '../data/hidden.ts';
import { hiddenFilterFor, markPersonal } from '../hiding/filter.ts';
import { answeredNotModified, cacheJson, isoUtc, sendCachedJson, type CachedJson } from '../http/conditional.ts';
import { fileServer } from '../http/file-server.ts';
import { ANSWERED, defineRoutes, route } from '../http/route.ts';
import { tagCount } from '@shared/shapes/posts.ts';
import { creatorListRoute, creatorParams, creatorProfile, linkedCreator, requireCreator, requireCreatorProfile } from './creator-common.ts';
import { artistIdParam, fanboxServiceParam } from '@shared/validation/params.ts';

/** Favourite counts change without a change-log row, so the list is also rebuilt after this long. */
const LIST_MAX_AGE_MS = 10 * 60 * 1000;

const listItem = z.object({
  id: z.string(),
  name: z.string(),
  service: z.string(),
  indexed: z.number().int(),
  updated: z.number().int(),
  favorited: z.number().int(),
  public_id: z.string().nullable(),
  relation_id: z.number().int().nullable(),
  has_chats: z.boolean(),
});

const announcement = z.object({
  service: z.string(),
  user_id: z.string(),
  hash: z.string(),
  content: z.string(),
  published: z.string().nullable(),
  added: z.string(),
});

const fancard = z.object({
  id: z.number().int(),
  user_id: z.string(),
  file_id: z.number().int(),
  hash: z.string(),
  path: z.string(),
  server: z.string(),
  price: z.string().nullable(),
  mime: z.string().nullable(),
  ext: z.string(),
  size: z.number().int(),
  added: z.string(),
});

/** The creators list is large and asked for often: one JSON body (and its gzip) per archive state. */
const listCache = new WeakMap<Store, { changeId: number; at: number; cached: CachedJson }>();

async function creatorsList(db: Store): Promise<CachedJson> {
  const changeId = await lastChangeId(db);
  const hit = listCache.get(db);
  if (hit && hit.changeId === changeId && Date.now() - hit.at < LIST_MAX_AGE_MS) return hit.cached;
  const cached = cacheJson(await listAllCreators(db));
  listCache.set(db, { changeId, at: Date.now(), cached });
  return cached;
}

export default defineRoutes(
  'creators',
  [
    ...['/creators.txt', '/creators'].map((path) =>
      route({
        method: 'get',
        version: 1,
        path,
        summary:
          "Every creator, as one JSON array (ETag, gzip; refreshed when the archive changes); a signed-in account's hidden creators are left out.",
        response: z.array(listItem),
        errors: [304],
        handler: async ({ deps, req, res, account }) => {
          const hidden = await hiddenFilterFor(deps.db, account);
          if (!hidden) {
            sendCachedJson(req, res, await creatorsList(deps.db), 60);
            return ANSWERED;
          }
          markPersonal(res);
          return (await listAllCreators(deps.db)).filter((creator) => !hidden.creator(creator.service, creator.id));
        },
      }),
    ),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/profile',
      summary: "A creator's profile with its counts (exactly these keys).",
      params: creatorParams,
      response: creatorProfile,
      errors: [304, 404],
      handler: async ({ params, deps, req, res }) => {
        const found = await requireCreatorProfile(deps.db, params.service, params.id);
        if (answeredNotModified(req, res, isoUtc(found.updated))) return ANSWERED;
        return found;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/artists/random',
      summary: 'A random creator (for a signed-in account, one it has not hidden).',
      response: z.object({ service: z.string(), artist_id: z.string() }),
      errors: [404],
      handler: async ({ deps, account }) => {
        const creator =
          account && (await hiddenFilterFor(deps.db, account))
            ? await randomVisibleCreator(deps.db, account.id)
            : await randomCreator(deps.db);
        if (!creator) throw new NotFoundError('No creators found.');
        return { service: creator.service, artist_id: creator.id };
      },
    }),
    creatorListRoute('/{service}/user/{id}/links', "The creator's linked profiles.", linkedCreator, (db, p) =>
      linkedCreators(db, p.service, p.id),
    ),
    creatorListRoute('/{service}/user/{id}/announcements', "The creator's announcements, newest first.", announcement, (db, p) =>
      listAnnouncements(db, p.service, p.id),
    ),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/fancards',
      summary: "A fanbox creator's fancards, newest first.",
      params: z.object({ service: fanboxServiceParam, id: artistIdParam }),
      response: z.array(fancard),
      errors: [404],
      handler: async ({ params, deps, req }) => {
        await requireCreator(deps.db, params.service, params.id);
        return await listFancards(deps.db, params.service, params.id, fileServer(deps.config, req));
      },
    }),
    creatorListRoute('/{service}/user/{id}/tags', "The creator's tags with their post counts.", tagCount, (db, p) =>
      listCreatorTags(db, p.service, p.id),
    ),
  ],
  'Creators (artists): the list, profiles and their tabs.',
);
