/**
 * The fake Fantia's content: fanclubs with their plans, posts with their contents (galleries, files, blogs as
 * Quill ops, text, embeds, products, each unlocked by a plan or by none), the key's follows and joined
 * plans, and the demo dataset. How fantia.jp renders it is in fantia-render.ts.
 */

/** A Quill op of a blog content; `fantiaImage.album` names an album image the fake serves. */
export type FantiaOp =
  | { insert: string; attributes?: Record<string, unknown> }
  | { insert: { fantiaImage: { album: number; file: string } } }
  | { insert: { image: string } };

export interface FantiaContent {
  id: number;
  category: 'photo_gallery' | 'file' | 'blog' | 'text' | 'embed' | 'product';
  title: string | null;
  /** Plain text (text, photo_gallery, file, embed); a blog's text is its ops. */
  comment: string | null;
  photos?: { id: number; file: string; comment: string | null }[];
  /** The real name of a `file` content (its extension decides the bytes the fake serves). */
  filename?: string;
  ops?: FantiaOp[];
  embedUrl?: string;
  product?: { id: number; name: string; price: number };
  /** The cheapest plan that unlocks it; null: visible to everyone. */
  planId: number | null;
}

export interface FantiaPost {
  id: number;
  title: string;
  /** Plain text with \r\n line breaks, or null. */
  comment: string | null;
  rating: 'general' | 'adult';
  postedAt: number;
  /** Set when the post was changed after posting (the list shows 更新). */
  convertedAt: number | null;
  tags: string[];
  /** The post's thumbnail file on c.fantia.jp; null as on many posts. */
  thumb: string | null;
  isBlog?: boolean;
  contents: FantiaContent[];
  /** Gone: not listed, its API answers 404. */
  deleted?: boolean;
}

export interface FantiaPlan {
  id: number;
  price: number;
  name: string;
  description: string;
}

export interface FantiaFanclub {
  id: number;
  userId: number;
  fanclubName: string;
  creatorName: string;
  profile: string;
  icon: string | null;
  cover: string | null;
  plans: FantiaPlan[];
  posts: FantiaPost[];
}

export interface FantiaDataset {
  me: { id: number; name: string };
  fanclubs: FantiaFanclub[];
  /** Fanclubs the key follows (GET /api/v1/me/fanclubs), paid or not. */
  followed: number[];
  /** Plans the key has joined (order.status "joined"). */
  joinedPlans: number[];
}

export const postOf = (data: FantiaDataset, id: number) => {
  for (const fanclub of data.fanclubs) {
    const post = fanclub.posts.find((p) => p.id === id);
    if (post) return { fanclub, post };
  }
  return undefined;
};

export const newestFirst = (fanclub: FantiaFanclub) => fanclub.posts.filter((p) => !p.deleted).sort((a, b) => b.postedAt - a.postedAt);

const T0 = Date.UTC(2024, 4, 1, 3, 0, 0);
const DAY = 86_400_000;

/**
 * Two paid fanclubs and one only followed. ゆめかわ工房 (130541) has 22 live posts (one more deleted)
 * covering every content kind: text-only, a text content, gallery, zip, video, audio, blog with inline
 * and external images and a link, embed, product, a 1,500-yen content the key's 500-yen plan cannot
 * see, an adult post, an edited post, unicode and emoji titles, tags; Night Owl Studio (245001) has 4;
 * 無料フォロー (300777) 2, none of them visible.
 */
export function demoDataset(): FantiaDataset {
  const at = (n: number) => T0 + n * DAY;
  const text = (id: number, title: string, comment: string | null, n: number, extra: Partial<FantiaPost> = {}): FantiaPost => ({
    id,
    title,
    comment,
    rating: 'general',
    postedAt: at(n),
    convertedAt: null,
    tags: [],
    thumb: null,
    contents: [],
    ...extra,
  });
  const yume: FantiaPost[] = [
    text(2100001, '初投稿です！', 'はじめまして。\r\nよろしくお願いします。', 0, { tags: ['お知らせ'] }),
    text(2100002, 'Gallery: spring set 🌸', '春のイラスト3枚です。', 1, {
      thumb: 'b7f0c1d2-spring.jpg',
      tags: ['イラスト', 'spring'],
      contents: [
        {
          id: 3100002,
          category: 'photo_gallery',
          title: '春セット',
          comment: 'JPEG and PNG',
          planId: 11,
          photos: [
            { id: 4100001, file: 'a01ddcb7-sakura.jpg', comment: '桜' },
            { id: 4100002, file: '611669be-hanami.png', comment: null },
            { id: 4100003, file: '0d621f52-tsukushi.jpg', comment: 'つくし' },
          ],
        },
      ],
    }),
    text(2100003, '素材パック配布', '差分つきです。', 2, {
      contents: [{ id: 3100003, category: 'file', title: 'ZIP', comment: 'PSD同梱', filename: '素材パック v2.zip', planId: 11 }],
    }),
    text(2100004, 'メイキング動画', null, 3, {
      thumb: 'c3d4e5f6-making.jpg',
      contents: [{ id: 3100004, category: 'file', title: '', comment: null, filename: 'sh83-1_メイキング.mp4', planId: 11 }],
    }),
    text(2100005, 'ボイス: おやすみ', 'イヤホン推奨', 4, {
      contents: [{ id: 3100005, category: 'file', title: '音声', comment: null, filename: 'おやすみボイス.mp3', planId: 11 }],
    }),
    text(2100006, 'ブログ: 制作日記', '', 5, {
      isBlog: true,
      contents: [
        {
          id: 3100006,
          category: 'blog',
          title: '制作日記',
          comment: null,
          planId: null,
          ops: [
            { insert: '今日はラフを描きました。\n' },
            { insert: { fantiaImage: { album: 5100001, file: 'e1f2a3b4-rough.png' } } },
            { insert: '\n参考: ' },
            { insert: 'pixiv', attributes: { link: 'https://www.pixiv.net/users/1' } },
            { insert: '\n' },
            { insert: { image: 'https://example.com/outside.png' } },
            { insert: '\nおわり\n' },
          ],
        },
      ],
    }),
    text(2100007, 'YouTube 配信アーカイブ', '配信ありがとうございました', 6, {
      contents: [
        {
          id: 3100007,
          category: 'embed',
          title: 'アーカイブ',
          comment: null,
          embedUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          planId: null,
        },
      ],
    }),
    text(2100008, 'テキスト: 設定資料', '本文はコンテンツ内にあります', 7, {
      contents: [{ id: 3100008, category: 'text', title: '設定', comment: '身長: 155cm\r\n好きなもの: 🍓', planId: 11 }],
    }),
    text(2100009, '上位プラン限定 高解像度版', '1500円プラン向け', 8, {
      contents: [
        { id: 3100009, category: 'text', title: 'お知らせ', comment: '全員に見えます', planId: null },
        {
          id: 3100010,
          category: 'photo_gallery',
          title: '高解像度',
          comment: null,
          planId: 12,
          photos: [{ id: 4100009, file: '9a8b7c6d-hires.png', comment: null }],
        },
      ],
    }),
    text(2100010, '成人向け: 差分', '18歳未満閲覧禁止', 9, {
      rating: 'adult',
      contents: [
        {
          id: 3100011,
          category: 'photo_gallery',
          title: '差分',
          comment: null,
          planId: 11,
          photos: [{ id: 4100010, file: 'adadadad-variant.png', comment: null }],
        },
      ],
    }),
    text(2100011, '新作ショップ情報', 'BOOTHでも', 10, {
      contents: [
        {
          id: 3100012,
          category: 'product',
          title: '商品',
          comment: null,
          planId: null,
          product: { id: 900001, name: '画集 Vol.1', price: 1200 },
        },
      ],
    }),
    text(2100012, '修正版アップしました', '誤字を直しました', 11, { convertedAt: at(12) + 3600_000 }),
    text(2100013, '消えた投稿', 'この投稿は削除されました', 12, { deleted: true }),
    text(2100014, '🎉 100人達成！ありがとう 🙏', '記念イラストは来週！\r\n🎂🎂🎂', 13, { tags: ['記念', '🎉'] }),
  ];
  for (let i = 0; i < 9; i++) yume.push(text(2100020 + i, `日記 ${i + 1}`, `${i + 1}日目の日記`, 14 + i));
  const owl: FantiaPost[] = [
    text(2200001, 'Hello from Night Owl', 'First post.', 0, { thumb: 'owl-first.jpg' }),
    text(2200002, 'Night sketch', 'Sketch', 1, {
      contents: [
        {
          id: 3200002,
          category: 'photo_gallery',
          title: '',
          comment: null,
          planId: 21,
          photos: [{ id: 4200001, file: 'owl-sketch.png', comment: null }],
        },
      ],
    }),
    text(2200003, 'Brushes', 'My brushes', 2, {
      contents: [{ id: 3200003, category: 'file', title: 'brushes', comment: null, filename: 'owl brushes.zip', planId: 21 }],
    }),
    text(2200004, 'Free note', 'Thanks!', 3),
  ];
  const follow: FantiaPost[] = [
    text(2300001, '無料フォロー向け', '見えません', 0, {
      contents: [{ id: 3300001, category: 'text', title: '', comment: 'secret', planId: 31 }],
    }),
    text(2300002, '有料のみ', '見えません', 1, {
      contents: [{ id: 3300002, category: 'file', title: '', comment: null, filename: 'x.zip', planId: 31 }],
    }),
  ];
  return {
    me: { id: 7000001, name: 'テスト支援者' },
    fanclubs: [
      {
        id: 130541,
        userId: 52152,
        fanclubName: 'ゆめかわ工房',
        creatorName: '夢川ユメ',
        profile: 'ゆめかわいいイラストを描いています。',
        icon: '5c1c8f2e-icon.jpg',
        cover: '8d3e2a10-cover.png',
        plans: [
          { id: 10, price: 0, name: '無料プラン', description: 'フォロー' },
          { id: 11, price: 500, name: 'ラフプラン', description: 'ラフと差分' },
          { id: 12, price: 1500, name: '高解像度プラン', description: '高解像度版' },
        ],
        posts: yume,
      },
      {
        id: 245001,
        userId: 61001,
        fanclubName: 'Night Owl Studio',
        creatorName: 'Owl',
        profile: 'Night drawings.',
        icon: 'owl-icon.png',
        cover: null,
        plans: [{ id: 21, price: 300, name: 'Supporter', description: 'All posts' }],
        posts: owl,
      },
      {
        id: 300777,
        userId: 61777,
        fanclubName: '無料フォロー',
        creatorName: 'フォロー先',
        profile: '',
        icon: null,
        cover: null,
        plans: [{ id: 31, price: 1000, name: '有料', description: '' }],
        posts: follow,
      },
    ],
    followed: [130541, 245001, 300777],
    joinedPlans: [10, 11, 21],
  };
}
