/** Answer shapes of the post endpoints (API-NOTES.md "Posts"), shared by the post and DM routes. */
import { z } from 'zod';

export const fileRef = z.object({ name: z.string().nullable().optional(), path: z.string() });
const noFile = z.object({}).strict();

const poll = z.object({
  title: z.string(),
  description: z.string().nullable().optional(),
  choices: z.array(z.object({ text: z.string(), votes: z.number() })),
  total_votes: z.number(),
  created_at: z.string(),
  closes_at: z.string().nullable(),
  allow_multiple: z.boolean(),
});

const embed = z
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

export const postSummary = z.object({ ...postFields, substring: z.string() });

export const fullPost = z.object({
  ...postFields,
  content: z.string(),
  next: z.string().nullable(),
  prev: z.string().nullable(),
});

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

export const postPage = z.object({ post: fullPost, ...media, props: postPageProps });

/** A revision answers the post page's envelope with the revision as `post`. */
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

export const postLookup = z.object({ service: z.string(), artist_id: z.string(), post_id: z.string() });

export const tagCount = z.object({ tag: z.string(), post_count: z.number().int() });
