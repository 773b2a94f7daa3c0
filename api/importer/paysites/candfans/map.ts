/**
 * CandFans shapes into Trove's: JST dates, plain text as HTML, hashtags as tags, which posts the key can
 * see, and where a post's files are. Pure functions; the importer does the fetching and the writing.
 */
import type { PostFileInput, PostInput } from '@api/data/posts.ts';
import { archiveTime } from '@api/importer/text.ts';
import { nameFromUrl } from '@api/importer/content.ts';
import { parseUrl } from '@shared/parse.ts';
import type { TimelinePost } from './api.ts';

/** `contents_type` (DJ): what the post holds. */
export const CONTENTS_TYPE = { text: 0, images: 1, video: 2, audio: 3 } as const;
/** `post_type` (KO PostType): who may see it. */
export const POST_TYPE = { public: 0, plan: 1, single: 2, backNumber: 3 } as const;

/** CandFans' 'YYYY-MM-DD HH:MM:SS' (Japan time, no zone given) as the archive's UTC time. */
export function candfansTime(value: string | null | undefined): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)$/.exec(value?.trim() ?? '');
  return m ? archiveTime(`${m[1]}T${m[2]}+09:00`) : archiveTime(value);
}

/** The hashtags of a post's text (#tag or full-width ＃tag), in order, without repeats; CandFans has no tag field. */
export function hashtags(text: string | null | undefined): string[] {
  const found = new Set<string>();
  for (const m of (text ?? '').matchAll(/(?:^|[\s(（])[#＃]([\p{L}\p{N}_ー・]+)/gu)) found.add(m[1]);
  return [...found];
}

export type Visibility = 'visible' | 'plan' | 'single' | 'backNumber';

/** Whether the key can see the post (can_browsing 1), else why not: above its plans, sold separately, a back number. */
export function visibility(post: TimelinePost): Visibility {
  if (post.can_browsing === 1 || post.can_browsing === true) return 'visible';
  if (post.post_type === POST_TYPE.single) return 'single';
  if (post.post_type === POST_TYPE.backNumber) return 'backNumber';
  return 'plan';
}

export interface MediaItem {
  url: string;
  name: string;
  /** An HLS playlist (stored as one MP4) or a plain file. */
  hls: boolean;
}

/** An absolute URL of a path the API gives relative to a host ('/user/1/post/2/x.jpg'). */
export function absolute(pathOrUrl: string | null | undefined, base: string): string | undefined {
  const value = pathOrUrl?.trim();
  if (!value) return undefined;
  return parseUrl(value, `${base.replace(/\/+$/, '')}/`)?.toString();
}

/**
 * The post's files in order: attachments[].default (the best quality the key gets; `low` is the smaller
 * one), or for answers without attachments the image paths contents_path1..4 on the image host.
 */
export function postMedia(post: TimelinePost, imageBase: string): { thumbnail?: string; items: MediaItem[] } {
  const thumbnail = absolute(post.thumbnail_file, imageBase);
  let urls = (post.attachments ?? []).map((a) => a.default ?? a.low).filter((u): u is string => !!u);
  if (urls.length === 0 && post.contents_type === CONTENTS_TYPE.images)
    urls = [post.contents_path1, post.contents_path2, post.contents_path3, post.contents_path4]
      .map((p) => absolute(p, imageBase))
      .filter((u): u is string => !!u);
  const items = urls.map((url) => {
    const name = nameFromUrl(url) || `${post.post_id}`;
    return { url, name, hls: /\.m3u8$/i.test(name) };
  });
  return { thumbnail, items };
}

/** The stored post: the thumbnail as its file (else the first image), the rest as attachments. */
export function postInput(
  post: TimelinePost,
  creatorId: string,
  content: string,
  archived: { thumbnail?: PostFileInput; files: PostFileInput[] },
): PostInput {
  const main = archived.thumbnail ?? (post.contents_type === CONTENTS_TYPE.images ? archived.files[0] : undefined);
  const attachments = archived.thumbnail || !main ? archived.files : archived.files.slice(1);
  return {
    service: 'candfans',
    user: creatorId,
    id: String(post.post_id),
    title: post.title ?? '',
    content,
    published: candfansTime(post.post_date),
    file: main ?? null,
    attachments,
    embed: null,
    tags: hashtags(`${post.title ?? ''}\n${post.contents_text ?? ''}`),
  };
}
