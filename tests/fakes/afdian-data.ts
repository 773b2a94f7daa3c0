/**
 * The fake Afdian's content (creators, plans, the key's sponsorships, posts, comments) and how the web API of
 * ifdian.net / afdian.com renders it: the {ec, em, data} envelope, snake_case fields, 32-hex ids, epoch-second
 * times, `publish_sn` cursors (numbers), pics on pic1.afdiancdn.com with _w{W}_h{H}_s{KB} names, signed
 * audio/video/attachment links on vod.afdiancdn.com. Shapes from /work/research/afdian.md (the API notes
 * captured from a real account, KT's importer, QW and PF); URLs come from `AfdianHosts` so the fake (one CDN
 * origin) and the fixtures (real host names) share the renderers.
 */
import { md5Hex } from './kit/signing.ts';

export interface AfdianPic {
  name: string;
  width?: number;
  height?: number;
}

export interface AfdianComment {
  id: string;
  userName: string;
  publishTime: number;
  content: string;
  replyTo?: string;
}

export interface AfdianPost {
  postId: string;
  title: string;
  publishTime: number;
  cate: 'normal' | 'pic' | 'article' | 'audio' | 'video';
  /** HTML body; 'PIC:{name}' in an <img src> is replaced by that picture's CDN URL. */
  content: string;
  /** Plain text shown to readers without the right (and in lists of articles). */
  previewText?: string;
  pics?: AfdianPic[];
  cover?: AfdianPic;
  audio?: { name: string; seconds: number; thumb: AfdianPic };
  video?: { name: string; seconds: number; thumb: AfdianPic };
  attachments?: { name: string }[];
  /** 0: public; else the lowest monthly plan price (¥) that opens it. */
  minPrice: number;
  pinned?: boolean;
  deleted?: boolean;
  comments?: AfdianComment[];
}

export interface AfdianCreator {
  userId: string;
  slug: string;
  name: string;
  doing: string;
  detail: string;
  plans: { planId: string; title: string; price: number }[];
  /** The key's sponsorship: the plan it pays for, and whether it ran out (sponsoring_expired). */
  sponsorship: { planId: string; expired?: boolean } | null;
  posts: AfdianPost[];
  /** 作品集: posts sold together; a bought album opens its posts when they are read inside it (album_id). */
  albums?: AfdianAlbum[];
}

export interface AfdianAlbum {
  albumId: string;
  title: string;
  postIds: string[];
  /** Whether the key bought it. */
  bought: boolean;
}

export interface AfdianDataset {
  me: { userId: string; name: string; slug: string };
  creators: AfdianCreator[];
}

export interface AfdianHosts {
  /** pic1.afdiancdn.com: `/user/{uid}/{folder}/{md5}_w{W}_h{H}_s{KB}.jpeg`. */
  pic(userId: string, folder: 'avatar' | 'cover' | 'common', pic: AfdianPic): string;
  /** vod.afdiancdn.com: a signed link to `path`. */
  vod(path: string): string;
  /** Bytes of the file at a vod path (attachment sizes). */
  size?(path: string): number;
}

export const realHosts: AfdianHosts = {
  pic: (uid, folder, pic) => `https://pic1.afdiancdn.com${picPath(uid, folder, pic)}`,
  vod: (path) => `https://vod.afdiancdn.com${path}?t=66f3a2b0&us=4f9c1a&sign=3c59dc048e8850243be8079a5c74d079`,
};

export const picPath = (uid: string, folder: string, pic: AfdianPic) =>
  `/user/${uid}/${folder}/${md5Hex(`${uid}:${pic.name}`)}_w${pic.width ?? 16}_h${pic.height ?? 12}_s1.jpeg`;
export const vodPath = (post: AfdianPost, kind: 'audio' | 'video' | 'file', name: string) =>
  `/${md5Hex(post.postId).slice(0, 8)}/${kind}/${md5Hex(`${post.postId}:${name}`)}${kind === 'audio' ? '.mp3' : kind === 'video' ? '.mp4' : ''}`;

/** The creator object of lists (sponsoring, post.user). */
/** The {ec, em, data} answer of a success. */
export const ok = (data: unknown) => ({ ec: 200, em: '', data });
/** /api/my/* without a valid key (under HTTP 401, or 200 with `refusal: 'ec'`). */
export const LOGIN = { ec: 401, em: '请先登录', data: {} };
/** An unknown id ('用户', '动态'): an application error under HTTP 200. */
export const notFound = (what: string) => ({ ec: 404, em: `${what}不存在`, data: {} });

export function userObject(c: AfdianCreator, hosts: AfdianHosts) {
  return {
    user_id: c.userId,
    name: c.name,
    avatar: hosts.pic(c.userId, 'avatar', { name: 'avatar', width: 64, height: 64 }),
    url_slug: c.slug,
  };
}

export function profileObject(c: AfdianCreator, hosts: AfdianHosts, withKey: boolean) {
  return {
    user: {
      ...userObject(c, hosts),
      cover: hosts.pic(c.userId, 'cover', { name: 'cover', width: 96, height: 32 }),
      is_verified: 1,
      verified_type: 0,
      creator: { doing: c.doing, detail: c.detail, category: { name: '绘画' }, show_album: 1 },
      ...(withKey ? { is_sponsoring: c.sponsorship && !c.sponsorship.expired ? 1 : 0 } : {}),
    },
  };
}

export function sponsoringItem(c: AfdianCreator, hosts: AfdianHosts) {
  const plan = c.plans.find((p) => p.planId === c.sponsorship?.planId)!;
  return {
    user: { ...userObject(c, hosts), creator: { doing: c.doing, detail: c.detail, show_album: 1 } },
    sale_list: [
      {
        out_trade_no: `2025${md5Hex(c.userId).replace(/[a-f]/g, '').slice(0, 20).padEnd(20, '7')}`,
        plan_id: plan.planId,
        title: plan.title,
        month: 1,
        total_amount: plan.price.toFixed(2),
        show_amount: plan.price.toFixed(2),
        status: 2,
        product_type: 0,
        sku_detail: '[]',
        create_time: 1_760_862_974,
        plan: { plan_id: plan.planId, title: plan.title, price: plan.price.toFixed(2), user_id: c.userId },
      },
    ],
    new_post_count: 0,
    latest_post_update_time: Math.max(0, ...c.posts.map((p) => p.publishTime)),
  };
}

export const planIds = (c: AfdianCreator, post: AfdianPost) =>
  post.minPrice ? c.plans.filter((p) => p.price >= post.minPrice).map((p) => p.planId) : [];
export const publishSn = (post: AfdianPost) => post.publishTime * 10000 + (parseInt(post.postId.slice(0, 4), 16) % 10000);
const LOCKED_MESSAGE = '赞助对应方案后即可查看';
const strip = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * One post as get-list (list: true) or get-detail answers it. Without the right, audio/video are "", pics
 * and attachments empty and the content is the preview. Lists give articles as plain-text excerpts only.
 */
export function postObject(c: AfdianCreator, post: AfdianPost, view: { hasRight: boolean; list: boolean }, hosts: AfdianHosts) {
  const pic = (p: AfdianPic) => hosts.pic(c.userId, 'common', p);
  const right = view.hasRight;
  const fullContent = post.content.replace(/PIC:([^"]+)/g, (_, name: string) => pic({ name, width: 32, height: 24 }));
  const content = !right ? (post.previewText ?? '') : view.list && post.cate === 'article' ? strip(fullContent).slice(0, 60) : fullContent;
  return {
    post_id: post.postId,
    user_id: c.userId,
    title: post.title,
    preview_text: post.previewText ?? strip(post.content).slice(0, 60),
    group_id: '',
    type: 0,
    cate: post.cate,
    cover: post.cover ? pic(post.cover) : '',
    content,
    pics: right ? (post.pics ?? []).map(pic) : [],
    audio: right && post.audio ? hosts.vod(vodPath(post, 'audio', post.audio.name)) : '',
    audio_thumb: post.audio ? pic(post.audio.thumb) : '',
    video: right && post.video ? hosts.vod(vodPath(post, 'video', post.video.name)) : '',
    video_thumb: post.video ? pic(post.video.thumb) : '',
    ext: { audio_duration: post.audio?.seconds ?? 0, video_duration: post.video?.seconds ?? 0 },
    ...(view.list
      ? {}
      : {
          attachment: right
            ? (post.attachments ?? []).map((a) => ({
                name: a.name,
                url: hosts.vod(vodPath(post, 'file', a.name)),
                size: hosts.size?.(vodPath(post, 'file', a.name)) ?? 1024,
              }))
            : [],
        }),
    is_public: post.minPrice ? 0 : 1,
    min_price: post.minPrice.toFixed(2),
    plan_ids: planIds(c, post),
    status: 1,
    user_top: post.pinned ? 1 : 0,
    like_count: 7,
    comment_count: post.comments?.length ?? 0,
    publish_time: post.publishTime,
    publish_sn: publishSn(post),
    has_right: right ? 1 : 0,
    has_right_errMsg: right ? null : LOCKED_MESSAGE,
    albums: (c.albums ?? []).filter((a) => a.postIds.includes(post.postId)).map((a) => ({ album_id: a.albumId, title: a.title })),
    user: userObject(c, hosts),
  };
}

/** An item of get-album-list (MD id 57553753124): `bought` only means something with a key. */
export function albumObject(c: AfdianCreator, album: AfdianAlbum, hosts: AfdianHosts, withKey: boolean) {
  return {
    album_id: album.albumId,
    user_id: c.userId,
    title: album.title,
    cover: hosts.pic(c.userId, 'cover', { name: `album-${album.albumId}` }),
    content: '',
    post_count: album.postIds.length,
    order_by: 'rank asc',
    create_time: 1_746_879_015,
    update_time: 1_775_207_299,
    bought: withKey && album.bought ? 1 : 0,
  };
}

/** An item of get-album-catalog: metadata only, no media links (MD id 57553753124). */
export function catalogObject(c: AfdianCreator, post: AfdianPost, rank: number, hosts: AfdianHosts) {
  return {
    post_id: post.postId,
    title: post.title,
    cover: post.cover ? hosts.pic(c.userId, 'common', post.cover) : '',
    rank,
    has_audio: post.audio ? 1 : 0,
    ext: { audio_duration: post.audio?.seconds ?? 0, video_duration: post.video?.seconds ?? 0 },
    publish_time: post.publishTime,
  };
}

export function commentObject(c: AfdianComment, hosts: AfdianHosts, post: AfdianPost) {
  const uid = md5Hex(`fan:${c.userName}`);
  return {
    comment_id: c.id,
    post_id: post.postId,
    content: c.content,
    publish_time: c.publishTime,
    publish_sn: c.publishTime * 10000 + 1,
    like_count: 0,
    user: { user_id: uid, name: c.userName, avatar: hosts.pic(uid, 'avatar', { name: 'avatar', width: 64, height: 64 }) },
    ...(c.replyTo ? { reply_user: { name: c.replyTo } } : {}),
  };
}

export const FAKE_AFDIAN_KEY = 'f3b1c2d4e5a60718293a4b5c6d7e8f90_1764000000';
const T0 = Date.UTC(2025, 3, 1) / 1000;
const DAY = 86400;
const id = (seed: string) => md5Hex(`afdian:${seed}`);

/**
 * Three creators: 星野工作室 (sponsored at ¥30: pinned notice, text, gallery, article with an inline image
 * and a bilibili link, audio, video, attachment, a ¥60 locked post, a deleted one, unicode title, filler for
 * paging), Lumen Audio (sponsored at ¥15: posts above the plan, one of them in a bought album) and 旧梦 (sponsorship expired).
 */
export function demoDataset(): AfdianDataset {
  const hoshino = id('hoshino');
  const post = (n: number, day: number, fields: Omit<AfdianPost, 'postId' | 'publishTime'>): AfdianPost => ({
    postId: id(`post:${n}`),
    publishTime: T0 + day * DAY + n * 60,
    ...fields,
  });
  const posts: AfdianPost[] = [
    post(1, 1, {
      title: '【置顶】赞助说明',
      cate: 'normal',
      minPrice: 0,
      pinned: true,
      content: '<p>感谢支持！每月更新草图与源文件。</p>',
    }),
    post(2, 30, {
      title: '日常碎碎念',
      cate: 'normal',
      minPrice: 30,
      content: '<p>今天画了很久的背景。</p><p>明天继续 &amp; 加油！</p>',
      comments: [
        { id: id('c1'), userName: '小林', publishTime: T0 + 31 * DAY, content: '辛苦了！' },
        { id: id('c2'), userName: '星野', publishTime: T0 + 31 * DAY + 60, content: '谢谢～', replyTo: '小林' },
        { id: id('c3'), userName: 'Fan <3', publishTime: T0 + 31 * DAY + 120, content: 'Lovely <b>work</b>' },
      ],
    }),
    post(3, 29, {
      title: '四月草图合集',
      cate: 'pic',
      minPrice: 30,
      content: '<p>三张草图。</p>',
      pics: [{ name: 'sketch-1', width: 24, height: 16 }, { name: 'sketch-2' }, { name: 'sketch-3' }],
    }),
    post(4, 28, {
      title: '上色教程：云',
      cate: 'article',
      minPrice: 30,
      content:
        '<p>第一步：铺底色。</p><p><img src="PIC:clouds-step-1" /></p><p>完整视频见 <a href="https://www.bilibili.com/video/BV1xx411c7mD" target="_blank">bilibili</a>。</p>',
    }),
    post(5, 27, {
      title: '睡前故事（音频）',
      cate: 'audio',
      minPrice: 30,
      content: '<p>十分钟的睡前故事。</p>',
      audio: { name: 'story.mp3', seconds: 2, thumb: { name: 'story-thumb' } },
    }),
    post(6, 26, {
      title: '绘画过程录屏',
      cate: 'video',
      minPrice: 30,
      content: '<p>三秒延时摄影。</p>',
      video: { name: 'timelapse.mp4', seconds: 3, thumb: { name: 'video-thumb', width: 32, height: 18 } },
    }),
    post(7, 25, {
      title: '设定资料下载',
      cate: 'normal',
      minPrice: 30,
      content: '<p>附件是角色设定。</p>',
      attachments: [{ name: '角色设定资料.zip' }],
    }),
    post(8, 24, {
      title: '高级方案专属',
      cate: 'pic',
      minPrice: 60,
      previewText: '此内容为高级方案专属。',
      content: '<p>完整线稿。</p>',
      pics: [{ name: 'premium-1' }],
    }),
    post(9, 23, { title: '已删除的动态', cate: 'normal', minPrice: 30, deleted: true, content: '<p>已删除。</p>' }),
    post(10, 22, {
      title: '🌸 中文标题 · 日本語 — ünïcödé',
      cate: 'normal',
      minPrice: 30,
      content: '<p>混合文字：中文、日本語、emoji 🎨、שלום。</p>',
    }),
  ];
  for (let i = 0; i < 4; i++)
    posts.push(post(20 + i, 10 - i, { title: `周记 #${i + 1}`, cate: 'normal', minPrice: 30, content: `<p>第 ${i + 1} 周。</p>` }));
  const lumen: AfdianPost[] = [
    post(40, 20, {
      title: 'Free loop',
      cate: 'audio',
      minPrice: 0,
      content: '<p>A free loop.</p>',
      audio: { name: 'loop.mp3', seconds: 1, thumb: { name: 'loop-thumb' } },
    }),
    post(41, 19, {
      title: 'Stems for ¥50 patrons',
      cate: 'normal',
      minPrice: 50,
      previewText: 'Stems for the ¥50 plan.',
      content: '<p>Stems.</p>',
      attachments: [{ name: 'stems.zip' }],
    }),
    post(43, 17, {
      title: 'Night drive (EP track)',
      cate: 'audio',
      minPrice: 50,
      previewText: 'Part of the Night Drive EP.',
      content: '<p>Track 1 of the EP.</p>',
      audio: { name: 'night-drive.mp3', seconds: 1, thumb: { name: 'night-drive-thumb' } },
    }),
    post(42, 18, {
      title: 'Studio photo',
      cate: 'pic',
      minPrice: 15,
      content: '<p>My desk.</p>',
      pics: [{ name: 'desk', width: 20, height: 20 }],
    }),
  ];
  return {
    me: { userId: id('me'), name: '测试粉丝', slug: 'testfan' },
    creators: [
      {
        userId: hoshino,
        slug: 'hoshino',
        name: '星野工作室',
        doing: '画插画',
        detail: '插画师，每月更新。',
        plans: [
          { planId: id('plan:h30'), title: '普通赞助', price: 30 },
          { planId: id('plan:h60'), title: '高级赞助', price: 60 },
        ],
        sponsorship: { planId: id('plan:h30') },
        posts,
      },
      {
        userId: id('lumen'),
        slug: 'LumenAudio',
        name: 'Lumen Audio',
        doing: 'making music',
        detail: 'Loops and stems.',
        plans: [
          { planId: id('plan:l15'), title: 'Listener', price: 15 },
          { planId: id('plan:l50'), title: 'Producer', price: 50 },
        ],
        sponsorship: { planId: id('plan:l15') },
        posts: lumen,
        albums: [
          { albumId: id('album:ep'), title: 'Night Drive EP', postIds: [id('post:43')], bought: true },
          { albumId: id('album:stems'), title: 'All the stems', postIds: [id('post:41')], bought: false },
        ],
      },
      {
        userId: id('jiumeng'),
        slug: 'jiumeng',
        name: '旧梦',
        doing: '写小说',
        detail: '',
        plans: [{ planId: id('plan:j10'), title: '读者', price: 10 }],
        sponsorship: { planId: id('plan:j10'), expired: true },
        posts: [post(60, 5, { title: '第一章', cate: 'article', minPrice: 10, previewText: '第一章试读。', content: '<p>很久以前……</p>' })],
      },
    ],
  };
}

/**
 * The benchmark's dataset (bench/importers/afdian.ts): `posts` posts the key sees, spread over `creators`
 * creators it sponsors. Every post has a cover and a picture (real JPEGs); every 4th a zip attachment,
 * every 6th an audio file, every 10th an article with an inline image.
 */
export function benchDataset(posts: number, creators = 3): AfdianDataset {
  const list: AfdianCreator[] = Array.from({ length: creators }, (_, n) => ({
    userId: id(`bench:${n}`),
    slug: `bench${n}`,
    name: `Bench creator ${n + 1}`,
    doing: 'drawing',
    detail: '',
    plans: [{ planId: id(`bench:plan:${n}`), title: 'All posts', price: 30 }],
    sponsorship: { planId: id(`bench:plan:${n}`) },
    posts: [],
  }));
  for (let i = 0; i < posts; i++) {
    const article = i % 10 === 0;
    list[i % creators].posts.push({
      postId: id(`bench:post:${i}`),
      title: `Bench post ${i + 1}`,
      publishTime: T0 + i * 3600,
      cate: article ? 'article' : 'pic',
      minPrice: 30,
      content: `<p>Post ${i + 1}: a sketch of a forest at dusk.</p>${article ? `<p><img src="PIC:inline-${i}" /></p>` : ''}`,
      cover: { name: `cover-${i}`, width: 32, height: 24 },
      pics: [{ name: `pic-${i}`, width: 24, height: 16 }],
      ...(i % 4 === 0 ? { attachments: [{ name: `pack-${i}.zip` }] } : {}),
      ...(i % 6 === 0 ? { audio: { name: `track-${i}.mp3`, seconds: 1, thumb: { name: `track-${i}-thumb` } } } : {}),
    });
  }
  return { me: { userId: id('bench:me'), name: 'Bench fan', slug: 'benchfan' }, creators: list };
}
