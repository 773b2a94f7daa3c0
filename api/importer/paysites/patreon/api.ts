/**
 * Patreon's website API (www.patreon.com/api/..., JSON:API 1.0) as the website itself calls it with the
 * `session_id` cookie: the current user's memberships with their campaigns, a campaign's posts
 * (`/api/posts?filter[campaign_id]=...`, newest first, paged by `links.next`), a post's comments with
 * their replies, and the inbox conversations and their messages. Answers are checked with zod: a shape
 * the importer does not understand ends the try as a TransientError (retried later), never a crash.
 */
import { z } from 'zod';
import { TransientError } from '@api/importer/errors.ts';
import type { PaysiteClient } from '@api/importer/fetch.ts';

const id = z.union([z.string(), z.number()]).transform(String);
const linkage = z.object({ type: z.string(), id });
const toOne = z.object({ data: linkage.nullable().optional() }).passthrough();
const toMany = z.object({ data: z.array(linkage).nullable().optional() }).passthrough();

export const resourceSchema = z
  .object({
    type: z.string(),
    id,
    attributes: z.record(z.string(), z.unknown()).optional().default({}),
    relationships: z
      .record(z.string(), z.union([toOne, toMany, z.unknown()]))
      .optional()
      .default({}),
  })
  .passthrough();
export type Resource = z.infer<typeof resourceSchema>;

/** `links.next` is a URL string on Patreon (older answers leave out the scheme), or JSON:API's {href}. */
const nextLink = z
  .union([z.string(), z.object({ href: z.string() }).transform((l) => l.href)])
  .nullable()
  .optional();

export const documentSchema = z
  .object({
    data: z.union([resourceSchema, z.array(resourceSchema)]),
    included: z.array(resourceSchema).optional().default([]),
    links: z.object({ next: nextLink }).passthrough().optional(),
  })
  .passthrough();
export type JsonApiDocument = z.infer<typeof documentSchema>;

// ---------------------------------------------------------------------------------------------------
// Attribute shapes (only what the importer reads; Patreon sends much more)

const str = z.string().nullable().optional();
const num = z.number().nullable().optional();

export const campaignAttributes = z
  .object({ name: z.string(), avatar_photo_url: str, cover_photo_url: str, url: str, vanity: str })
  .passthrough();

export const postAttributes = z
  .object({
    title: str,
    content: str,
    /** The newer editor's text: a ProseMirror document as a JSON string (rich-text.ts). */
    content_json_string: str,
    published_at: str,
    edited_at: str,
    post_type: str,
    current_user_can_view: z.boolean().nullable().optional(),
    comment_count: num,
    post_file: z.object({ name: str, url: z.string() }).passthrough().nullable().optional(),
    image: z.object({ large_url: str, url: str }).passthrough().nullable().optional(),
    embed: z.object({ url: str, subject: str, description: str, provider: str }).passthrough().nullable().optional(),
  })
  .passthrough();

export const mediaAttributes = z.object({ download_url: str, file_name: str }).passthrough();
export const attachmentAttributes = z.object({ name: str, url: z.string() }).passthrough();
export const pollAttributes = z
  .object({ question_text: str, choice_type: str, created_at: str, closes_at: str, num_responses: num })
  .passthrough();
export const pollChoiceAttributes = z.object({ text_content: str, num_responses: num, position: num }).passthrough();
export const tagAttributes = z.object({ value: z.string() }).passthrough();
export const userAttributes = z.object({ full_name: str }).passthrough();
export const commentAttributes = z.object({ body: str, created: str, deleted_at: str }).passthrough();
export const messageAttributes = z.object({ content: str, sent_at: str }).passthrough();

/** Parses something Patreon sent, or ends the try with a line saying what was not understood. */
export function parseOr<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TransientError(`Patreon sent ${what} in a shape the importer does not understand`);
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------------
// Requests

const API = '&json-api-version=1.0';

export const CURRENT_USER_PATH =
  '/api/current_user?include=active_memberships.campaign.creator' +
  '&fields[user]=full_name' +
  '&fields[member]=patron_status,is_free_member' +
  '&fields[campaign]=name,url,vanity,avatar_photo_url,cover_photo_url' +
  '&json-api-use-default-includes=false' +
  API;

const POST_INCLUDE = 'campaign,attachments,attachments_media,audio,images,media,poll.choices,user,user_defined_tags';
const POST_FIELDS =
  'fields[post]=title,content,content_json_string,published_at,edited_at,post_type,post_file,image,embed,url,current_user_can_view,comment_count' +
  '&fields[media]=id,file_name,download_url,image_urls,metadata' +
  '&fields[post_tag]=tag_type,value' +
  '&fields[user]=full_name,url' +
  '&fields[poll]=question_text,choice_type,created_at,closes_at,num_responses' +
  '&fields[poll_choice]=text_content,num_responses,position';

/** The first page of a campaign's posts, newest first; the next pages come from `links.next`. */
export function postsPath(campaignId: string): string {
  return (
    `/api/posts?include=${POST_INCLUDE}&${POST_FIELDS}` +
    `&filter[campaign_id]=${encodeURIComponent(campaignId)}&filter[contains_exclusive_posts]=true&filter[is_draft]=false` +
    `&sort=-published_at${API}`
  );
}

export function commentsPath(postId: string): string {
  return (
    `/api/posts/${encodeURIComponent(postId)}/comments?include=commenter,replies,replies.commenter,replies.parent` +
    '&fields[comment]=body,created,deleted_at&fields[user]=full_name,url&page[count]=100&sort=-created' +
    `&json-api-use-default-includes=false${API}`
  );
}

export const CONVERSATIONS_PATH = `/api/conversations?include=participants&fields[user]=full_name&page[count]=20${API}`;

export function messagesPath(conversationId: string): string {
  return `/api/conversations/${encodeURIComponent(conversationId)}/messages?include=sender&fields[message]=content,sent_at&page[count]=50${API}`;
}

/**
 * Where `links.next` points, as a path on the API's own base URL: Patreon's links are absolute (once
 * without a scheme); keeping only the path and query means a next link can never lead elsewhere.
 */
export function nextPath(next: string | null | undefined): string | null {
  if (!next) return null;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(next) || next.startsWith('/') ? next : `https://${next}`;
  const url = new URL(absolute, 'https://www.patreon.com');
  return `${url.pathname}${url.search}`;
}

export async function getDocument(client: PaysiteClient, path: string, what: string): Promise<JsonApiDocument> {
  const body = await client.getJson(path, { headers: { 'content-type': 'application/vnd.api+json' } });
  return parseOr(documentSchema, body, what);
}
