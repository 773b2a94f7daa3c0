/**
 * api.boosty.to as the web app and the open-source clients call it (gallery-dl, boosty-downloader,
 * boosty_api_rs, BoostBuddy): camelCase JSON (but a post's `int_id`), epoch-second times. Answers are
 * checked with zod: a shape this importer does not know is a TransientError (retried later) with a
 * line naming what was asked, never a crash or a silent skip.
 */
import { z } from 'zod';
import { TransientError } from '@api/importer/errors.ts';
import { PaysiteRequestError } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { boostySession, type BoostyAuth, type BoostySession } from './auth.ts';

/** A content block of a post or comment; its fields depend on `type` (map.ts reads them). */
const block = z.looseObject({ type: z.string() });
export type Block = z.infer<typeof block>;

const owner = z.object({
  id: z.number(),
  name: z.string(),
  hasAvatar: z.boolean().nullish(),
  avatarUrl: z.string().nullish(),
});

/** The blog object of a subscription (and of /v1/blog/{blogUrl}). */
const blog = z.object({
  blogUrl: z.string().min(1),
  title: z.string().nullish(),
  coverUrl: z.string().nullish(),
  owner,
});
export type Blog = z.infer<typeof blog>;

/** GET /v1/user/subscriptions: paid levels and (with_follow=true) free follows, numeric offset paging. */
const subscriptionPage = z.object({
  data: z.array(z.object({ name: z.string().nullish(), price: z.number().nullish(), blog })),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

const pollSchema = z.object({
  id: z.number(),
  title: z.array(z.string()).nullish(),
  isMultiple: z.boolean().nullish(),
  isFinished: z.boolean().nullish(),
  counter: z.number().nullish(),
  options: z.array(z.object({ id: z.number(), text: z.string(), counter: z.number().nullish() })),
});
export type BoostyPoll = z.infer<typeof pollSchema>;

/** A post as the list and GET /v1/blog/{blogUrl}/post/{id} give it. */
export const post = z.object({
  id: z.string().min(1),
  int_id: z.number().nullish(),
  title: z.string().nullish(),
  publishTime: z.number(),
  createdAt: z.number().nullish(),
  updatedAt: z.number().nullish(),
  hasAccess: z.boolean(),
  isDeleted: z.boolean().nullish(),
  isPinned: z.boolean().nullish(),
  signedQuery: z.string().nullish(),
  tags: z.array(z.object({ title: z.string() })).nullish(),
  data: z.array(block).nullish(),
  count: z.object({ comments: z.number().nullish() }).nullish(),
  poll: pollSchema.nullish(),
});
export type BoostyPost = z.infer<typeof post>;

/** GET /v1/blog/{blogUrl}/post/: newest first; `extra.offset` is opaque and passed back as it is. */
const postPage = z.object({
  data: z.array(post),
  extra: z.object({ offset: z.string().nullish(), isLast: z.boolean() }),
});
type PostPage = z.infer<typeof postPage>;

export interface BoostyComment {
  id: string;
  intId: number;
  createdAt: number;
  isDeleted?: boolean | null;
  author: { id: number; name: string };
  data?: Block[] | null;
  replies?: { data: BoostyComment[] } | null;
}
const comment: z.ZodType<BoostyComment> = z.lazy(() =>
  z.object({
    id: z.string(),
    intId: z.number(),
    createdAt: z.number(),
    isDeleted: z.boolean().nullish(),
    author: z.object({ id: z.number(), name: z.string() }),
    data: z.array(block).nullish(),
    replies: z.object({ data: z.array(comment) }).nullish(),
  }),
);
const commentPage = z.object({ data: z.array(comment), extra: z.object({ isLast: z.boolean() }) });

function parse<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const result = schema.safeParse(answer);
  if (!result.success) throw new TransientError(`Boosty answered ${what} in a shape this importer does not understand`);
  return result.data;
}

/** Posts a list page asks for: few enough that the signed file URLs of a page stay fresh (24 h) while its posts download. */
const POSTS_PER_PAGE = 20;
const COMMENTS_PER_PAGE = 100;
const q = encodeURIComponent;

export interface BoostyApi extends Pick<BoostySession, 'api' | 'media'> {
  /** Checks the token (GET /v1/user/current). */
  currentUser(): Promise<void>;
  /** Every blog the key subscribes to or follows. */
  subscriptions(): Promise<Blog[]>;
  /** One page of a blog's posts, from `offset` ('' for the first). */
  posts(blogUrl: string, offset: string): Promise<PostPage>;
  /** A post's comments with the replies Boosty includes; [] when the post has none or they are not readable. */
  comments(blogUrl: string, postId: string): Promise<BoostyComment[]>;
}

export function boostyApi(ctx: ImportContext, onRenewed: (auth: BoostyAuth) => Promise<void>): BoostyApi {
  const session = boostySession(ctx, onRenewed);
  return {
    api: session.api,
    media: session.media,
    async currentUser() {
      parse(z.object({ id: z.number() }), await session.get('/v1/user/current'), 'who the key is');
    },
    async subscriptions() {
      const blogs: Blog[] = [];
      for (let offset = 0, pages = 0; pages < 1000; pages++) {
        const page = parse(
          subscriptionPage,
          await session.get(`/v1/user/subscriptions?limit=30&with_follow=true&offset=${offset}`),
          'the subscriptions',
        );
        blogs.push(...page.data.map((sub) => sub.blog));
        const step = page.limit > 0 ? page.limit : page.data.length;
        offset = page.offset + step;
        if (page.data.length === 0 || step === 0 || offset >= page.total) break;
      }
      return blogs;
    },
    async posts(blogUrl, offset) {
      const path = `/v1/blog/${q(blogUrl)}/post/?limit=${POSTS_PER_PAGE}&offset=${q(offset)}&comments_limit=0&reply_limit=0`;
      return parse(postPage, await session.get(path), `the posts of ${blogUrl}`);
    },
    async comments(blogUrl, postId) {
      const all: BoostyComment[] = [];
      let after = 0;
      for (let pages = 0; pages < 1000; pages++) {
        const path = `/v1/blog/${q(blogUrl)}/post/${q(postId)}/comment/?limit=${COMMENTS_PER_PAGE}&reply_limit=${COMMENTS_PER_PAGE}${after ? `&offset=${after}` : ''}`;
        let answer: unknown;
        try {
          answer = await session.get(path);
        } catch (error) {
          if (error instanceof PaysiteRequestError) return all;
          throw error;
        }
        const page = parse(commentPage, answer, `the comments of post ${postId}`);
        all.push(...page.data);
        if (page.extra.isLast || page.data.length === 0) break;
        after = page.data[page.data.length - 1].intId;
      }
      return all;
    },
  };
}
