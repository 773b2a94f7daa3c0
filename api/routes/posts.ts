/** Posts: creator listings (and the legacy page shape), one post with revisions and comments, global listings. */
import { z } from 'zod';
import { hasLinkedCreators } from '../data/creators.ts';
import { creatorListRoute, creatorParams, creatorProfile, requireCreator, requireCreatorProfile } from './creator-common.ts';
import { getPostPage, getPostRevisionPage } from '../data/post-page.ts';
import { listAllTags } from '../data/tags.ts';
import { listComments } from '../data/comments.ts';
import { listPostRevisions } from '../data/post-revisions.ts';
import { postMedia, IMAGE_EXTENSIONS } from '../data/post-media.ts';
import { archiveCursorOf, randomPost, resolvePost } from '../data/posts.ts';
import { setNextLink } from '../http/paging.ts';
import { formatArchiveCursor, formatCreatorCursor } from '@shared/cursor.ts';
import { randomVisiblePost } from '../data/hidden.ts';
import { hiddenFilterFor, markPersonal, visiblePosts } from '../hiding/filter.ts';
import { searchPosts } from '../data/post-search.ts';
import { popularPosts } from '../data/popular.ts';
import { todayUtc } from '@shared/popular.ts';
import { NotFoundError } from '../http/errors.ts';
import { answeredNotModified, isoUtc } from '../http/conditional.ts';
import { fileServer } from '../http/file-server.ts';
import { ANSWERED, defineRoutes, route } from '../http/route.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { popularQuerySchema } from '@shared/validation/popular.ts';
import { postIdParam, revisionIdParam, serviceParam } from '@shared/validation/params.ts';
import { creatorPostsQuerySchema, postsQuerySchema, recentPostsQuerySchema } from '@shared/validation/listings.ts';
import {
  attachment,
  comment,
  postLookup,
  postPage,
  postRevision,
  postRevisionPage,
  postSummary,
  preview,
  tagCount,
} from '@shared/shapes/posts.ts';

const postParams = creatorParams.extend({ post: postIdParam });

const postNotFound = () => new NotFoundError('Post not found.');

function isImagePath(path: string | undefined): boolean {
  return !!path && IMAGE_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext));
}

export default defineRoutes(
  'posts',
  [
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/posts',
      summary: "A page of 50 of the creator's posts, newest first (q and repeated tag search within them).",
      description:
        'A bare array; fewer than 50 only on the last page, and [] past the end. Page by `o` or by the cursor `after`: ' +
        'when more posts follow, the Link header names the next page (rel="next") with its cursor.',
      params: creatorParams,
      query: creatorPostsQuerySchema,
      response: z.array(postSummary),
      errors: [304, 404],
      handler: async ({ params, query, deps, req, res }) => {
        const creator = await requireCreator(deps.db, params.service, params.id);
        if (answeredNotModified(req, res, new Date(creator.updated * 1000))) return ANSWERED;
        const found = await searchPosts(deps.db, {
          service: params.service,
          user: params.id,
          q: query.q,
          tag: query.tag,
          offset: query.o,
          creatorAfter: query.after,
          limit: PAGE_SIZE + 1,
        });
        const posts = found.posts.slice(0, PAGE_SIZE);
        setNextLink(req, res, found.posts.length > PAGE_SIZE ? formatCreatorCursor(posts[posts.length - 1]) : null);
        return posts;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/posts-legacy',
      summary: "A page of the creator's posts in the older page shape (props, base, results and per-result media).",
      params: creatorParams,
      query: postsQuerySchema,
      response: z.object({
        props: z.object({
          currentPage: z.literal('posts'),
          id: z.string(),
          service: z.string(),
          name: z.string(),
          count: z.number().int(),
          limit: z.number().int(),
          artist: creatorProfile,
          dm_count: z.number().int(),
          share_count: z.number().int(),
          has_links: z.boolean(),
        }),
        base: z.object({ service: z.string(), artist_id: z.string() }),
        results: z.array(postSummary),
        result_previews: z.array(z.array(preview)),
        result_attachments: z.array(z.array(attachment)),
        result_is_image: z.array(z.boolean()),
      }),
      errors: [404],
      handler: async ({ params, query, deps, req }) => {
        const profile = await requireCreatorProfile(deps.db, params.service, params.id);
        const found = await searchPosts(deps.db, {
          service: params.service,
          user: params.id,
          q: query.q,
          tag: query.tag,
          offset: query.o,
          limit: PAGE_SIZE,
        });
        const server = fileServer(deps.config, req);
        const media = found.posts.map((post) => postMedia(post, server));
        return {
          props: {
            currentPage: 'posts' as const,
            id: profile.id,
            service: profile.service,
            name: profile.name,
            count: found.count,
            limit: PAGE_SIZE,
            artist: profile,
            dm_count: profile.dm_count,
            share_count: profile.share_count,
            has_links: await hasLinkedCreators(deps.db, params.service, params.id),
          },
          base: { service: profile.service, artist_id: profile.id },
          results: found.posts,
          result_previews: media.map((m) => m.previews),
          result_attachments: media.map((m) => m.attachments),
          result_is_image: found.posts.map((post) => isImagePath('path' in post.file ? post.file.path : undefined)),
        };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/post/{post}',
      summary: 'One post with its attachments, previews, videos, flag state and revisions.',
      params: postParams,
      response: postPage,
      errors: [304, 404],
      handler: async ({ params, deps, req, res }) => {
        const page = await getPostPage(deps.db, params.service, params.id, params.post, fileServer(deps.config, req));
        if (!page) throw postNotFound();
        const changed = [page.post.added, page.post.edited].filter(Boolean).sort().pop();
        if (answeredNotModified(req, res, isoUtc(changed))) return ANSWERED;
        return page;
      },
    }),
    creatorListRoute(
      '/{service}/user/{id}/post/{post}/revisions',
      'Previous versions of a post, newest first.',
      postRevision,
      (db, p) => listPostRevisions(db, p.service, p.id, p.post),
      postParams,
    ),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/post/{post}/revision/{revision}',
      summary: 'One previous version of a post, in the envelope of the post call.',
      description: "{post, attachments, previews, videos, props} with the revision as `post` and its own media; props are the post's.",
      params: postParams.extend({
        revision: revisionIdParam.pipe(z.string().regex(/^\d{1,15}$/, 'Revision ID must be a number.')),
      }),
      response: postRevisionPage,
      errors: [404],
      handler: async ({ params, deps, req }) => {
        const server = fileServer(deps.config, req);
        const page = await getPostRevisionPage(deps.db, params.service, params.id, params.post, Number(params.revision), server);
        if (!page) throw new NotFoundError('Revision not found.');
        return page;
      },
    }),
    creatorListRoute(
      '/{service}/user/{id}/post/{post}/comments',
      "A post's comments, oldest first, with their previous versions.",
      comment,
      (db, p) => listComments(db, p.service, p.id, p.post),
      postParams,
    ),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/post/{post}',
      summary: "Finds a post's creator from the service and post id.",
      params: z.object({ service: serviceParam, post: postIdParam }),
      response: postLookup,
      errors: [404],
      handler: async ({ params, deps }) => {
        const found = await resolvePost(deps.db, params.service, params.post);
        if (!found) throw postNotFound();
        return found;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/posts',
      summary: 'Recent posts of every creator, 50 a page (q of at least 2 characters, repeated tag).',
      description:
        'Page by `o` or by the cursor `after`: when more posts follow, the Link header names the next page ' +
        '(rel="next") with its cursor. The body is the same either way.',
      query: recentPostsQuerySchema,
      response: z.object({ count: z.number().int(), true_count: z.number().int(), posts: z.array(postSummary) }),
      handler: async ({ query, deps, account, req, res }) => {
        const found = await searchPosts(deps.db, {
          q: query.q,
          tag: query.tag,
          offset: query.o,
          archiveAfter: query.after,
          limit: PAGE_SIZE + 1,
        });
        const posts = found.posts.slice(0, PAGE_SIZE);
        const last = found.posts.length > PAGE_SIZE ? await archiveCursorOf(deps.db, posts[posts.length - 1]) : null;
        setNextLink(req, res, last && formatArchiveCursor(last));
        const hidden = await hiddenFilterFor(deps.db, account);
        if (hidden) markPersonal(res);
        return { count: found.count, true_count: found.true_count, posts: visiblePosts(hidden, posts) };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/posts/popular',
      summary: 'The most favourited posts of a day, week or month (or the last 7 days: recent), 50 a page.',
      description: 'date (YYYY-MM-DD) defaults to today, or to the last day with data when that is earlier.',
      query: popularQuerySchema,
      response: z.object({
        info: z.object({
          date: z.string(),
          min_date: z.string().nullable(),
          max_date: z.string().nullable(),
          navigation_dates: z.object({
            day: z.tuple([z.string(), z.string(), z.string()]),
            week: z.tuple([z.string(), z.string(), z.string()]),
            month: z.tuple([z.string(), z.string(), z.string()]),
          }),
          range_desc: z.string(),
          scale: z.string(),
        }),
        props: z.object({ count: z.number().int(), earliest_date_for_popular: z.string().nullable(), today: z.string() }),
        posts: z.array(postSummary.extend({ fav_count: z.number().int() })),
      }),
      handler: async ({ query, deps, account, res }) => {
        const found = await popularPosts(
          deps.db,
          { date: query.date, period: query.period, offset: query.o, limit: PAGE_SIZE },
          todayUtc(),
        );
        const hidden = await hiddenFilterFor(deps.db, account);
        if (hidden) markPersonal(res);
        return { ...found, posts: visiblePosts(hidden, found.posts) };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/posts/random',
      summary: 'A random post (for a signed-in account, one it has not hidden).',
      response: postLookup,
      errors: [404],
      handler: async ({ deps, account }) => {
        const post =
          account && (await hiddenFilterFor(deps.db, account)) ? await randomVisiblePost(deps.db, account.id) : await randomPost(deps.db);
        if (!post) throw postNotFound();
        return { service: post.service, artist_id: post.user, post_id: post.id };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/posts/tags',
      summary: 'Every tag with its number of posts.',
      response: z.array(tagCount),
      handler: async ({ deps, account, res }) => {
        const hidden = await hiddenFilterFor(deps.db, account);
        if (hidden) markPersonal(res);
        return hidden ? (await listAllTags(deps.db)).filter((row) => !hidden.tag(row.tag)) : await listAllTags(deps.db);
      },
    }),
  ],
  'Posts: listings, single posts with revisions and comments, search, tags.',
);
