/**
 * The fake Fantia's content and how fantia.jp renders it: the JSON of /api/v1/posts/{id},
 * /api/v1/fanclubs/{id} and the post summaries (field lists from the typed models and captures cited in
 * /work/research/fantia.md §2.3-2.5: reynn/grabber post.rs/fanclub.rs, RoefQwQ/chorusdesk fixtures,
 * gallery-dl's test results), with URLs on three hosts: fantia.jp (`site`), c.fantia.jp (`c`, plain
 * public images) and cc.fantia.jp (`cc`, CloudFront-signed content files). The fake folds c and cc onto
 * one CDN server; the fixtures (fantia-fixtures.ts) use the real hosts.
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

/** What a rendering needs: the hosts, the signer of cc URLs, and who is looking. */
export interface FantiaView {
  site: string;
  c: string;
  cc: string;
  /** The query of a signed cc URL for this path ('Key-Pair-Id=...&Policy=...&Signature=...'). */
  sign(path: string): string;
  joinedPlans: Set<number>;
  /** The account's adult setting (user[rating] = adult). */
  adult: boolean;
  /** The opaque query of a blog image's /posts/{id}/album_image link. */
  albumQuery(postId: number, albumId: number): string;
}

const JST = 9 * 3600_000;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Fantia's posted_at: RFC 2822 in Japan time, 'Thu, 10 Mar 2022 01:46:12 +0900'. */
export function rfc2822Jst(ms: number): string {
  const d = new Date(ms + JST);
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0900`;
}

/** converted_at: ISO 8601 in Japan time with milliseconds, '2022-03-10T01:46:12.000+09:00'. */
export const isoJst = (ms: number) => new Date(ms + JST).toISOString().replace('Z', '+09:00');

/** The list page's date text, 'YYYY-MM-DD HH:MM' (Japan time). */
export const listDateJst = (ms: number) => isoJst(ms).slice(0, 16).replace('T', ' ');

export const postOf = (data: FantiaDataset, id: number) => {
  for (const fanclub of data.fanclubs) {
    const post = fanclub.posts.find((p) => p.id === id);
    if (post) return { fanclub, post };
  }
  return undefined;
};

/** The API's answer for a missing or deleted post or fanclub (404). */
export const NOT_FOUND = { error_text: 'ページが見つかりませんでした' };

export const newestFirst = (fanclub: FantiaFanclub) => fanclub.posts.filter((p) => !p.deleted).sort((a, b) => b.postedAt - a.postedAt);

const publicImage = (v: FantiaView, dir: string, file: string, variants: string[]) =>
  Object.fromEntries(variants.map((k) => [k, `${v.c}/uploads/${dir}/${k === 'original' ? '' : `${k}_`}${file}`]));

function renderPlan(v: FantiaView, plan: FantiaPlan, withOrder: boolean) {
  const base = {
    id: plan.id,
    price: plan.price,
    name: plan.name,
    description: plan.description,
    limit: 0,
    thumb: `${v.site}/images/fallback/plan/thumb_default.png`,
  };
  if (!withOrder) return base;
  return {
    ...base,
    vacant_seat: '',
    order: v.joinedPlans.has(plan.id) ? { status: 'joined', is_oneclick: false, uri: `/orders/plan/${plan.id}` } : null,
  };
}

/** The fanclub object of GET /api/v1/fanclubs/{id} (and post.fanclub). */
export function renderFanclub(v: FantiaView, fc: FantiaFanclub) {
  const icon = fc.icon
    ? publicImage(v, `fanclub/icon_image/${fc.id}`, fc.icon, ['thumb', 'thumb_webp', 'main', 'original'])
    : { thumb: '', thumb_webp: '', main: '', original: '' };
  const cover = fc.cover
    ? publicImage(v, `fanclub/cover_image/${fc.id}`, fc.cover, ['thumb', 'medium', 'main', 'ogp', 'original'])
    : { thumb: '', medium: '', main: '', ogp: '', original: '' };
  const userImage = fc.icon
    ? publicImage(v, `user/image/${fc.userId}`, fc.icon, ['small', 'medium', 'large'])
    : { small: '', medium: '', large: '' };
  return {
    id: fc.id,
    user: {
      id: fc.userId,
      toranoana_identify_token: `tora${fc.userId}`,
      name: fc.creatorName,
      image: userImage,
      profile_text: fc.profile,
      has_fanclub: true,
    },
    category: {
      id: 1,
      name: 'イラスト',
      slug: 'illust',
      uri: { fanclub: '/fanclubs?category=illust', products: '/products?category=illust', posts: '/posts?category=illust' },
    },
    name: fc.fanclubName,
    fanclub_name: fc.fanclubName,
    creator_name: fc.creatorName,
    fanclub_name_with_creator_name: `${fc.fanclubName} (${fc.creatorName})`,
    fanclub_name_or_creator_name: fc.fanclubName || fc.creatorName,
    title: fc.fanclubName,
    comment: fc.profile,
    cover,
    icon,
    background: null,
    is_join: fc.plans.some((p) => v.joinedPlans.has(p.id)),
    fan_count: 120 + fc.posts.length,
    posts_count: newestFirst(fc).length,
    products_count: 0,
    uri: {
      show: `/fanclubs/${fc.id}`,
      posts: `/fanclubs/${fc.id}/posts`,
      plans: `/fanclubs/${fc.id}/plans`,
      products: `/fanclubs/${fc.id}/products`,
      users: `/fanclubs/${fc.id}/users`,
    },
    is_blocked: false,
    user_support_point: 0,
    recent_posts: newestFirst(fc)
      .slice(0, 3)
      .map((p) => renderSummary(v, p)),
    recent_products: [],
    plans: fc.plans.map((p) => renderPlan(v, p, true)),
    point_top_users: [],
    support_point: 0,
    support_point_goals: [],
  };
}

/** A post summary (fanclub.recent_posts[], timelines, post.links). */
export function renderSummary(v: FantiaView, post: FantiaPost) {
  const thumb = post.thumb
    ? publicImage(v, `post/file/${post.id}`, post.thumb, [
        'thumb',
        'thumb_webp',
        'medium',
        'medium_webp',
        'large',
        'main',
        'main_webp',
        'ogp',
        'blurred_ogp',
        'micro',
        'blurred_image',
        'original',
      ])
    : null;
  return {
    id: post.id,
    title: post.title,
    comment: post.comment,
    tags: post.tags.map((name) => ({ name, uri: `/posts?tag=${encodeURIComponent(name)}` })),
    rating: post.rating,
    thumb,
    thumb_micro: `${v.c}/uploads/post/file/${post.id}/micro_${post.thumb ?? 'fallback.jpg'}`,
    show_adult_thumb: post.rating === 'adult' && v.adult,
    posted_at: rfc2822Jst(post.postedAt),
    likes_count: 3,
    liked: false,
    is_contributor: false,
    uri: { show: `/posts/${post.id}`, edit: null },
    is_pulish_open: true,
    is_blog: !!post.isBlog,
    converted_at: isoJst(post.convertedAt ?? post.postedAt),
    fanclub_brand: 0,
    special_reaction: null,
    redirect_url_from_save: `/posts/${post.id}`,
  };
}

export function visibleStatus(v: FantiaView, fc: FantiaFanclub, post: FantiaPost, content: FantiaContent): string {
  if (post.rating === 'adult' && !v.adult) return 'adult_only';
  if (content.planId === null) return 'visible';
  const need = fc.plans.find((p) => p.id === content.planId)?.price ?? Infinity;
  return fc.plans.some((p) => v.joinedPlans.has(p.id) && p.price >= need) ? 'visible' : 'uncatchable';
}

const signedUrl = (v: FantiaView, path: string) => `${v.cc}${path}?${v.sign(path)}`;
const endpoints = (kind: string, id: number) => ({
  get_url: `/api/v1/${kind}/${id}/comments`,
  post_uri: `/api/v1/${kind}/${id}/comments`,
  delete_uri: `/api/v1/${kind}/${id}/comments`,
});

/** The Quill delta string of a blog content, with fantiaImage ops rendered as fantia.jp answers them. */
export function blogDelta(v: FantiaView, post: FantiaPost, ops: FantiaOp[]): string {
  return JSON.stringify({
    ops: ops.map((op) => {
      if (typeof op.insert === 'object' && 'fantiaImage' in op.insert) {
        const { album, file } = op.insert.fantiaImage;
        return {
          insert: {
            fantiaImage: {
              id: String(album),
              url: signedUrl(v, `/uploads/album_image/file/${album}/main_${file}`),
              original_url: `/posts/${post.id}/album_image?query=${v.albumQuery(post.id, album)}`,
            },
          },
        };
      }
      return op;
    }),
  });
}

export function renderContent(v: FantiaView, fc: FantiaFanclub, post: FantiaPost, c: FantiaContent) {
  const status = visibleStatus(v, fc, post, c);
  const visible = status === 'visible';
  const plan = c.planId === null ? null : (fc.plans.find((p) => p.id === c.planId) ?? null);
  const out: Record<string, unknown> = {
    id: c.id,
    title: c.title ?? '',
    visible_status: status,
    published_state: 'published',
    category: c.category,
    comment: !visible ? null : c.category === 'blog' ? blogDelta(v, post, c.ops ?? []) : c.comment,
    embed_url: visible && c.category === 'embed' ? (c.embedUrl ?? null) : null,
    content_type: c.category === 'file' ? fileType(c.filename ?? '') : null,
    comments: endpoints('post_contents', c.id),
    comments_reactions: endpoints('post_contents', c.id),
    embed_api_url: `/api/v1/post_contents/${c.id}/embed`,
    reactions: endpoints('post_contents', c.id),
    reaction_types_url: '/api/v1/reaction_types',
    post_content_photos_micro:
      visible && c.photos ? c.photos.map((p) => signedUrl(v, `/uploads/post_content_photo/file/${p.id}/micro_${p.file}`)) : [],
    plan: plan ? renderPlan(v, plan, false) : null,
    product: c.product ? { id: c.product.id, name: c.product.name, price: c.product.price, uri: `/products/${c.product.id}` } : null,
    onsale_backnumber: null,
    backnumber_link: null,
    join_status: null,
    parent_post: { title: post.title, url: `/posts/${post.id}`, date: rfc2822Jst(post.postedAt), deadline: '' },
    post_content_comment_data: { comments: [], is_finish: true },
    comment_count: 0,
    is_converted: true,
  };
  if (c.category === 'photo_gallery' && visible) {
    out.post_content_photos = (c.photos ?? []).map((p) => ({
      id: p.id,
      url: Object.fromEntries(
        ['thumb', 'medium', 'large', 'main', 'micro', 'original'].map((k) => [
          k,
          signedUrl(v, `/uploads/post_content_photo/file/${p.id}/${k === 'original' ? '' : `${k}_`}${p.file}`),
        ]),
      ),
      comment: p.comment,
      show_original_uri: `/posts/${post.id}/post_content_photo/${p.id}`,
      is_converted: true,
    }));
  }
  if (c.category === 'file') {
    out.filename = c.filename;
    if (visible) {
      out.download_uri = `/posts/${post.id}/download/${c.id}`;
      out.hls_uri = null;
    }
  }
  return out;
}

export function fileType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase();
  return ext === 'mp4'
    ? 'video/mp4'
    : ext === 'mp3'
      ? 'audio/mpeg'
      : ext === 'zip'
        ? 'application/zip'
        : ext === 'pdf'
          ? 'application/pdf'
          : ext === 'png'
            ? 'image/png'
            : 'application/octet-stream';
}

/** GET /api/v1/posts/{id}: {"post": {...}}. */
export function renderPost(v: FantiaView, fc: FantiaFanclub, post: FantiaPost) {
  const list = newestFirst(fc);
  const at = list.findIndex((p) => p.id === post.id);
  const older = at >= 0 ? list[at + 1] : undefined;
  const newer = at > 0 ? list[at - 1] : undefined;
  return {
    post: {
      ...renderSummary(v, post),
      fanclub: renderFanclub(v, fc),
      status: 'open',
      post_contents: post.contents.map((c) => renderContent(v, fc, post, c)),
      deadline: '',
      publish_reserved_at: null,
      comments: endpoints('posts', post.id),
      blog_comment: post.isBlog ? blogDelta(v, post, post.contents.find((c) => c.category === 'blog')?.ops ?? []) : '',
      comments_reactions: endpoints('posts', post.id),
      reactions: endpoints('posts', post.id),
      reaction_types_url: '/api/v1/reaction_types',
      ogp_api_url: `/api/v1/posts/${post.id}/ogp`,
      links: { previous: older ? renderSummary(v, older) : null, next: newer ? renderSummary(v, newer) : null },
      is_fanclub_tip_accept: false,
      is_fanclub_joined: fc.plans.some((p) => v.joinedPlans.has(p.id)),
      post_comments: [],
      post_content_comments: post.contents.map((c) => ({ post_content_id: c.id, comments: [], is_finish: true })),
      comment_count: 0,
      comment_block_status: false,
    },
  };
}

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
