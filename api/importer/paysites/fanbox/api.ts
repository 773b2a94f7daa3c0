/**
 * Fanbox's website API (api.fanbox.cc) as www.fanbox.cc itself calls it: the FANBOXSESSID cookie and
 * an Origin of https://www.fanbox.cc (without it Fanbox answers 400). Every answer is `{ body: ... }`;
 * a bad or expired session is 401 `{"error":"general_error"}`. 403 comes from Fanbox's bot wall, not
 * from the key, so it is not taken as a refused key. Answers are checked with zod: a shape this
 * importer does not know is a TransientError (retried later) rather than a crash or a silent skip.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';

const user = z.object({ userId: z.string(), name: z.string(), iconUrl: z.string().nullish() });

/** plan.listSupporting: the plans the user pays for, one per creator. */
export const supportingPlan = z.object({
  id: z.string(),
  title: z.string().nullish(),
  fee: z.number(),
  creatorId: z.string(),
  user,
});
export type SupportingPlan = z.infer<typeof supportingPlan>;

/** creator.get */
export const creatorInfo = z.object({
  creatorId: z.string(),
  user,
  coverImageUrl: z.string().nullish(),
  description: z.string().nullish(),
});
export type CreatorInfo = z.infer<typeof creatorInfo>;

/** An item of post.listCreator (a page of a creator's posts, newest first). */
export const postItem = z.object({
  id: z.string(),
  title: z.string(),
  isRestricted: z.boolean().optional(),
  commentCount: z.number().optional(),
});
export type PostItem = z.infer<typeof postItem>;

const image = z.object({ id: z.string(), extension: z.string().nullish(), originalUrl: z.string(), thumbnailUrl: z.string().nullish() });
const file = z.object({ id: z.string(), name: z.string(), extension: z.string().nullish(), url: z.string(), size: z.number().nullish() });
const embed = z.object({
  id: z.string().optional(),
  serviceProvider: z.string(),
  contentId: z.string().nullish(),
  videoId: z.string().nullish(),
});
const urlEmbed = z.object({
  id: z.string().optional(),
  type: z.string(),
  url: z.string().nullish(),
  html: z.string().nullish(),
  host: z.string().nullish(),
});
const block = z.object({
  type: z.string(),
  text: z.string().nullish(),
  imageId: z.string().nullish(),
  fileId: z.string().nullish(),
  embedId: z.string().nullish(),
  urlEmbedId: z.string().nullish(),
  styles: z.array(z.object({ type: z.string(), offset: z.number(), length: z.number() })).nullish(),
  links: z.array(z.object({ offset: z.number(), length: z.number(), url: z.string() })).nullish(),
});

/** post.info's body.body: which keys are present depends on the post's type (image, file, article, text, video, entry). */
export const postBody = z.object({
  text: z.string().nullish(),
  html: z.string().nullish(),
  images: z.array(image).nullish(),
  files: z.array(file).nullish(),
  blocks: z.array(block).nullish(),
  imageMap: z.record(z.string(), image).nullish(),
  fileMap: z.record(z.string(), file).nullish(),
  embedMap: z.record(z.string(), embed).nullish(),
  urlEmbedMap: z.record(z.string(), urlEmbed).nullish(),
  video: embed.nullish(),
});
export type PostBody = z.infer<typeof postBody>;
export type FanboxImage = z.infer<typeof image>;
export type FanboxFile = z.infer<typeof file>;
export type FanboxEmbed = z.infer<typeof embed>;
export type FanboxBlock = z.infer<typeof block>;

/** post.info */
export const postInfo = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  user,
  creatorId: z.string(),
  feeRequired: z.number().optional(),
  publishedDatetime: z.string(),
  updatedDatetime: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  isRestricted: z.boolean(),
  commentCount: z.number().optional(),
  coverImageUrl: z.string().nullish(),
  body: postBody.nullish(),
});
export type PostInfo = z.infer<typeof postInfo>;

export interface FanboxComment {
  id: string;
  parentCommentId: string;
  body: string;
  createdDatetime: string;
  user: z.infer<typeof user>;
  replies?: FanboxComment[] | null;
}
const comment: z.ZodType<FanboxComment> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentCommentId: z.string(),
    body: z.string(),
    createdDatetime: z.string(),
    user,
    replies: z.array(comment).nullish(),
  }),
);

/** post.getComments: body.commentList, ten top-level comments (with their replies) a page. */
const commentPage = z.object({ commentList: z.object({ items: z.array(comment), nextUrl: z.string().nullish() }) });

/** newsletter.list: the creators' newsletters the user received (Trove's announcements). */
export const newsletter = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  creator: z.object({ creatorId: z.string().optional(), user }).nullish(),
});
export type Newsletter = z.infer<typeof newsletter>;

/** legacy/support/creator: the supporter's card ("fancard") of a supported creator. */
const supporterCard = z.object({ supporterCardImageUrl: z.string().nullish() });

function parse<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const result = z.object({ body: schema }).safeParse(answer);
  if (!result.success) throw new TransientError(`Fanbox answered ${what} in a shape this importer does not understand`);
  return result.data.body;
}

export interface FanboxApi {
  client: PaysiteClient;
  listSupporting(): Promise<SupportingPlan[]>;
  creator(creatorId: string): Promise<CreatorInfo>;
  /** The URLs of every page of the creator's posts (post.listCreator, newest first). */
  postPages(creatorId: string): Promise<string[]>;
  postPage(url: string): Promise<PostItem[]>;
  /** The post, or undefined when Fanbox no longer has it (404). */
  post(postId: string): Promise<PostInfo | undefined>;
  comments(postId: string): Promise<FanboxComment[]>;
  newsletters(): Promise<Newsletter[]>;
  /** The card's image URL, or undefined when the creator gives none (404). */
  supporterCard(userId: string): Promise<string | undefined>;
}

const q = encodeURIComponent;

async function unlessGone<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof PaysiteRequestError && error.status === 404) return undefined;
    throw error;
  }
}

export function fanboxApi(ctx: ImportContext): FanboxApi {
  const client = createPaysiteClient({
    label: 'Fanbox',
    endpoint: paysiteEndpoint(ctx.config.importer, 'fanbox'),
    importer: ctx.config.importer,
    // Sent to the endpoint's credential hosts only (./endpoints.ts).
    headers: { cookie: `FANBOXSESSID=${ctx.key}` },
    publicHeaders: {
      origin: 'https://www.fanbox.cc',
      referer: 'https://www.fanbox.cc/',
      accept: 'application/json, text/plain, */*',
      'user-agent': 'Mozilla/5.0 (compatible; Trove importer)',
    },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });
  const get = (url: string) => client.getJson(url);
  return {
    client,
    async listSupporting() {
      return parse(z.array(supportingPlan), await get('/plan.listSupporting'), 'the supported plans');
    },
    async creator(creatorId) {
      return parse(creatorInfo, await get(`/creator.get?creatorId=${q(creatorId)}`), 'a creator');
    },
    async postPages(creatorId) {
      return parse(z.array(z.string()), await get(`/post.paginateCreator?creatorId=${q(creatorId)}`), 'the post pages');
    },
    async postPage(url) {
      return parse(z.array(postItem), await get(url), 'a page of posts');
    },
    async post(postId) {
      const answer = await unlessGone(get(`/post.info?postId=${q(postId)}`));
      return answer === undefined ? undefined : parse(postInfo, answer, `post ${postId}`);
    },
    async comments(postId) {
      const all: FanboxComment[] = [];
      let url: string | null | undefined = `/post.getComments?postId=${q(postId)}&limit=10`;
      for (let pages = 0; url && pages < 1000; pages++) {
        const page: z.infer<typeof commentPage> = parse(commentPage, await get(url), `the comments of post ${postId}`);
        all.push(...page.commentList.items);
        url = page.commentList.nextUrl;
      }
      return all;
    },
    async newsletters() {
      return parse(z.array(newsletter), await get('/newsletter.list'), 'the newsletters');
    },
    async supporterCard(userId) {
      const answer = await unlessGone(get(`/legacy/support/creator?userId=${q(userId)}`));
      return answer === undefined ? undefined : (parse(supporterCard, answer, 'a supporter card').supporterCardImageUrl ?? undefined);
    },
  };
}
