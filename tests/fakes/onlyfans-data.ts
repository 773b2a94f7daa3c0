/**
 * The fake OnlyFans' content and how onlyfans.com/api2/v2 renders it: user (profile) objects, posts
 * with `text` (HTML) and `rawText`, `postedAtPrecise` cursors, media in the current shape
 * (`files.full/thumb/preview/squarePreview`, `videoSources`, `files.drm` for DRM video) and the
 * 2021-2023 shape (`source.source`, `info`, string `full/preview/thumb`). Shapes follow
 * /work/research/onlyfans.md sections 2-3 (OF-Scraper's sample payloads test_constants.py,
 * USERPROFILE_EXAMPLE_DICT, TIMELINE_EXAMPLE; media shapes from OF-Scraper classes/of/media.py and
 * Voldrix/onlyfans-dl-2).
 */
import { createHash } from 'node:crypto';
import type { UrlSigner } from './kit/signing.ts';

export type OnlyfansMediaKind = 'photo' | 'video' | 'audio';

export interface OnlyfansMediaSpec {
  id: number;
  kind: OnlyfansMediaKind;
  /** Not viewable by this fan (pay-per-view not bought): canView false, null URLs. */
  locked?: boolean;
  /** DRM-protected video: only files.drm manifests, no plain URL. */
  drm?: boolean;
  /** Rendered in the 2021-2023 shape (source.source, info, string full/preview/thumb). */
  legacy?: boolean;
}

export interface OnlyfansPost {
  id: number;
  /** Epoch seconds. */
  postedAt: number;
  rawText: string;
  media: OnlyfansMediaSpec[];
  price?: number;
  pinned?: boolean;
  archived?: boolean;
  expiresAt?: number;
}

export interface OnlyfansCreator {
  id: number;
  username: string;
  name: string;
  about: string;
  subscription: 'active' | 'expired';
  subscribePrice: number;
  posts: OnlyfansPost[];
}

export interface OnlyfansDataset {
  me: { id: number; username: string; name: string };
  creators: OnlyfansCreator[];
}

const T0 = Date.UTC(2024, 1, 1, 12) / 1000;
const DAY = 86400;

/**
 * Luna (active, 20 timeline posts of every kind, one pinned, one archived) and Kai (expired: his
 * posts list but his media are locked).
 */
export function demoDataset(): OnlyfansDataset {
  let mediaId = 3000000000;
  const m = (kind: OnlyfansMediaKind, extra: Partial<OnlyfansMediaSpec> = {}): OnlyfansMediaSpec => ({
    id: (mediaId += 7),
    kind,
    ...extra,
  });
  let postId = 1000000000;
  const p = (day: number, rawText: string, media: OnlyfansMediaSpec[] = [], extra: Partial<OnlyfansPost> = {}): OnlyfansPost => ({
    id: (postId += 13),
    postedAt: T0 + day * DAY,
    rawText,
    media,
    ...extra,
  });
  const luna: OnlyfansPost[] = [
    p(1, 'Hi everyone! Text only today.'),
    p(2, 'Golden hour #sunset #GoldenHour', [m('photo')]),
    p(3, 'Three from the beach shoot #beach #sunset', [m('photo'), m('photo'), m('photo')]),
    p(4, 'Behind the scenes clip', [m('video')]),
    p(5, 'A little song for you', [m('audio')]),
    p(6, 'Full set, unlock below 🔓', [m('photo'), m('photo', { locked: true }), m('video', { locked: true })], { price: 9.99 }),
    p(7, 'Protected premiere', [m('video', { drm: true })]),
    p(8, 'From the archive (2022 upload)', [m('photo', { legacy: true }), m('video', { legacy: true })]),
    p(9, '月の光 🌙\nこんばんは «Ünïcödé» & <not a tag>', [m('photo')]),
    p(10, 'My wishlist: https://example.com/wishlist', []),
    p(11, 'Read this first! (pinned)', [m('photo')], { pinned: true }),
    p(12, 'Gone in a week', [m('photo')], { expiresAt: T0 + 19 * DAY }),
    p(13, 'Old post moved to the archive', [m('photo')], { archived: true }),
  ];
  for (let d = 14; d <= 21; d++) luna.push(p(d, `Good morning #${d}`, d % 3 === 0 ? [m('photo')] : []));
  return {
    me: { id: 48151623421, username: 'u48151623421', name: 'Fan Account' },
    creators: [
      {
        id: 4815162,
        username: 'luna_moon',
        name: 'Luna 月',
        about: 'Photographer & singer.\nNew sets every week.',
        subscription: 'active',
        subscribePrice: 9.99,
        posts: luna,
      },
      {
        id: 2342000,
        username: 'kai_draws',
        name: 'Kai',
        about: 'Drawings',
        subscription: 'expired',
        subscribePrice: 4.99,
        posts: [p(1, 'Sketch dump', [m('photo', { locked: true }), m('photo', { locked: true })]), p(2, 'Thanks for the support!')],
      },
    ],
  };
}

/**
 * A bigger dataset for paging and the benchmark: `posts` visible posts spread over `creators` active
 * creators (newest first one a day apart), each with two photos (the post file and a gallery image)
 * and every third with a video too; one expired creator with locked posts besides.
 */
export function generatedDataset(options: { posts: number; creators?: number }): OnlyfansDataset {
  const creators = Math.max(1, options.creators ?? 3);
  let mediaId = 5000000000;
  let postId = 2000000000;
  const m = (kind: OnlyfansMediaKind, extra: Partial<OnlyfansMediaSpec> = {}): OnlyfansMediaSpec => ({
    id: (mediaId += 7),
    kind,
    ...extra,
  });
  const list: OnlyfansCreator[] = Array.from({ length: creators }, (_, c) => ({
    id: 7000000 + c * 101,
    username: `creator_${c + 1}`,
    name: `Creator ${c + 1}`,
    about: `Generated creator ${c + 1}`,
    subscription: 'active' as const,
    subscribePrice: 5,
    posts: [],
  }));
  for (let i = 0; i < options.posts; i++) {
    const media = [m('photo'), m('photo'), ...(i % 3 === 2 ? [m('video')] : [])];
    list[i % creators].posts.push({ id: (postId += 13), postedAt: T0 + i * 3600, rawText: `Post ${i + 1} #set${(i % 5) + 1}`, media });
  }
  list.push({
    id: 7999999,
    username: 'expired_one',
    name: 'Expired',
    about: '',
    subscription: 'expired',
    subscribePrice: 5,
    posts: [{ id: (postId += 13), postedAt: T0, rawText: 'Locked', media: [m('photo')] }],
  });
  return { me: { id: 48151623421, username: 'u48151623421', name: 'Fan Account' }, creators: list };
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderContext {
  cdn: string;
  publicHost: string;
  signer: UrlSigner;
  ttl: number;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');
export const precise = (seconds: number) => `${seconds}.000000`;
const hash = (text: string) => createHash('md5').update(text).digest('hex');
const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** rawText as OnlyFans renders it in `text`: escaped, newlines as <br />, links as <a>. */
export function htmlText(raw: string): string {
  return escapeHtml(raw)
    .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}" target="_blank">${url}</a>`)
    .replaceAll('\n', '<br />');
}

/** Sizes of the files the CDN serves. */
export const SIZES = { full: [96, 64], preview: [48, 32], thumb: [24, 16], video: [320, 180] } as const;
const ext = (kind: OnlyfansMediaKind) => (kind === 'photo' ? 'jpg' : kind === 'video' ? 'mp4' : 'mp3');

/** The CDN paths of a media item (cdn2.onlyfans.com/files/a/ab/<hash>/...). */
export function mediaPaths(spec: OnlyfansMediaSpec) {
  const h = hash(`of-media-${spec.id}`);
  const dir = `/files/${h[0]}/${h.slice(0, 2)}/${h}`;
  const [w, hh] = spec.kind === 'video' ? SIZES.video : SIZES.full;
  return {
    full: `${dir}/${spec.kind === 'audio' ? '' : `${w}x${hh}_`}${h}.${ext(spec.kind)}`,
    preview: `${dir}/${SIZES.preview[0]}x${SIZES.preview[1]}_${h}.jpg`,
    thumb: `/files/thumbs/c144/${h[0]}/${h.slice(0, 2)}/${h}/${h}.jpg`,
    squarePreview: `/files/thumbs/c300/${h[0]}/${h.slice(0, 2)}/${h}/${h}.jpg`,
    drmHls: `${dir}/${h}.m3u8`,
    drmDash: `${dir}/${h}.mpd`,
  };
}

export function avatarPaths(creator: { id: number }) {
  const h = hash(`of-user-${creator.id}`);
  return {
    avatar: `/files/${h[0]}/${h.slice(0, 2)}/${h.slice(0, 3)}/${h}/${creator.id}/avatar.jpg`,
    header: `/files/${h[0]}/${h.slice(0, 2)}/${h.slice(0, 3)}/${h}/${creator.id}/header.jpg`,
  };
}

export function renderMedia(ctx: RenderContext, spec: OnlyfansMediaSpec, postedAt: number) {
  const paths = mediaPaths(spec);
  const canView = !spec.locked;
  const url = (path: string) => (canView ? ctx.signer.sign(`${ctx.cdn}${path}`, ctx.ttl) : null);
  const [fw, fh] = spec.kind === 'video' ? SIZES.video : spec.kind === 'audio' ? [0, 0] : SIZES.full;
  const hasImages = spec.kind !== 'audio';
  const common = {
    id: spec.id,
    type: spec.kind,
    convertedToVideo: false,
    canView,
    hasError: false,
    createdAt: iso(postedAt),
    isReady: true,
    duration: spec.kind === 'photo' ? 0 : 3,
    hasCustomPreview: false,
  };
  if (spec.legacy) {
    const full = spec.drm ? null : url(paths.full);
    return {
      ...common,
      source: { source: full, width: fw, height: fh, size: 0, duration: common.duration },
      info: {
        source: { source: full, width: fw, height: fh, size: 0 },
        preview: { width: SIZES.preview[0], height: SIZES.preview[1], size: 0 },
      },
      squarePreview: hasImages ? url(paths.squarePreview) : null,
      full,
      preview: hasImages ? url(paths.preview) : null,
      thumb: hasImages ? url(paths.thumb) : null,
      videoSources: spec.kind === 'video' ? { 720: null, 240: null } : undefined,
    };
  }
  const file = (path: string, w: number, h: number) => ({ url: url(path), width: w, height: h, size: 0, sources: [] });
  const files: Record<string, unknown> = {
    full: spec.drm ? { url: null, width: fw, height: fh, size: 0, sources: [] } : file(paths.full, fw, fh),
    thumb: hasImages ? file(paths.thumb, SIZES.thumb[0], SIZES.thumb[1]) : null,
    preview: hasImages ? file(paths.preview, SIZES.preview[0], SIZES.preview[1]) : null,
    squarePreview: hasImages ? file(paths.squarePreview, SIZES.thumb[0], SIZES.thumb[1]) : null,
  };
  if (spec.drm) {
    const policy = ctx.signer.params(`${ctx.cdn}${paths.drmHls.replace(/\.m3u8$/, '')}*`, ctx.ttl);
    const cookies = {
      'CloudFront-Policy': policy.Policy,
      'CloudFront-Signature': policy.Signature,
      'CloudFront-Key-Pair-Id': policy['Key-Pair-Id'],
    };
    files.drm = {
      manifest: { hls: `${ctx.cdn}${paths.drmHls}`, dash: `${ctx.cdn}${paths.drmDash}` },
      signature: { hls: cookies, dash: cookies },
    };
  }
  return { ...common, files, ...(spec.kind === 'video' ? { videoSources: { 720: spec.drm ? null : url(paths.full), 240: null } } : {}) };
}

export function renderPost(ctx: RenderContext, creator: OnlyfansCreator, post: OnlyfansPost) {
  const paid = (post.price ?? 0) > 0;
  const subscribed = creator.subscription === 'active';
  const locked = (spec: OnlyfansMediaSpec) => spec.locked || !subscribed;
  const media = post.media.map((spec) => renderMedia(ctx, { ...spec, locked: locked(spec) }, post.postedAt));
  return {
    responseType: 'post',
    id: post.id,
    postedAt: iso(post.postedAt),
    postedAtPrecise: precise(post.postedAt),
    expiredAt: post.expiresAt ? iso(post.expiresAt) : null,
    author: { id: creator.id, _view: 'a' },
    text: htmlText(post.rawText),
    rawText: post.rawText,
    lockedText: false,
    isFavorite: false,
    canReport: true,
    canDelete: false,
    canComment: subscribed,
    canEdit: false,
    isPinned: !!post.pinned,
    favoritesCount: 12,
    mediaCount: post.media.length,
    isMediaReady: true,
    voting: [],
    isOpened: subscribed && !paid,
    canToggleFavorite: true,
    streamId: null,
    price: paid ? post.price : null,
    hasVoting: false,
    isAddedToBookmarks: false,
    isArchived: !!post.archived,
    isPrivateArchived: false,
    isDeleted: false,
    hasUrls: /https?:\/\//.test(post.rawText),
    commentsCount: 0,
    mentionedUsers: [],
    linkedUsers: [],
    linkedPosts: [],
    tipsAmount: '$0',
    canViewMedia: subscribed && post.media.every((s) => !s.locked),
    preview: paid ? post.media.filter((s) => !s.locked).map((s) => s.id) : [],
    media,
  };
}

export function renderUser(ctx: RenderContext, creator: OnlyfansCreator) {
  const p = avatarPaths(creator);
  const active = creator.subscription === 'active';
  const expire = iso(T0 + (active ? 60 : -10) * DAY);
  const count = (kind: OnlyfansMediaKind) => creator.posts.flatMap((post) => post.media).filter((s) => s.kind === kind).length;
  return {
    view: 's',
    avatar: `${ctx.publicHost}${p.avatar}`,
    avatarThumbs: {
      c50: `${ctx.publicHost}${p.avatar.replace('/files/', '/files/thumbs/c50/')}`,
      c144: `${ctx.publicHost}${p.avatar.replace('/files/', '/files/thumbs/c144/')}`,
    },
    header: `${ctx.publicHost}${p.header}`,
    headerSize: { width: SIZES.full[0], height: SIZES.full[1] },
    headerThumbs: {
      w480: `${ctx.publicHost}${p.header.replace('/files/', '/files/thumbs/w480/')}`,
      w760: `${ctx.publicHost}${p.header.replace('/files/', '/files/thumbs/w760/')}`,
    },
    id: creator.id,
    name: creator.name,
    username: creator.username,
    canLookStory: true,
    canCommentStory: true,
    hasNotViewedStory: false,
    isVerified: true,
    canPayInternal: true,
    hasScheduledStream: false,
    hasStream: false,
    hasStories: false,
    tipsEnabled: true,
    tipsTextEnabled: true,
    tipsMin: 5,
    tipsMax: 200,
    canEarn: true,
    canAddSubscriber: true,
    subscribePrice: creator.subscribePrice,
    about: htmlText(creator.about),
    rawAbout: creator.about,
    joinDate: iso(T0 - 400 * DAY),
    postsCount: creator.posts.filter((post) => !post.archived).length,
    archivedPostsCount: creator.posts.filter((post) => post.archived).length,
    photosCount: count('photo'),
    videosCount: count('video'),
    audiosCount: count('audio'),
    mediasCount: creator.posts.flatMap((post) => post.media).length,
    hasPinnedPosts: creator.posts.some((post) => post.pinned),
    isRestricted: false,
    isPerformer: true,
    currentSubscribePrice: creator.subscribePrice,
    subscribedBy: active,
    subscribedByExpire: !active,
    subscribedByExpireDate: expire,
    subscribedIsExpiredNow: !active,
    subscribedByData: {
      price: creator.subscribePrice,
      subscribeAt: iso(T0 - 30 * DAY),
      expiredAt: expire,
      renewedAt: active ? iso(T0) : null,
      status: active ? null : 'expired',
      subscribes: [
        {
          id: creator.id * 10 + 1,
          userId: creator.id,
          subscriberId: 48151623421,
          startDate: iso(T0 - 30 * DAY),
          expireDate: expire,
          price: creator.subscribePrice,
          type: 'regular',
          isCurrent: true,
        },
      ],
    },
    lastSeen: iso(T0 + 30 * DAY),
  };
}
