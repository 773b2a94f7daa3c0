/**
 * The fake CandFans' content and how candfans.jp/api renders it: the {status, message, data}
 * envelope, users with relative image paths (prefixed with image.candfans.jp by clients), plans, and
 * timeline posts with contents_type / post_type, contents_path1..4, thumbnail_file, plans[] with
 * is_joined_plan and attachments[{default, low}] (absolute URLs: image.candfans.jp for images,
 * video.candfans.jp for HLS video). Shapes follow /work/research/candfans.md sections 2-3 and the
 * recorded answers of komanushi/candfans-client tests/data (get-user-mine, get-users, get-follow,
 * get-timeline) and its models/timeline.py field list.
 */

export type CandfansKind = 'text' | 'images' | 'video' | 'audio';

export interface CandfansPlan {
  id: number;
  name: string;
  price: number;
  detail: string;
  joined: boolean;
}

export interface CandfansPost {
  id: number;
  /** JST wall time 'YYYY-MM-DD HH:MM:SS'. */
  date: string;
  kind: CandfansKind;
  /** 0 public, 1 plan-limited, 2 sold individually, 3 back-number. */
  postType: 0 | 1 | 2 | 3;
  title: string;
  text: string;
  /** uuid-like file stems: one per image, one for a video or audio. */
  files: string[];
  /** The plans that unlock it (plan-limited and back-number posts). */
  planIds: number[];
  price?: number;
  limitDate?: string;
}

export interface CandfansCreator {
  id: number;
  code: string;
  name: string;
  profileText: string;
  plans: CandfansPlan[];
  followed: boolean;
  posts: CandfansPost[];
}

export interface CandfansDataset {
  me: { id: number; code: string; name: string; email: string };
  creators: CandfansCreator[];
  /** Followed accounts without content here (they fill the follow list's pages). */
  otherFollows: { id: number; code: string; name: string }[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const jst = (day: number, hour = 21) => `2024-02-${pad(day)} ${pad(hour)}:${pad(day % 60)}:15`;

/** Sakura (plan 'ライト' joined, 'プレミアム' not: 20 posts of every kind) and Ren (followed only). */
export function demoDataset(): CandfansDataset {
  let postId = 880000;
  let file = 0;
  const stem = () => `${(0xa1b2c3d4 + ++file * 7919).toString(16)}-${(1000 + file).toString(16)}-4e1c-9b2a-5f6d7e8a9b0c`;
  const p = (
    day: number,
    kind: CandfansKind,
    postType: CandfansPost['postType'],
    title: string,
    text: string,
    extra: Partial<CandfansPost> = {},
  ): CandfansPost => ({
    id: (postId += 11),
    date: jst(day),
    kind,
    postType,
    title,
    text,
    files: kind === 'text' ? [] : kind === 'images' ? [stem(), stem(), stem()] : [stem()],
    planIds: postType === 1 || postType === 3 ? [501] : [],
    ...extra,
  });
  const sakura: CandfansPost[] = [
    p(1, 'text', 0, 'はじめまして', 'CandFansはじめました！よろしくお願いします。'),
    p(2, 'images', 1, '撮影オフショット', '今日の撮影のオフショットです📸 #撮影 #オフショット'),
    p(3, 'images', 1, '一枚だけ', 'お気に入りの一枚', { files: [stem()] }),
    p(4, 'video', 1, 'メイキング動画', '撮影の裏側を動画で。\n#メイキング #撮影'),
    p(5, 'audio', 1, 'ボイスメッセージ', 'おやすみボイスです🌙'),
    p(6, 'images', 1, 'プレミアム限定', '上位プラン限定の写真です。', { planIds: [502] }),
    p(7, 'video', 2, '単品販売の動画', '単品でご購入いただけます。', { price: 1500 }),
    p(8, 'images', 3, 'バックナンバー', '先月のバックナンバーです。', { planIds: [502] }),
    p(9, 'images', 1, '絵文字とUnicode ✨ «Ünïcödé»', '改行も\nあります & <b>タグではない</b>', { files: [stem()] }),
    p(10, 'text', 0, 'お知らせ', 'ウィッシュリストはこちら https://example.com/wishlist'),
    p(11, 'images', 1, '期間限定公開', '月末まで公開です。', { files: [stem()], limitDate: '2024-02-29 23:59:59' }),
  ];
  for (let d = 12; d <= 20; d++)
    sakura.push(p(d, d % 2 ? 'images' : 'text', 1, `日記 ${d}`, `今日の日記 ${d}`, d % 2 ? { files: [stem()] } : {}));
  return {
    me: { id: 7700001, code: '', name: 'fan_account', email: 'fan@example.com' },
    creators: [
      {
        id: 9000001,
        code: 'sakura_cf',
        name: 'さくら Sakura',
        profileText: '写真と声のクリエイターです。',
        plans: [
          { id: 501, name: 'ライト', price: 1000, detail: '日常の写真と動画', joined: true },
          { id: 502, name: 'プレミアム', price: 3000, detail: '限定写真とバックナンバー', joined: false },
        ],
        followed: true,
        posts: sakura,
      },
      {
        id: 9000002,
        code: 'ren_sound',
        name: 'Ren',
        profileText: 'Sound and video.',
        plans: [{ id: 601, name: 'Basic', price: 500, detail: 'All posts', joined: false }],
        followed: true,
        posts: [
          {
            id: 890001,
            date: jst(3, 12),
            kind: 'text',
            postType: 0,
            title: 'Hello',
            text: 'Free post for everyone.',
            files: [],
            planIds: [],
          },
          {
            id: 890002,
            date: jst(4, 12),
            kind: 'images',
            postType: 0,
            title: 'Studio',
            text: 'My studio.',
            files: ['0ren-studio-0001'],
            planIds: [],
          },
          {
            id: 890003,
            date: jst(5, 12),
            kind: 'video',
            postType: 1,
            title: 'Session',
            text: 'Members only.',
            files: ['0ren-session-0002'],
            planIds: [601],
          },
        ],
      },
    ],
    otherFollows: Array.from({ length: 9 }, (_, i) => ({ id: 9100001 + i, code: `follow_${i + 1}`, name: `Follow ${i + 1}` })),
  };
}

/**
 * The benchmark's dataset: about `posts` image posts (a thumbnail and one image each, every one visible
 * through a joined plan) over three creators, nothing else followed.
 */
export function benchDataset(posts: number): CandfansDataset {
  const creators: CandfansCreator[] = ['Bench Aoi', 'Bench Ben', 'Bench Cleo'].map((name, c) => ({
    id: 9500001 + c,
    code: `bench_${c + 1}`,
    name,
    profileText: '',
    plans: [{ id: 7001 + c, name: 'Bench', price: 1000, detail: 'Everything', joined: true }],
    followed: true,
    posts: [],
  }));
  for (let n = 0; n < posts; n++) {
    const creator = creators[n % creators.length];
    const day = new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString();
    creator.posts.push({
      id: 700000 + n,
      date: `${day.slice(0, 10)} ${day.slice(11, 19)}`,
      kind: 'images',
      postType: 1,
      title: `Bench post ${n + 1}`,
      text: `Bench post ${n + 1} #bench`,
      files: [`bench-${n + 1}-0001`],
      planIds: [creator.plans[0].id],
    });
  }
  return { me: { id: 7700009, code: '', name: 'bench_fan', email: 'bench@example.com' }, creators, otherFollows: [] };
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderContext {
  image: string;
  video: string;
}

const ext = (kind: CandfansKind) => (kind === 'images' ? 'jpg' : kind === 'audio' ? 'mp3' : '');
export const postDir = (creator: { id: number }, post: { id: number }) => `/user/${creator.id}/post/${post.id}`;
export const profilePaths = (creator: { id: number }) => ({
  icon: `/user/${creator.id}/profile/icon-${creator.id}.jpg`,
  cover: `/user/${creator.id}/profile_cover/cover-${creator.id}.jpg`,
});

/** Paths of a post's files: images and audio as files, video as master / high / low playlists. */
export function filePaths(creator: CandfansCreator, post: CandfansPost) {
  const dir = postDir(creator, post);
  return {
    thumbnail: `${dir}/thumbnail.jpg`,
    files: post.files.map((s) => (post.kind === 'video' ? `${dir}/${s}_high.m3u8` : `${dir}/${s}.${ext(post.kind)}`)),
    master: post.kind === 'video' ? `${dir}/${post.files[0]}.m3u8` : null,
    low: post.kind === 'video' ? `${dir}/${post.files[0]}_low.m3u8` : null,
  };
}

export const canBrowse = (creator: CandfansCreator, post: CandfansPost) =>
  post.postType === 0 || (post.postType === 1 && post.planIds.some((id) => creator.plans.find((plan) => plan.id === id)?.joined));

const contentsType = { text: 0, images: 1, video: 2, audio: 3 } as const;

export function renderPost(ctx: RenderContext, creator: CandfansCreator, post: CandfansPost) {
  const ok = canBrowse(creator, post);
  const paths = filePaths(creator, post);
  const host = post.kind === 'images' ? ctx.image : ctx.video;
  const visiblePaths = ok ? paths.files : [];
  return {
    month: post.date.slice(0, 7),
    post_id: post.id,
    user_id: creator.id,
    user_code: creator.code,
    username: creator.name,
    profile_img: profilePaths(creator).icon,
    profile_cover_img: profilePaths(creator).cover,
    post_date: post.date,
    contents_type: contentsType[post.kind],
    post_type: post.postType,
    title: post.title,
    contents_text: ok ? post.text : '',
    over_contents_50str: [...post.text].length > 50 ? 1 : 0,
    price: post.price ?? 0,
    limit_post_date: post.limitDate ?? '',
    reserve_post_date: '',
    contents_path1: visiblePaths[0] ?? '',
    contents_path2: visiblePaths[1] ?? '',
    contents_path3: visiblePaths[2] ?? '',
    contents_path4: visiblePaths[3] ?? '',
    image_count: post.kind === 'images' ? post.files.length : 0,
    movie_time: post.kind === 'video' ? 3.0 : null,
    audio_time: post.kind === 'audio' ? 1.567 : null,
    sample_time: null,
    sample_file: null,
    secret_file: '',
    thumbnail_file: post.kind === 'text' ? '' : paths.thumbnail,
    has_own_thumbnail: post.kind === 'text' ? 0 : 1,
    like_cnt: 4,
    comments_cnt: 0,
    chip_cnt: 0,
    is_like: 0,
    can_browsing: ok ? 1 : 0,
    can_send_chip: 1,
    r18: 1,
    apply_status: 1,
    is_progressed: true,
    is_accept_comment: 1,
    can_read_text: ok,
    is_official_creator: 0,
    is_on_air: false,
    live_url: '',
    share_count: 0,
    plans: post.planIds.map((id) => {
      const plan = creator.plans.find((x) => x.id === id)!;
      return {
        plan_id: plan.id,
        support_price: plan.price,
        total_support_price: Math.round(plan.price * 1.05),
        plan_name: plan.name,
        plan_detail: plan.detail,
        backnumber_id: post.postType === 3 ? plan.id * 10 : null,
        backnumber_price: post.postType === 3 ? plan.price : null,
        total_backnumber_price: post.postType === 3 ? Math.round(plan.price * 1.05) : null,
        can_see_backnumber_plan_pay: 1,
        can_buy_backnumber_not_entry_plan: 0,
        add_backnumber_date: post.postType === 3 ? '2024-03-01 00:00:00' : null,
        is_joined_plan: plan.joined,
      };
    }),
    attachments: ok
      ? post.kind === 'video'
        ? [{ default: `${ctx.video}${paths.master}`, low: `${ctx.video}${paths.low}` }]
        : paths.files.map((path) => ({ default: `${host}${path}`, low: null }))
      : [],
    attachment_length: ok ? (post.kind === 'video' ? 1 : paths.files.length) : 0,
  };
}

/** One post as get-timeline/{post_id} answers it: the same fields plus post_attachments. */
export function renderPostDetail(ctx: RenderContext, creator: CandfansCreator, post: CandfansPost) {
  const base = renderPost(ctx, creator, post);
  const ok = canBrowse(creator, post);
  return {
    ...base,
    post_attachments: ok
      ? post.files.map((s, i) => ({
          post_id: post.id,
          uuid: s,
          sort: i + 1,
          default_path: post.kind === 'video' ? `${s}_high.m3u8` : `${s}.${ext(post.kind)}`,
          file_type: contentsType[post.kind],
          video_key: post.kind === 'video' ? s : null,
        }))
      : [],
  };
}

export function renderPlan(creator: CandfansCreator, plan: CandfansPlan) {
  return {
    plan_id: plan.id,
    user_id: creator.id,
    thanks_message_template_id: plan.id + 9000,
    plan_name: plan.name,
    support_price: plan.price,
    total_support_price: Math.round(plan.price * 1.05),
    plan_detail: plan.detail,
    r18: 1,
    status: 1,
    fans_cnt: 50,
    is_fans: plan.joined ? 1 : 0,
    is_price_update: null,
    change_support_price: null,
    content_length: creator.posts.filter((p) => p.planIds.includes(plan.id)).length,
    delete_at: null,
    backnumber_price: plan.price,
    limit_after_backnumber: 0,
    this_month_after_backnumber: 1,
    can_see_backnumber_plan_pay: 1,
    can_buy_backnumber_not_entry_plan: 0,
    done_transfar_backnumber: 0,
    done_transfar_limit_backnumber: 0,
    entry_disabled: 0,
    upper_limit_entry_cnt: null,
  };
}

export function renderUser(creator: CandfansCreator, viewerFollows: boolean) {
  const p = profilePaths(creator);
  return {
    id: creator.id,
    user_code: creator.code,
    username: creator.name,
    profile_img: p.icon,
    profile_cover_img: p.cover,
    profile_text: creator.profileText,
    apeal_img1: '',
    apeal_img2: '',
    apeal_img3: '',
    link_twitter: `https://x.com/${creator.code}`,
    link_instagram: '',
    link_tiktok: '',
    link_youtube: '',
    link_amazon: '',
    link_facebook: '',
    link_website: '',
    follower_cnt: 100,
    follow_cnt: 15,
    like_cnt: 100,
    fans_cnt: 50,
    post_cnt: creator.posts.length,
    image_cnt: creator.posts.filter((x) => x.kind === 'images').length,
    movie_cnt: creator.posts.filter((x) => x.kind === 'video').length,
    is_follow: viewerFollows,
    is_fansed: creator.plans.some((plan) => plan.joined),
    is_ban: false,
    delete_at: null,
    is_official_creator: false,
    is_on_air: false,
    live_url: '',
  };
}

/** The API's {status, message, data} envelope. */
export const envelope = <T>(message: string, data: T) => ({ status: 'SUCCESS', message, data });

/** GET /api/contents/get-timeline with these posts. */
export const timelineAnswer = (ctx: RenderContext, creator: CandfansCreator, posts: CandfansPost[]) =>
  envelope(
    'タイムラインを取得しました。',
    posts.map((p) => renderPost(ctx, creator, p)),
  );

/** GET /api/contents/get-timeline/{post_id}. */
export const postAnswer = (ctx: RenderContext, creator: CandfansCreator, post: CandfansPost) =>
  envelope('投稿を取得しました。', { post: renderPostDetail(ctx, creator, post) });

/** GET /api/user/get-users?user_code= (`viewerFollows`: the key's account follows the creator). */
export const userAnswer = (creator: CandfansCreator, viewerFollows: boolean) =>
  envelope('ユーザー情報を取得しました。', {
    user: renderUser(creator, viewerFollows),
    plans: creator.plans.map((p) => renderPlan(creator, p)),
  });
