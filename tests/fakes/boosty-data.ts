/**
 * The fake Boosty's content: blogs, subscription levels, posts (bodies as content items), comments and
 * polls, the URL hosts, the stable ids, the demo key, and the demo and benchmark datasets. How
 * api.boosty.to renders it is in boosty-render.ts. Shapes from /work/research/boosty.md (gallery-dl,
 * boosty-downloader's fixture, boosty_api_rs's fixtures, BoostBuddy's models). URLs come from a
 * `BoostyHosts` so the same renderers serve the fake (one CDN origin) and the fixtures (the real host names).
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
