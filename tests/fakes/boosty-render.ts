/**
 * How api.boosty.to renders the fake Boosty's content (boosty-data.ts): blog, subscription, post and comment
 * objects with camelCase fields (but `int_id`), epoch-second times, and post bodies as Boosty's block lists
 * (text blocks whose `content` is a JSON-encoded [text, blockStyle, [[styleId, offset, length]]] array
 * closed by a BLOCK_END block, link, image, file, audio_file, ok_video with playerUrls, video, list, smile).
 * Shapes from /work/research/boosty.md (gallery-dl, boosty-downloader's fixture, boosty_api_rs's fixtures,
 * BoostBuddy's models).
 */
import { createHash } from 'node:crypto';
import {
  mediaId,
  uuidFrom,
  videoVid,
  type BoostyBlog,
  type BoostyComment,
  type BoostyContent,
  type BoostyHosts,
  type BoostyPost,
} from './boosty-data.ts';

export const MP4_TYPES = ['ultra_hd', 'quad_hd', 'full_hd', 'high', 'medium', 'low', 'lowest', 'tiny'] as const;
export const MANIFEST_TYPES = [
  'hls',
  'dash',
  'dash_uni',
  'ondemand_hls',
  'ondemand_dash',
  'live_hls',
  'live_dash',
  'live_playback_hls',
  'live_playback_dash',
  'live_ondemand_hls',
  'live_cmaf',
] as const;
/** The qualities the fake serves (the seed clip is 320x180): the others answer url "". */
export const SERVED_TYPES = new Set(['low', 'lowest', 'hls']);

const textContent = (text: string, style = 'unstyled', styles: [number, number, number][] = []) => JSON.stringify([text, style, styles]);
const blockEnd = { type: 'text', content: '', modificator: 'BLOCK_END' };
export const FILE_SIZE_GUESS = 4096;

/** Renders a post body as Boosty's block list. */
/** `base`: the index of the first item (a teaser's items count on after the body's, so ids never clash). */
export function renderBlocks(
  post: BoostyPost,
  content: BoostyContent[],
  hosts: BoostyHosts,
  sizes: (id: string) => number = () => FILE_SIZE_GUESS,
  base = 0,
): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  content.forEach((item, i) => {
    const index = base + i;
    const id = mediaId(post, index);
    switch (item.kind) {
      case 'p':
        for (const run of item.runs) {
          const r = typeof run === 'string' ? { text: run } : run;
          if (r.url)
            blocks.push({ type: 'link', url: r.url, explicit: false, content: textContent(r.text, item.style, r.styles), modificator: '' });
          else blocks.push({ type: 'text', content: textContent(r.text, item.style, r.styles), modificator: '' });
        }
        blocks.push(blockEnd);
        break;
      case 'list':
        blocks.push({
          type: 'list',
          style: item.style,
          items: item.items.map((text) => ({ data: [{ type: 'text', content: textContent(text), modificator: '' }], items: [] })),
        });
        break;
      case 'image':
        blocks.push({
          type: 'image',
          id,
          url: hosts.image(id),
          width: item.width ?? 16,
          height: item.height ?? 12,
          size: sizes(id),
          rendition: '',
          isInvalid: null,
        });
        break;
      case 'file':
        blocks.push({ type: 'file', id, url: hosts.file(id), title: item.name, size: sizes(id), complete: true, isInvalid: false });
        break;
      case 'audio':
        blocks.push({
          type: 'audio_file',
          id,
          url: hosts.audio(id),
          title: item.name,
          size: sizes(id),
          duration: item.seconds ?? 2,
          fileType: 'MP3',
          artist: item.artist ?? '',
          album: item.album ?? '',
          track: '',
          complete: true,
          uploadStatus: 'ok',
          timeCode: 0,
          viewsCounter: 3,
          showViewsCounter: false,
        });
        break;
      case 'okvideo': {
        const vid = videoVid(post, index);
        const complete = item.complete !== false;
        const playerUrls = [...MP4_TYPES, ...MANIFEST_TYPES].map((type) => ({
          type,
          url: complete && SERVED_TYPES.has(type) && (!item.hlsOnly || type === 'hls') ? hosts.video(vid, type) : '',
        }));
        blocks.push({
          type: 'ok_video',
          id,
          vid,
          title: item.title,
          duration: 3,
          width: 320,
          height: 180,
          url: '',
          preview: hosts.image(`${id}-preview`),
          defaultPreview: hosts.image(`${id}-preview`),
          failoverHost: new URL(hosts.video(vid, 'low')).host,
          complete,
          uploadStatus: complete ? 'ok' : 'processing',
          status: complete ? 'ok' : 'processing',
          timeCode: 0,
          showViewsCounter: false,
          viewsCounter: 12,
          playerUrls: complete ? playerUrls : [],
        });
        break;
      }
      case 'video':
        blocks.push({ type: 'video', url: item.url });
        break;
      case 'smile':
        blocks.push({
          type: 'smile',
          id,
          name: item.name,
          smallUrl: hosts.smile(id, 'small'),
          mediumUrl: hosts.smile(id, 'medium'),
          largeUrl: hosts.smile(id, 'large'),
          isAnimated: false,
        });
        break;
      case 'raw':
        blocks.push(item.block);
        break;
    }
  });
  return blocks;
}

export function ownerObject(blog: BoostyBlog, hosts: BoostyHosts) {
  return { id: blog.ownerId, name: blog.ownerName, hasAvatar: true, avatarUrl: hosts.avatar(blog.ownerId) };
}

const BLOG_FLAGS = {
  showPostDonations: true,
  hasSubscriptionLevels: true,
  hasTargets: false,
  isAlien: false,
  allowIndex: true,
  allowGoogleIndex: true,
  acceptDonationMessages: true,
  isRssFeedEnabled: false,
  forbiddenChangeHasAdultContent: false,
};

export function blogObject(blog: BoostyBlog, hosts: BoostyHosts) {
  return {
    blogUrl: blog.blogUrl,
    title: blog.title,
    coverUrl: hosts.cover(blog.ownerId),
    hasAdultContent: !!blog.adult,
    owner: ownerObject(blog, hosts),
    flags: { ...BLOG_FLAGS, hasAdultContent: !!blog.adult },
    count: { posts: blog.posts.filter((p) => !p.deleted).length, subscribers: 120 },
    isSubscribed: blog.subscription !== null,
  };
}

export function subscriptionObject(blog: BoostyBlog, hosts: BoostyHosts) {
  const s = blog.subscription!;
  const level = {
    id: s.levelId,
    name: s.name,
    price: s.price,
    currencyPrices: { USD: Math.round(s.price / 90), RUB: s.price },
    isLimited: false,
    isArchived: false,
    isHidden: false,
    deleted: false,
    ownerId: blog.ownerId,
    createdAt: s.onTime - 86400,
    data: [],
  };
  const { count: _count, isSubscribed: _subscribed, ...blogFields } = blogObject(blog, hosts);
  return {
    id: s.subscriptionId,
    levelId: s.levelId,
    parentId: null,
    name: s.name,
    price: s.price,
    customPrice: s.price,
    period: 1,
    onTime: s.onTime,
    offTime: null,
    nextPayTime: s.price > 0 ? s.onTime + 30 * 86400 : null,
    isPause: false,
    isSuspended: false,
    isArchived: false,
    isApplePayed: false,
    isFeePaid: false,
    ownerId: blog.ownerId,
    subscriptionLevel: level,
    blog: blogFields,
    recommendedPromo: null,
  };
}

export function commentObject(c: BoostyComment, hosts: BoostyHosts, replyLimit: number): Record<string, unknown> {
  const replies = c.replies ?? [];
  return {
    id: uuidFrom(`comment:${c.intId}`),
    intId: c.intId,
    createdAt: c.createdAt,
    updatedAt: null,
    isDeleted: false,
    isUpdated: false,
    isBlocked: false,
    author: { id: c.authorId, name: c.authorName, hasAvatar: false, avatarUrl: hosts.avatar(c.authorId) },
    data: [{ type: 'text', content: textContent(c.text), modificator: '' }, blockEnd],
    reactions: { like: 1, heart: 0, fire: 0, wonder: 0, sad: 0, angry: 0, laught: 0, dislike: 0 },
    replyCount: replies.length,
    replies: {
      data: replies.slice(0, replyLimit).map((r) => commentObject(r, hosts, 0)),
      extra: { isFirst: true, isLast: replies.length <= replyLimit },
    },
  };
}

/** The post object of the list and of GET /v1/blog/{blog}/post/{id}, as the key sees it. */
export function postObject(
  blog: BoostyBlog,
  post: BoostyPost,
  view: { hasAccess: boolean; signedQuery: string; commentsLimit: number; replyLimit: number },
  hosts: BoostyHosts,
  sizes?: (id: string) => number,
) {
  const data = view.hasAccess ? renderBlocks(post, post.data, hosts, sizes) : [];
  const counters = new Map<string, { count: number; size: number }>();
  for (const b of renderBlocks(post, post.data, hosts, sizes)) {
    const type = b.type === 'ok_video' ? 'ok_video' : String(b.type);
    if (!['image', 'file', 'audio_file', 'ok_video', 'text', 'link'].includes(type)) continue;
    const c = counters.get(type) ?? { count: 0, size: 0 };
    counters.set(type, { count: c.count + 1, size: c.size + (typeof b.size === 'number' ? b.size : 0) });
  }
  const comments = post.comments ?? [];
  const price = post.singlePrice ?? 0;
  return {
    id: post.id,
    int_id: post.intId,
    title: post.title,
    createdAt: post.publishTime - 60,
    publishTime: post.publishTime,
    updatedAt: post.updatedAt ?? post.publishTime,
    hasAccess: view.hasAccess,
    price,
    currencyPrices: { RUB: price, USD: Math.round(price / 90) },
    isPublished: true,
    isDeleted: false,
    isBlocked: false,
    isPinned: !!post.pinned,
    isRecord: false,
    isWaitingVideo: false,
    hasAdultContent: !!(post.adult ?? blog.adult),
    sortOrder: sortOrder(post),
    signedQuery: view.hasAccess ? view.signedQuery : '',
    tags: (post.tags ?? []).map((title) => ({ id: tagId(title), title })),
    user: { ...ownerObject(blog, hosts), blogUrl: blog.blogUrl, flags: { showPostDonations: true } },
    data,
    teaser: view.hasAccess ? [] : renderBlocks(post, post.teaser ?? [], hosts, sizes, post.data.length),
    contentCounters: [...counters].map(([type, c]) => ({ type, count: c.count, size: c.size })),
    count: {
      likes: 4,
      comments: comments.length,
      reactions: { heart: 2, like: 2, fire: 0, wonder: 0, sad: 0, angry: 0, laught: 0, dislike: 0 },
    },
    comments: {
      data: comments.slice(0, view.commentsLimit).map((c) => commentObject(c, hosts, view.replyLimit)),
      extra: { isFirst: true, isLast: comments.length <= view.commentsLimit },
    },
    donators: { data: [], extra: { isLast: true } },
    donations: 0,
    ...(post.poll
      ? {
          poll: {
            id: post.poll.id,
            title: [post.poll.title],
            isMultiple: false,
            isFinished: false,
            counter: post.poll.options.reduce((s, [, n]) => s + n, 0),
            answer: [],
            options: post.poll.options.map(([text, counter], i) => ({ id: post.poll!.id * 10 + i, text, counter, fraction: 0 })),
          },
        }
      : {}),
  };
}

/** Pinned posts get a sort key above every publication time, so they lead the list (a guess: see boosty.ts). */
export const sortOrder = (post: BoostyPost) => (post.pinned ? 2_000_000_000 + (post.publishTime % 1_000_000) : post.publishTime);
const tagId = (title: string) => 1_300_000 + (parseInt(createHash('md5').update(title).digest('hex').slice(0, 6), 16) % 100_000);
