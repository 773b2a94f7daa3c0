/**
 * How fantia.jp renders the fake Fantia's content (fantia-data.ts): the JSON of /api/v1/posts/{id},
 * /api/v1/fanclubs/{id} and the post summaries (field lists from the typed models and captures cited in
 * /work/research/fantia.md §2.3-2.5: reynn/grabber post.rs/fanclub.rs, RoefQwQ/chorusdesk fixtures,
 * gallery-dl's test results), with URLs on three hosts: fantia.jp (`site`), c.fantia.jp (`c`, plain
 * public images) and cc.fantia.jp (`cc`, CloudFront-signed content files). The fake folds c and cc onto
 * one CDN server; the fixtures (fantia-fixtures.ts) use the real hosts.
 */
import { newestFirst, type FantiaContent, type FantiaFanclub, type FantiaOp, type FantiaPlan, type FantiaPost } from './fantia-data.ts';

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

/** The API's answer for a missing or deleted post or fanclub (404). */
export const NOT_FOUND = { error_text: 'ページが見つかりませんでした' };

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
