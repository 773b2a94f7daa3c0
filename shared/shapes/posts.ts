/**
 * Post shapes: the zod schemas of the post answers (the API validates its answers and documents them
 * with these) and their types (`z.infer`), which the data modules return and the site renders. One
 * definition of each shape. Shapes follow kemono: `file` is {} when absent, `attachments` is always a
 * list, dates are ISO strings without a zone.
 */
import { z } from 'zod';

export const fileRef = z.object({ name: z.string().nullable().optional(), path: z.string() });
const noFile = z.object({}).strict();

const pollChoice = z.object({ text: z.string(), votes: z.number() });

export const poll = z.object({
  title: z.string(),
  description: z.string().nullable().optional(),
  choices: z.array(pollChoice),
  total_votes: z.number(),
  created_at: z.string(),
  closes_at: z.string().nullable(),
  allow_multiple: z.boolean(),
});

export const embed = z
  .object({ url: z.string().optional(), subject: z.string().nullable().optional(), description: z.string().nullable().optional() })
  .catchall(z.unknown());

const postFields = {
  id: z.string(),
  user: z.string(),
  service: z.string(),
  title: z.string(),
  published: z.string().nullable(),
  added: z.string(),
  edited: z.string().nullable(),
  tags: z.array(z.string()),
  file: z.union([fileRef, noFile]),
  attachments: z.array(fileRef),
  poll: poll.nullable(),
  incomplete_rewards: z.string().nullable(),
  embed: z.union([embed, noFile]),
  shared_file: z.boolean(),
};

/**
 * What a post card shows of a post (shared/post-card.ts has the rules, src/components/archive/PostCard.tsx
 * the markup). A post summary is one; `postCardData` trims a post to this for an island's props.
 */
export interface PostCardData {
  id: string;
  user: string;
  service: string;
  title: string;
  substring?: string;
  published?: string | null;
  file?: { path?: string } | Record<string, never> | null;
  attachments?: Array<{ path?: string }>;
  /** Written into the card's data-tags (hiding tags, shared/hiding.ts). */
  tags?: readonly string[];
}

/** A post summary (listings, search, favourites, hash search). */
export const postSummary = z.object({ ...postFields, substring: z.string() });

/** The full post object (post page, revisions): content, and `next` (older) / `prev` (newer) neighbours. */
export const fullPost = z.object({
  ...postFields,
  content: z.string(),
  next: z.string().nullable(),
  prev: z.string().nullable(),
});

/** A previous version of a post: the post as it was, `added` = when it was replaced. */
export const postRevision = fullPost.extend({ revision_id: z.number().int() });

export const attachment = z.object({
  server: z.string(),
  name: z.string().nullable(),
  path: z.string(),
  extension: z.string(),
  name_extension: z.string(),
  stem: z.string(),
});

export const preview = z.union([
  z.object({
    type: z.literal('thumbnail'),
    server: z.string(),
    name: z.string().nullable(),
    path: z.string(),
    caption: z.string().nullable(),
  }),
  z.object({ type: z.literal('embed'), url: z.string(), subject: z.string().nullable(), description: z.string().nullable() }),
]);

export const video = z.object({
  index: z.number().int(),
  path: z.string(),
  name: z.string().nullable(),
  extension: z.string(),
  server: z.string(),
  caption: z.string().nullable(),
});

const postPageProps = z.object({
  flagged: z.boolean(),
  revisions: z.array(z.tuple([z.number().int().min(0), z.union([postRevision, fullPost])])).meta({
    description:
      '[index, post] pairs: [0, the post as it is now], then [1, the newest older version], [2, ...]. ' +
      'Older versions carry revision_id.',
  }),
});

const media = { attachments: z.array(attachment), previews: z.array(preview), videos: z.array(video) };

/** The post page answer: the post, its media with `server`, and props {flagged, revisions}. */
export const postPage = z.object({ post: fullPost, ...media, props: postPageProps });

/** A revision answers the post page's envelope with the revision as `post` (and its own media). */
export const postRevisionPage = z.object({ post: postRevision, ...media, props: postPageProps });

export const comment = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  commenter: z.string(),
  commenter_name: z.string().nullable(),
  content: z.string(),
  published: z.string().nullable(),
  added: z.string(),
  revisions: z.array(z.object({ id: z.number().int(), content: z.string(), added: z.string() })),
});

/** A post id resolved to its creator (GET /{service}/post/{post}). */
export const postLookup = z.object({ service: z.string(), artist_id: z.string(), post_id: z.string() });

export const tagCount = z.object({ tag: z.string(), post_count: z.number().int() });

export type PostFileRef = z.infer<typeof fileRef>;
export type Poll = z.infer<typeof poll>;
export type PostEmbed = z.infer<typeof embed>;
export type PostSummary = z.infer<typeof postSummary>;
export type FullPost = z.infer<typeof fullPost>;
export type PostRevision = z.infer<typeof postRevision>;
export type Attachment = z.infer<typeof attachment>;
export type Preview = z.infer<typeof preview>;
export type Video = z.infer<typeof video>;
export type PostPage = z.infer<typeof postPage>;
export type PostRevisionPage = z.infer<typeof postRevisionPage>;
export type Comment = z.infer<typeof comment>;
export type TagCount = z.infer<typeof tagCount>;
