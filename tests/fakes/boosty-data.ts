/**
 * The fake Boosty's content (blogs, subscription levels, posts, comments) and how api.boosty.to renders it:
 * blog, subscription, post and comment objects with camelCase fields (but `int_id`), epoch-second times,
 * and post bodies as Boosty's block lists (text blocks whose `content` is a JSON-encoded
 * [text, blockStyle, [[styleId, offset, length]]] array closed by a BLOCK_END block, link, image, file,
 * audio_file, ok_video with playerUrls, video, list, smile). Shapes from /work/research/boosty.md (gallery-dl,
 * boosty-downloader's fixture, boosty_api_rs's fixtures, BoostBuddy's models). URLs come from a `BoostyHosts`
 * so the same renderers serve the fake (one CDN origin) and the fixtures (the real host names).
 */
import { createHash } from 'node:crypto';

export interface BoostyAuth {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds, as in the browser's `auth` cookie. */
  expiresAt: number;
}

/** A run of a paragraph: plain text, styled text ([styleId 0 bold / 2 italic / 4 underline, offset, length]) or a link. */
export type BoostyRun = string | { text: string; url?: string; styles?: [number, number, number][] };

export type BoostyContent =
  | { kind: 'p'; runs: BoostyRun[]; style?: 'unstyled' | 'header-one' | 'header-two' | 'header-three' }
  | { kind: 'list'; style: 'ordered' | 'unordered'; items: string[] }
  | { kind: 'image'; name: string; width?: number; height?: number }
  /** A downloadable file; `name` is its real file name (Boosty's `title`). A .zip is a real zip, else a PNG. */
  | { kind: 'file'; name: string }
  | { kind: 'audio'; name: string; artist?: string; album?: string; seconds?: number }
  /** Boosty's own video; `hlsOnly`: playerUrls offer no progressive MP4, only the HLS playlist. */
  | { kind: 'okvideo'; title: string; complete?: boolean; hlsOnly?: boolean }
  | { kind: 'video'; url: string }
  | { kind: 'smile'; name: string }
  /** A block type the clients do not know (boosty-downloader's fixture has `hologram_message`). */
  | { kind: 'raw'; block: Record<string, unknown> };

export interface BoostyComment {
  intId: number;
  authorId: number;
  authorName: string;
  createdAt: number;
  text: string;
  replies?: BoostyComment[];
}

export interface BoostyPost {
  /** UUID: the id in URLs. */
  id: string;
  intId: number;
  title: string | null;
  publishTime: number;
  updatedAt?: number;
  /** The lowest subscription price that opens the post (0: free for everyone). */
  price: number;
  /** Sold on its own at this price (shown on a locked post). */
  singlePrice?: number;
  pinned?: boolean;
  tags?: string[];
  adult?: boolean;
  data: BoostyContent[];
  /** What a reader without access sees. */
  teaser?: BoostyContent[];
  comments?: BoostyComment[];
  poll?: { id: number; title: string; options: [string, number][] };
  /** Deleted by the author: gone from the list, 404 on its own. */
  deleted?: boolean;
}

export interface BoostyBlog {
  blogUrl: string;
  ownerId: number;
  ownerName: string;
  title: string;
  adult?: boolean;
  /** The key's subscription level in this blog (price 0 = the free "Follower" level); null: none. */
  subscription: { levelId: number; name: string; price: number; subscriptionId: number; onTime: number } | null;
  posts: BoostyPost[];
}

export interface BoostyDataset {
  user: { id: number; name: string };
  blogs: BoostyBlog[];
}

/** URL builders: the fake points every media host at its CDN origin; fixtures use the real hosts. */
export interface BoostyHosts {
  image(id: string): string;
  file(id: string): string;
  audio(id: string): string;
  smile(id: string, size: 'small' | 'medium' | 'large'): string;
  avatar(ownerId: number): string;
  cover(ownerId: number): string;
  /** An already-signed OK.ru-style video URL ('hls' for the playlist). */
  video(vid: string, type: string): string;
}

export const realHosts: BoostyHosts = {
  image: (id) => `https://images.boosty.to/image/${id}?change_time=1711027834`,
  file: (id) => `https://cdn.boosty.to/file/${id}`,
  audio: (id) => `https://cdn.boosty.to/audio/${id}`,
  smile: (id, size) => `https://images.boosty.to/smile/${id}/${size}`,
  avatar: (ownerId) => `https://images.boosty.to/user/${ownerId}/avatar?change_time=1580888689`,
  cover: (ownerId) => `https://images.boosty.to/blog/${ownerId}/cover`,
  video: (vid, type) => `https://vd123.okcdn.ru/?expires=1711114234000&srcIp=0.0.0.0&id=${vid}&type=${type}&sig=AbCdEf012345`,
};

/** A stable UUID from a seed (the shape of Boosty's ids). */
export function uuidFrom(seed: string): string {
  const h = createHash('md5').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The id of the n-th content item of a post (images, files, audio, video keep it across edits). */
export const mediaId = (post: BoostyPost, index: number) => uuidFrom(`${post.id}:${index}`);
/** OK.ru's numeric video id for a post's video. */
export const videoVid = (post: BoostyPost, index: number) => String(7_000_000_000 + ((post.intId * 31 + index) % 1_000_000_000));

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

export const FAKE_BOOSTY_USER_ID = 30_000_001;
/** Both tokens are 64 hex characters, as the key rules of shared/paysites/boosty.ts want them. */
export const FAKE_BOOSTY_AUTH: BoostyAuth = {
  accessToken: 'a9f1c0de7b3e4b2fa7d1c9e8f0b1a2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d',
  refreshToken: 'b8e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2',
  expiresAt: Date.UTC(2099, 0, 1),
};
/** The `auth` cookie value as the browser stores it (URL-encoded JSON): Trove's Boosty key. */
export const boostyAuthCookie = (auth: BoostyAuth) => encodeURIComponent(JSON.stringify(auth));
export const FAKE_BOOSTY_KEY = boostyAuthCookie(FAKE_BOOSTY_AUTH);

const T0 = Date.UTC(2024, 2, 1) / 1000;
const DAY = 86400;
const p = (...runs: BoostyRun[]): BoostyContent => ({ kind: 'p', runs });

/**
 * Two blogs: 'mariya-art' (the key holds the 300 ₽ level; 16 posts: pinned, styled text, gallery, files,
 * blog with inline image, OK video, YouTube video, audio, a 1000 ₽ locked post, a deleted one, unicode,
 * poll, tags, comments, diary filler for paging) and 'synthwave-lab' (the key only follows: free posts
 * open, paid ones locked).
 */
export function demoDataset(): BoostyDataset {
  const post = (n: number, fields: Omit<BoostyPost, 'id' | 'intId' | 'publishTime'> & { day: number }): BoostyPost => {
    const { day, ...rest } = fields;
    return { id: uuidFrom(`post:${n}`), intId: 5_547_100 + n, publishTime: T0 + day * DAY, ...rest };
  };
  const mariya: BoostyPost[] = [
    post(1, {
      day: 0,
      title: 'Добро пожаловать! 📌',
      price: 0,
      pinned: true,
      tags: ['новости'],
      data: [p('Здесь я выкладываю скетчи, исходники и таймлапсы.'), p('Правила: ', { text: 'без репостов', styles: [[0, 0, 12]] }, '.')],
    }),
    post(2, {
      day: 20,
      title: 'Заметки о цвете',
      price: 300,
      tags: ['теория', 'цвет'],
      data: [
        { kind: 'p', style: 'header-one', runs: ['Тёплое и холодное'] },
        p({
          text: 'Жирный и курсив в одной строке.',
          styles: [
            [0, 0, 6],
            [2, 9, 6],
          ],
        }),
        { kind: 'list', style: 'ordered', items: ['Палитра', 'Свет', 'Тень'] },
        { kind: 'smile', name: 'heart' },
        { kind: 'raw', block: { type: 'hologram_message', id: 'h1' } },
      ],
      comments: [
        {
          intId: 9001,
          authorId: 40001,
          authorName: 'Ольга',
          createdAt: T0 + 21 * DAY,
          text: 'Спасибо, очень полезно!',
          replies: [
            {
              intId: 9002,
              authorId: 144001,
              authorName: 'Мария Иванова 🎨',
              createdAt: T0 + 21 * DAY + 600,
              text: 'Рада, что пригодилось 💛',
            },
          ],
        },
        { intId: 9003, authorId: 40002, authorName: 'Pavel', createdAt: T0 + 22 * DAY, text: 'A <b>tag</b> & an ampersand' },
        { intId: 9004, authorId: 40003, authorName: 'Анна', createdAt: T0 + 22 * DAY + 60, text: 'Третий комментарий' },
      ],
    }),
    post(3, {
      day: 19,
      title: 'Скетчи недели',
      price: 300,
      tags: ['скетчи'],
      data: [
        p('Три наброска.'),
        { kind: 'image', name: 'sketch-1.png', width: 16, height: 12 },
        { kind: 'image', name: 'sketch-2.png' },
        { kind: 'image', name: 'sketch-3.png' },
      ],
    }),
    post(4, {
      day: 18,
      title: 'Исходники PSD',
      price: 300,
      data: [
        p('Архив и отдельный файл.'),
        { kind: 'file', name: 'Исходники_скетчей.zip' },
        { kind: 'file', name: '24.12.12-109 копия.png' },
      ],
    }),
    post(5, {
      day: 17,
      title: 'Как я рисую облака ☁️',
      price: 300,
      data: [
        p('Сначала подмалёвок:'),
        { kind: 'image', name: 'clouds-step-1.png', width: 32, height: 24 },
        p('Потом детали. Подробнее в ', { text: 'статье', url: 'https://example.org/clouds' }, '.'),
      ],
    }),
    post(6, {
      day: 16,
      title: 'Таймлапс: закат',
      price: 300,
      data: [p('Три секунды заката.'), { kind: 'okvideo', title: 'sunset-timelapse' }],
    }),
    post(7, {
      day: 15,
      title: 'Стрим на YouTube',
      price: 0,
      data: [p('Запись стрима:'), { kind: 'video', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
    }),
    post(8, {
      day: 14,
      title: 'Подкаст #1',
      price: 300,
      data: [p('Говорим о кистях.'), { kind: 'audio', name: 'podcast-01.mp3', artist: 'Мария Иванова', album: 'Подкаст', seconds: 2 }],
    }),
    post(9, {
      day: 13,
      title: 'Только для меценатов',
      price: 1000,
      singlePrice: 500,
      data: [p('Полный процесс.'), { kind: 'image', name: 'patron-only.png' }, { kind: 'file', name: 'patron-pack.zip' }],
      teaser: [p('Превью для всех, полный пост — для уровня «Меценат».')],
    }),
    post(10, { day: 12, title: 'Удалённый пост', price: 300, deleted: true, data: [p('Этого поста больше нет.')] }),
    post(11, {
      day: 11,
      title: '日本語タイトル — ünïcödé ✨ 🎉',
      price: 300,
      tags: ['ünïcödé'],
      data: [p('Текст: 日本語、emoji 🎨, RTL: שלום, combining: é.')],
    }),
    post(12, {
      day: 10,
      title: 'Опрос: следующая тема',
      price: 300,
      data: [p('Голосуйте!')],
      poll: {
        id: 77001,
        title: 'Что дальше?',
        options: [
          ['Портреты', 5],
          ['Пейзажи', 8],
        ],
      },
    }),
    post(13, { day: 9, title: null, price: 300, data: [p('Пост без заголовка.')] }),
  ];
  for (let i = 0; i < 3; i++)
    mariya.push(post(20 + i, { day: 5 - i, title: `Дневник #${i + 1}`, price: 300, data: [p(`Запись ${i + 1}.`)] }));
  const synth: BoostyPost[] = [
    post(30, {
      day: 25,
      title: 'Free track',
      price: 0,
      data: [p('A free loop for followers.'), { kind: 'audio', name: 'loop-free.mp3', seconds: 1 }],
    }),
    post(31, { day: 24, title: 'Patron pack', price: 200, data: [{ kind: 'file', name: 'stems.zip' }], teaser: [p('Stems for patrons.')] }),
    post(32, { day: 23, title: 'Cover art', price: 0, data: [{ kind: 'image', name: 'cover-art.png', width: 24, height: 24 }] }),
    post(33, { day: 22, title: 'Behind the scenes', price: 200, data: [p('Studio tour.')], teaser: [] }),
  ];
  return {
    user: { id: FAKE_BOOSTY_USER_ID, name: 'Fake Boosty Fan' },
    blogs: [
      {
        blogUrl: 'mariya-art',
        ownerId: 144_001,
        ownerName: 'Мария Иванова 🎨',
        title: 'Мастерская Марии',
        subscription: { levelId: 1_848_100, name: 'Патрон', price: 300, subscriptionId: 39_989_001, onTime: T0 - 10 * DAY },
        posts: mariya,
      },
      {
        blogUrl: 'synthwave-lab',
        ownerId: 144_002,
        ownerName: 'Synthwave Lab',
        title: 'Synthwave Lab',
        adult: true,
        subscription: { levelId: 1_848_200, name: 'Follower', price: 0, subscriptionId: 39_989_002, onTime: T0 - 5 * DAY },
        posts: synth,
      },
    ],
  };
}

/**
 * A dataset for the import benchmark: about `posts` posts the key can open, spread over `blogs` blogs
 * it subscribes to, each with text, a gallery image and a file (real bytes from the fake's CDN).
 */
export function benchDataset(posts: number, blogs = 3): BoostyDataset {
  const perBlog = Math.ceil(posts / blogs);
  return {
    user: { id: FAKE_BOOSTY_USER_ID, name: 'Bench Fan' },
    blogs: Array.from({ length: blogs }, (_, b) => ({
      blogUrl: `bench-blog-${b + 1}`,
      ownerId: 150_000 + b,
      ownerName: `Bench Creator ${b + 1}`,
      title: `Bench blog ${b + 1}`,
      subscription: { levelId: 1_900_000 + b, name: 'Level', price: 300, subscriptionId: 40_000_000 + b, onTime: T0 - DAY },
      posts: Array.from({ length: Math.min(perBlog, posts - b * perBlog) }, (_, i) => {
        const n = b * perBlog + i;
        return {
          id: uuidFrom(`bench:${n}`),
          intId: 6_000_000 + n,
          title: `Bench post ${n + 1}`,
          publishTime: T0 + n * 3600,
          price: 300,
          tags: ['bench'],
          data: [
            p(`Post ${n + 1}.`),
            { kind: 'image', name: `bench-${n}.png`, width: 64, height: 48 },
            { kind: 'file', name: `bench-${n}.png` },
          ],
        } satisfies BoostyPost;
      }),
    })),
  };
}
