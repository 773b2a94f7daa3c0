/**
 * Patreon's JSON:API resources turned into what the archive stores: a post's text, dates, the files to
 * fetch (post_file, the post image, images, attachments, audio), embed, poll and tags; comments with
 * their replies; DMs. Pure functions: downloads and writes happen in the importer.
 */
import { createHash } from 'node:crypto';
import type { CommentInput } from '@api/data/comments.ts';
import type { Poll, PostEmbed } from '@shared/shapes/posts.ts';
import { archiveTime, escapeHtml } from '@api/importer/text.ts';
import {
  attachmentAttributes,
  commentAttributes,
  mediaAttributes,
  messageAttributes,
  parseOr,
  pollAttributes,
  pollChoiceAttributes,
  postAttributes,
  tagAttributes,
  userAttributes,
  type JsonApiDocument,
  type Resource,
} from './api.ts';
import { richTextHtml } from './rich-text.ts';

export type Included = Map<string, Resource>;

export function indexIncluded(doc: JsonApiDocument): Included {
  const index: Included = new Map();
  for (const resource of doc.included) index.set(`${resource.type}:${resource.id}`, resource);
  return index;
}

export function dataList(doc: JsonApiDocument): Resource[] {
  return Array.isArray(doc.data) ? doc.data : [doc.data];
}

type Linkage = { type: string; id: string };

/** The resources a relationship names, found in `included` (unknown ones are left out). */
export function related(resource: Resource, name: string, index: Included): Resource[] {
  const data = (resource.relationships[name] as { data?: Linkage | Linkage[] | null } | undefined)?.data;
  const list = data == null ? [] : Array.isArray(data) ? data : [data];
  return list.map((link) => index.get(`${link.type}:${link.id}`)).filter((r): r is Resource => r !== undefined);
}

/** The id a to-one relationship points at, whether or not it was included. */
export function relatedId(resource: Resource, name: string): string | null {
  const data = (resource.relationships[name] as { data?: Linkage | null } | undefined)?.data;
  return data && !Array.isArray(data) ? data.id : null;
}

/** Plain text (comments, messages) made safe to store as HTML content, its line breaks kept. */
function textHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

export interface RemoteFile {
  url: string;
  name: string | null;
}

export interface PostPlan {
  id: string;
  title: string;
  html: string;
  /** The post's text came as a document tree the converter could not read (logged, stored without text). */
  unreadableText: boolean;
  published: string | null;
  edited: string | null;
  /** false: Patreon shows this account only a teaser (its tier is too low); nothing worth archiving. */
  canView: boolean;
  commentCount: number | null;
  file: RemoteFile | null;
  attachments: RemoteFile[];
  embed: PostEmbed | null;
  poll: Poll | null;
  tags: string[];
}

function mediaFiles(post: Resource, name: string, index: Included): RemoteFile[] {
  return related(post, name, index).flatMap((media) => {
    const attrs = parseOr(mediaAttributes, media.attributes, 'a post file');
    return attrs.download_url ? [{ url: attrs.download_url, name: attrs.file_name ?? null }] : [];
  });
}

function pollOf(post: Resource, index: Included): Poll | null {
  const [poll] = related(post, 'poll', index);
  if (!poll) return null;
  const attrs = parseOr(pollAttributes, poll.attributes, 'a poll');
  const choices = related(poll, 'choices', index)
    .map((choice) => parseOr(pollChoiceAttributes, choice.attributes, 'a poll choice'))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((choice) => ({ text: choice.text_content ?? '', votes: choice.num_responses ?? 0 }));
  return {
    title: attrs.question_text ?? '',
    choices,
    total_votes: attrs.num_responses ?? choices.reduce((sum, c) => sum + c.votes, 0),
    created_at: archiveTime(attrs.created_at) ?? '',
    closes_at: archiveTime(attrs.closes_at),
    allow_multiple: attrs.choice_type === 'multiple',
  };
}

export function postPlan(post: Resource, index: Included): PostPlan {
  const attrs = parseOr(postAttributes, post.attributes, 'a post');
  const postFile = attrs.post_file?.url ? { url: attrs.post_file.url, name: attrs.post_file.name ?? null } : null;
  const image = attrs.image?.large_url || attrs.image?.url;
  // The post's own file first; an image post without one shows its large image instead.
  const file = postFile ?? (image ? { url: image, name: null } : null);
  const attachments = [
    ...mediaFiles(post, 'images', index),
    ...mediaFiles(post, 'media', index),
    ...related(post, 'attachments', index).map((a) => {
      const attachment = parseOr(attachmentAttributes, a.attributes, 'an attachment');
      return { url: attachment.url, name: attachment.name ?? null };
    }),
    ...mediaFiles(post, 'attachments_media', index),
    ...mediaFiles(post, 'audio', index),
  ];
  const embed = attrs.embed?.url
    ? { url: attrs.embed.url, subject: attrs.embed.subject ?? null, description: attrs.embed.description ?? null }
    : null;
  // Legacy HTML first; posts from the newer editor have only the document tree.
  const text = attrs.content ? attrs.content : richTextHtml(attrs.content_json_string);
  const tags = related(post, 'user_defined_tags', index).map((tag) => parseOr(tagAttributes, tag.attributes, 'a tag').value);
  return {
    id: post.id,
    title: attrs.title ?? '',
    html: text ?? '',
    unreadableText: text === undefined,
    published: archiveTime(attrs.published_at),
    edited: archiveTime(attrs.edited_at),
    canView: attrs.current_user_can_view !== false,
    commentCount: attrs.comment_count ?? null,
    file,
    attachments,
    embed,
    poll: pollOf(post, index),
    tags,
  };
}

function userName(userId: string | null, index: Included): string | null {
  const user = userId ? index.get(`user:${userId}`) : undefined;
  return user ? (parseOr(userAttributes, user.attributes, 'a user').full_name ?? null) : null;
}

/**
 * One page of a post's comments with the replies Patreon included, parents before replies. Deleted
 * comments are left out.
 */
export function commentInputs(doc: JsonApiDocument, key: { service: string; user: string; post_id: string }): CommentInput[] {
  const index = indexIncluded(doc);
  const out: CommentInput[] = [];
  const seen = new Set<string>();
  const add = (comment: Resource, parentId: string | null) => {
    if (seen.has(comment.id)) return;
    seen.add(comment.id);
    const attrs = parseOr(commentAttributes, comment.attributes, 'a comment');
    if (attrs.deleted_at) return;
    const commenter = relatedId(comment, 'commenter') ?? '';
    out.push({
      ...key,
      id: comment.id,
      parent_id: parentId ?? relatedId(comment, 'parent'),
      commenter,
      commenter_name: userName(commenter, index),
      content: textHtml(attrs.body ?? ''),
      published: archiveTime(attrs.created),
    });
    for (const reply of related(comment, 'replies', index)) add(reply, comment.id);
  };
  for (const comment of dataList(doc)) add(comment, null);
  return out;
}

export interface DmPlan {
  hash: string;
  content: string;
  published: string | null;
}

/** A creator's message as a DM; its hash comes from Patreon's message id, so a re-import finds it again. */
export function dmPlan(message: Resource): DmPlan {
  const attrs = parseOr(messageAttributes, message.attributes, 'a message');
  return {
    hash: createHash('sha256').update(`patreon-message:${message.id}`).digest('hex'),
    content: textHtml(attrs.content ?? ''),
    published: archiveTime(attrs.sent_at),
  };
}
