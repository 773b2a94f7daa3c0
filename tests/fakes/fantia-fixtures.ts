/**
 * Recorded-shape fixtures of Fantia's GET /api/v1/posts/{id} answer, one per content kind, on the real
 * hosts (fantia.jp, c.fantia.jp, cc.fantia.jp), for table-driven mapper tests. Every fixture is the
 * whole answer body. Sources (see /work/research/fantia.md §7):
 *   - post and fanclub field lists: reynn/grabber src/collectors/fantia_jp/post.rs and fanclub.rs
 *     (serde models of real answers), the Go `core` structs (GOX), mnao305/fantia-dl-tool types;
 *   - post_contents entries, null comment/thumb, thumb_micro, file names with Japanese text:
 *     RoefQwQ/chorusdesk tests/fixtures/fantia/post-photo-gallery.json and post-video-null-comment.json;
 *   - blog Quill deltas (fantiaImage with url/original_url, insert.image, link attributes): gallery-dl,
 *     fantiadl 4f3be99, mnao305 src/types/blog.d.ts, chorusdesk club-recent-posts.json;
 *   - visible_status "uncatchable" / "adult_only": gallery-dl issues #4273 and #5573;
 *   - {"redirect":"/recaptcha"}: Cultured-Downloader-CLI models/fantia.go;
 *   - dates: RFC 2822 posted_at (gallery-dl test results), ISO converted_at (fantiadl).
 * Values (ids, names, signatures) are made up; the 404 body of a deleted post is a guess (no source).
 */

const SIGNED = 'Key-Pair-Id=APKAEXAMPLEKEYPAIR&Policy=eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoiaHR0cHM6Ly9jYy5mYW50aWEuanAvIn1dfQ__&Signature=Zm9v~YmFy';
const cc = (path: string) => `https://cc.fantia.jp${path}?${SIGNED}`;
const endpoints = (kind: string, id: number) => ({ get_url: `/api/v1/${kind}/${id}/comments`, post_uri: `/api/v1/${kind}/${id}/comments`, delete_uri: `/api/v1/${kind}/${id}/comments` });

/** fanclub of a post (grabber fanclub.rs; icon keys verbatim from chorusdesk club-recent-posts.json). */
export const FANCLUB = {
  id: 130541,
  user: {
    id: 52152,
    toranoana_identify_token: 'tora52152',
    name: '夢川ユメ',
    image: { small: 'https://c.fantia.jp/uploads/user/image/52152/small_5c1c8f2e-icon.jpg', medium: 'https://c.fantia.jp/uploads/user/image/52152/medium_5c1c8f2e-icon.jpg', large: 'https://c.fantia.jp/uploads/user/image/52152/large_5c1c8f2e-icon.jpg' },
    profile_text: 'ゆめかわいいイラストを描いています。',
    has_fanclub: true,
  },
  category: { id: 1, name: 'イラスト', slug: 'illust', uri: { fanclub: '/fanclubs?category=illust', products: '/products?category=illust', posts: '/posts?category=illust' } },
  name: 'ゆめかわ工房',
  fanclub_name: 'ゆめかわ工房',
  creator_name: '夢川ユメ',
  fanclub_name_with_creator_name: 'ゆめかわ工房 (夢川ユメ)',
  fanclub_name_or_creator_name: 'ゆめかわ工房',
  title: 'ゆめかわ工房',
  comment: 'ゆめかわいいイラストを描いています。',
  cover: {
    thumb: 'https://c.fantia.jp/uploads/fanclub/cover_image/130541/thumb_8d3e2a10-cover.png',
    medium: 'https://c.fantia.jp/uploads/fanclub/cover_image/130541/medium_8d3e2a10-cover.png',
    main: 'https://c.fantia.jp/uploads/fanclub/cover_image/130541/main_8d3e2a10-cover.png',
    ogp: 'https://c.fantia.jp/uploads/fanclub/cover_image/130541/ogp_8d3e2a10-cover.png',
    original: 'https://c.fantia.jp/uploads/fanclub/cover_image/130541/8d3e2a10-cover.png',
  },
  icon: {
    thumb: 'https://c.fantia.jp/uploads/fanclub/icon_image/130541/thumb_5c1c8f2e-icon.jpg',
    thumb_webp: 'https://c.fantia.jp/uploads/fanclub/icon_image/130541/thumb_webp_5c1c8f2e-icon.jpg',
    main: 'https://c.fantia.jp/uploads/fanclub/icon_image/130541/main_5c1c8f2e-icon.jpg',
    original: 'https://c.fantia.jp/uploads/fanclub/icon_image/130541/5c1c8f2e-icon.jpg',
  },
  background: null,
  is_join: true,
  fan_count: 143,
  posts_count: 22,
  products_count: 0,
  uri: { show: '/fanclubs/130541', posts: '/fanclubs/130541/posts', plans: '/fanclubs/130541/plans', products: '/fanclubs/130541/products', users: '/fanclubs/130541/users' },
  is_blocked: false,
  user_support_point: 0,
  recent_posts: [],
  recent_products: [],
  plans: [
    { id: 10, price: 0, name: '無料プラン', description: 'フォロー', limit: 0, thumb: 'https://fantia.jp/images/fallback/plan/thumb_default.png', vacant_seat: '', order: { status: 'joined', is_oneclick: false, uri: '/orders/plan/10' } },
    { id: 11, price: 500, name: 'ラフプラン', description: 'ラフと差分', limit: 0, thumb: 'https://fantia.jp/images/fallback/plan/thumb_default.png', vacant_seat: '', order: { status: 'joined', is_oneclick: false, uri: '/orders/plan/11' } },
    { id: 12, price: 1500, name: '高解像度プラン', description: '高解像度版', limit: 0, thumb: 'https://fantia.jp/images/fallback/plan/thumb_default.png', vacant_seat: '', order: null },
  ],
  point_top_users: [],
  support_point: 0,
  support_point_goals: [],
};

const PLAN_500 = { id: 11, price: 500, name: 'ラフプラン', description: 'ラフと差分', limit: 0, thumb: 'https://fantia.jp/images/fallback/plan/thumb_default.png' };
const PLAN_1500 = { id: 12, price: 1500, name: '高解像度プラン', description: '高解像度版', limit: 0, thumb: 'https://fantia.jp/images/fallback/plan/thumb_default.png' };

function post(id: number, title: string, fields: Record<string, unknown>, contents: Record<string, unknown>[]) {
  return {
    post: {
      id,
      title,
      comment: '本文です。\r\n二行目。',
      tags: [],
      rating: 'general',
      thumb: null,
      thumb_micro: `https://c.fantia.jp/uploads/post/file/${id}/micro_fallback.jpg`,
      show_adult_thumb: false,
      posted_at: 'Wed, 01 May 2024 12:00:00 +0900',
      likes_count: 3,
      liked: false,
      is_contributor: false,
      uri: { show: `/posts/${id}`, edit: null },
      is_pulish_open: true,
      is_blog: false,
      converted_at: '2024-05-01T12:00:00.000+09:00',
      fanclub_brand: 0,
      special_reaction: null,
      redirect_url_from_save: `/posts/${id}`,
      fanclub: FANCLUB,
      status: 'open',
      post_contents: contents,
      deadline: '',
      publish_reserved_at: null,
      comments: endpoints('posts', id),
      blog_comment: '',
      comments_reactions: endpoints('posts', id),
      reactions: endpoints('posts', id),
      reaction_types_url: '/api/v1/reaction_types',
      ogp_api_url: `/api/v1/posts/${id}/ogp`,
      links: { previous: null, next: null },
      is_fanclub_tip_accept: false,
      is_fanclub_joined: true,
      post_comments: [],
      post_content_comments: contents.map((c) => ({ post_content_id: c.id, comments: [], is_finish: true })),
      comment_count: 0,
      comment_block_status: false,
      ...fields,
    },
  };
}

function content(postId: number, id: number, category: string, fields: Record<string, unknown>) {
  return {
    id,
    title: '',
    visible_status: 'visible',
    published_state: 'published',
    category,
    comment: null,
    embed_url: null,
    content_type: null,
    comments: endpoints('post_contents', id),
    comments_reactions: endpoints('post_contents', id),
    embed_api_url: `/api/v1/post_contents/${id}/embed`,
    reactions: endpoints('post_contents', id),
    reaction_types_url: '/api/v1/reaction_types',
    post_content_photos_micro: [],
    plan: PLAN_500,
    product: null,
    onsale_backnumber: null,
    backnumber_link: null,
    join_status: null,
    parent_post: { title: '', url: `/posts/${postId}`, date: 'Wed, 01 May 2024 12:00:00 +0900', deadline: '' },
    post_content_comment_data: { comments: [], is_finish: true },
    comment_count: 0,
    is_converted: true,
    ...fields,
  };
}

const photo = (postId: number, id: number, file: string, comment: string | null) => ({
  id,
  url: Object.fromEntries(['thumb', 'medium', 'large', 'main', 'micro', 'original'].map((k) => [k, cc(`/uploads/post_content_photo/file/${id}/${k === 'original' ? '' : `${k}_`}${file}`)])),
  comment,
  show_original_uri: `/posts/${postId}/post_content_photo/${id}`,
  is_converted: true,
});

export const fantiaFixtures = {
  /** Only the post's own plain text (comment with \r\n), no contents. */
  textOnly: post(2100001, '初投稿です！', { comment: 'はじめまして。\r\nよろしくお願いします。', tags: [{ name: 'お知らせ', uri: '/posts?tag=%E3%81%8A%E7%9F%A5%E3%82%89%E3%81%9B' }] }, []),
  /** A `text` content: its own title and plain-text comment. */
  textContent: post(2100008, 'テキスト: 設定資料', {}, [content(2100008, 3100008, 'text', { title: '設定', comment: '身長: 155cm\r\n好きなもの: 🍓' })]),
  /** photo_gallery: signed cc.fantia.jp URLs, a comment per photo, no real file names. */
  gallery: post(
    2100002,
    'Gallery: spring set 🌸',
    {
      thumb: Object.fromEntries(
        ['thumb', 'thumb_webp', 'medium', 'medium_webp', 'large', 'main', 'main_webp', 'ogp', 'blurred_ogp', 'micro', 'blurred_image', 'original'].map((k) => [k, `https://c.fantia.jp/uploads/post/file/2100002/${k === 'original' ? '' : `${k}_`}b7f0c1d2-spring.jpg`]),
      ),
      thumb_micro: 'https://c.fantia.jp/uploads/post/file/2100002/micro_b7f0c1d2-spring.jpg',
      tags: [{ name: 'イラスト', uri: '/posts?tag=%E3%82%A4%E3%83%A9%E3%82%B9%E3%83%88' }, { name: 'spring', uri: '/posts?tag=spring' }],
    },
    [
      content(2100002, 3100002, 'photo_gallery', {
        title: '春セット',
        comment: 'JPEG and PNG',
        post_content_photos: [photo(2100002, 4100001, 'a01ddcb7-sakura.jpg', '桜'), photo(2100002, 4100002, '611669be-hanami.png', null)],
        post_content_photos_micro: [cc('/uploads/post_content_photo/file/4100001/micro_a01ddcb7-sakura.jpg'), cc('/uploads/post_content_photo/file/4100002/micro_611669be-hanami.png')],
      }),
    ],
  ),
  /** A file with its real name; download_uri is relative and redirects to a signed cc URL. */
  file: post(2100003, '素材パック配布', {}, [
    content(2100003, 3100003, 'file', { title: 'ZIP', comment: 'PSD同梱', content_type: 'application/zip', filename: '素材パック v2.zip', download_uri: '/posts/2100003/download/3100003', hls_uri: null }),
  ]),
  /** A video is a file (content_type video/mp4 or application/mp4); comment and thumb may be null. */
  video: post(2100004, 'メイキング動画', { comment: null }, [
    content(2100004, 3100004, 'file', { content_type: 'video/mp4', filename: 'sh83-1_メイキング.mp4', download_uri: '/posts/2100004/download/3100004', hls_uri: null }),
  ]),
  /** Audio is a file too. */
  audio: post(2100005, 'ボイス: おやすみ', { comment: 'イヤホン推奨' }, [
    content(2100005, 3100005, 'file', { title: '音声', content_type: 'audio/mpeg', filename: 'おやすみボイス.mp3', download_uri: '/posts/2100005/download/3100005', hls_uri: null }),
  ]),
  /** A blog: the content's comment (and post.blog_comment) is a Quill delta as a JSON string. */
  blog: (() => {
    const delta = JSON.stringify({
      ops: [
        { insert: '今日はラフを描きました。\n' },
        { insert: { fantiaImage: { id: '5100001', url: cc('/uploads/album_image/file/5100001/main_e1f2a3b4-rough.png'), original_url: '/posts/2100006/album_image?query=MjEwMDAwNjo1MTAwMDAx.3q2-7w' } } },
        { insert: '\n参考: ' },
        { insert: 'pixiv', attributes: { link: 'https://www.pixiv.net/users/1' } },
        { insert: '\n' },
        { insert: { image: 'https://example.com/outside.png' } },
        { insert: '\nおわり\n' },
      ],
    });
    return post(2100006, 'ブログ: 制作日記', { comment: '', is_blog: true, blog_comment: delta }, [content(2100006, 3100006, 'blog', { title: '制作日記', comment: delta, plan: null })]);
  })(),
  /** An embed: embed_url is an outside URL. */
  embed: post(2100007, 'YouTube 配信アーカイブ', {}, [content(2100007, 3100007, 'embed', { title: 'アーカイブ', embed_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', plan: null })]),
  /** Locked: a content above the key's plan is "uncatchable", with no photos and no download_uri. */
  locked: post(2100009, '上位プラン限定 高解像度版', { comment: '1500円プラン向け' }, [
    content(2100009, 3100009, 'text', { title: 'お知らせ', comment: '全員に見えます', plan: null }),
    content(2100009, 3100010, 'photo_gallery', { title: '高解像度', visible_status: 'uncatchable', plan: PLAN_1500 }),
  ]),
  /** Adult post with the account's adult setting off: contents are "adult_only". */
  adultOnly: post(2100010, '成人向け: 差分', { rating: 'adult', comment: '18歳未満閲覧禁止' }, [content(2100010, 3100011, 'photo_gallery', { title: '差分', visible_status: 'adult_only' })]),
  /** Unicode and emoji in the title, body and tags. */
  unicodeTitle: post(2100014, '🎉 100人達成！ありがとう 🙏', { comment: '記念イラストは来週！\r\n🎂🎂🎂', tags: [{ name: '記念', uri: '/posts?tag=%E8%A8%98%E5%BF%B5' }, { name: '🎉', uri: '/posts?tag=%F0%9F%8E%89' }] }, []),
  /** A post changed after posting: converted_at later than posted_at. */
  edited: post(2100012, '修正版アップしました', { comment: '誤字を直しました', posted_at: 'Mon, 13 May 2024 12:00:00 +0900', converted_at: '2024-05-14T13:00:00.000+09:00' }, []),
  /** A deleted or missing post: 404 (the body is a guess). */
  deleted: { status: 404, body: { error_text: 'ページが見つかりませんでした' } },
  /** A session flagged for the captcha: no `post` at all. */
  recaptcha: { redirect: '/recaptcha' },
};
