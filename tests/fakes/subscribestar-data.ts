/**
 * The fake SubscribeStar's content and how the site renders it as HTML: `div.post` blocks (avatar,
 * post-user, post-date, post-body with the Trix content, then post-uploads with the data-gallery JSON,
 * docs and audios, tags, actions, edit form), the profile header and the "load more" link, following
 * the selectors and string markers of /work/research/subscribestar.md §2.3-3 (gallery-dl, Kitsune,
 * hoordu, GalleryManager, the BeautifulSoup fork). URLs: the creator's site root (.com or the adult
 * domain), and the CDN (CloudFront-style signed uploads_v2 URLs; unsigned BunnyCDN avatars, covers and
 * /previews blurred images).
 */
import { escapeHtml as h } from './kit/server.ts';

export interface SsUpload {
  id: number;
  /** The real file name (original_filename / doc and audio titles); its extension decides the bytes. */
  name: string;
  kind: 'image' | 'video' | 'doc' | 'audio';
}

export interface SsComment {
  id: number;
  author: string;
  body: string;
  at: number;
}

export interface SsPost {
  id: number;
  /** The <h1> at the top of the content; null: a post without a title. */
  title: string | null;
  /** Trix HTML after the title. `INLINE:<upload id>` becomes an attachment figure; `AWAY:<url>` a wrapped link. */
  body: string;
  publishedAt: number;
  updatedAt: number | null;
  tags: string[];
  uploads: SsUpload[];
  /** Upload shown inside the body (a Trix attachment figure). */
  inline?: SsUpload;
  /** Cheapest tier (USD) that sees it; 0: everyone who follows. */
  tier: number;
  deleted?: boolean;
  comments?: SsComment[];
}

export interface SsCreator {
  /** The star's user id (star_id, data-user-id). */
  id: number;
  slug: string;
  name: string;
  bio: string;
  domain: 'com' | 'adult';
  /** Tier price the key pays; null: not subscribed. */
  subscribed: number | null;
  /** The page answers 302 to /{slug}/verify_subscriber. */
  verifySubscriber?: boolean;
  posts: SsPost[];
}

export interface SsDataset {
  me: { id: number; name: string };
  creators: SsCreator[];
}

/** What rendering needs: the hosts, the signer, and what the viewer may see. */
export interface SsView {
  root: string;
  /** The uploads_v2 host (a CloudFront distribution). */
  cdn: string;
  /** The host of avatars and covers (ss-uploads-prod.b-cdn.net); the fake folds it onto `cdn`. */
  bunny?: string;
  /** Tier the viewer pays this creator (null: visitor or not subscribed). */
  tier: number | null;
  /** Query after ?filename=... of a signed CDN path: '&Expires=...&Signature=...&Key-Pair-Id=...'. */
  sign(path: string): string;
  /** Opaque payload of a site-relative /uploads?payload= link. */
  payload(path: string): string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** 'Sep 30, 2024 08:46 pm' (UTC, English: the account's language decides the real text). */
export function ssDate(ms: number): string {
  const d = new Date(ms);
  const hour = d.getUTCHours() % 12 || 12;
  return `${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())}, ${d.getUTCFullYear()} ${two(hour)}:${two(d.getUTCMinutes())} ${d.getUTCHours() < 12 ? 'am' : 'pm'}`;
}

/** Where posts sort: the site's order position (seconds of the publish time). */
export const orderPosition = (post: SsPost) => Math.floor(post.publishedAt / 1000);
export const livePosts = (c: SsCreator) => c.posts.filter((p) => !p.deleted).sort((a, b) => b.publishedAt - a.publishedAt);
export const canSee = (v: SsView, post: SsPost) => post.tier === 0 || (v.tier !== null && v.tier >= post.tier);

const ext = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase() ?? 'bin';
const uuid = (n: number) => `${((n * 2654435761) >>> 0).toString(16).padStart(8, '0')}-5b1e-4c2a-9d3f-${String(n).padStart(12, '0')}`;

export const avatarUrl = (v: SsView, c: SsCreator) => `${v.bunny ?? v.cdn}/uploads/users/${c.id}/avatar/${uuid(c.id)}.png`;
export const coverUrl = (v: SsView, c: SsCreator) => `${v.bunny ?? v.cdn}/uploads/users/${c.id}/cover/${uuid(c.id + 1)}.jpg`;

/** The file URL of an upload: signed CloudFront-style on .com, a site-relative /uploads?payload= link on the adult domain. */
export function uploadUrl(v: SsView, c: SsCreator, post: SsPost, u: SsUpload): string {
  const path = `/uploads_v2/users/${c.id}/posts/${post.id}/${uuid(u.id)}.${ext(u.name)}`;
  const query = `filename=${encodeURIComponent(encodeURIComponent(u.name))}`;
  if (c.domain === 'adult' && (u.kind === 'image' || u.kind === 'video')) return `/uploads?payload=${v.payload(`${path}?${query}`)}`;
  return `${v.cdn}${path}?${query}${v.sign(`${path}?${query}`)}`;
}

export const previewUrl = (v: SsView, c: SsCreator, post: SsPost, u: SsUpload) =>
  `${v.cdn}/uploads_v2/users/${c.id}/posts/${post.id}/previews/${uuid(u.id)}.jpg`;

function galleryItem(v: SsView, c: SsCreator, post: SsPost, u: SsUpload, locked: boolean) {
  const url = locked ? previewUrl(v, c, post, u) : uploadUrl(v, c, post, u);
  return {
    id: u.id,
    url,
    original_filename: u.name,
    type: u.kind,
    group: 'imgs_and_videos',
    pinned: false,
    created_at: new Date(post.publishedAt).toISOString(),
    width: u.kind === 'video' ? 320 : 16,
    height: u.kind === 'video' ? 180 : 12,
    preview_url: previewUrl(v, c, post, u),
    gallery_preview_url: previewUrl(v, c, post, u),
    remove_path: null,
  };
}

const size = (u: SsUpload) => (u.kind === 'doc' ? '12 KB' : '8 KB');

function bodyHtml(v: SsView, c: SsCreator, post: SsPost): string {
  return post.body
    .replace(/AWAY:(\S+?)"/g, (_, url: string) => `/away?url=${Buffer.from(url).toString('base64')}" data-href="${h(url)}"`)
    .replace(/INLINE:(\d+)/g, () => {
      const u = post.inline!;
      const src = uploadUrl(v, c, post, u);
      const attachment = JSON.stringify({
        contentType: 'image/jpeg',
        uploadId: u.id,
        original_filename: u.name,
        url: src,
        width: 16,
        height: 12,
      });
      return `<figure class="attachment attachment--preview attachment--${ext(u.name)}" data-trix-attachment="${h(attachment)}" data-trix-content-type="image/jpeg"><img src="${h(src)}" width="16" height="12"><figcaption class="attachment__caption">${h(u.name)}</figcaption></figure>`;
    });
}

/** One `div.post` as the creator page, the feed and the load-more JSON carry it. */
export function renderPost(v: SsView, c: SsCreator, post: SsPost, single = false): string {
  const locked = !canSee(v, post);
  const title = post.title === null ? '' : `<h1>${h(post.title)}</h1>`;
  const date = post.updatedAt ? `Updated on ${ssDate(post.updatedAt)}` : ssDate(post.publishedAt);
  const media = post.uploads.filter((u) => u.kind === 'image' || u.kind === 'video');
  const gallery = media.length
    ? `<div class="uploads-images" data-role="post-uploads_images" data-gallery="${h(JSON.stringify(media.map((u) => galleryItem(v, c, post, u, locked))))}"></div>`
    : '';
  const docs = locked ? [] : post.uploads.filter((u) => u.kind === 'doc');
  const audios = locked ? [] : post.uploads.filter((u) => u.kind === 'audio');
  const docsHtml = docs.length
    ? `<div class="uploads-docs">${docs.map((u) => `<div class="doc_preview" data-upload-id="${u.id}"><a class="doc_preview-link" href="${h(uploadUrl(v, c, post, u))}" target="_blank"><div class="doc_preview-title">${h(u.name)}</div><div class="doc_preview-size">${size(u)}</div></a></div>`).join('')}</div>`
    : '';
  const audiosHtml = audios.length
    ? `<div class="uploads-audios">${audios.map((u) => `<div class="audio_preview-data" data-upload-id="${u.id}" src="${h(uploadUrl(v, c, post, u))}"><div class="audio_preview-title">${h(u.name)}</div></div>`).join('')}</div>`
    : '';
  const content = locked ? title : `${title}${bodyHtml(v, c, post)}`;
  const notice = locked
    ? `<div class="post-locked_notice">This post belongs to a locked $${post.tier} tier. <a href="/${c.slug}/subscribe">Unlock</a></div>`
    : '';
  const accessible = !locked && single ? ` data-post_id="${post.id}"` : '';
  const tags = post.tags.map((t) => `<a class="post-tag" href="/${c.slug}?tag=${encodeURIComponent(t)}">${h(t)}</a>`).join('');
  return (
    `<div class="post is-shown" data-id="${post.id}" data-role="post"${accessible}>` +
    `<div class="post-top_bar"><a class="post-avatar" href="/${c.slug}"><img data-type="avatar" data-user-id="${c.id}" alt="${h(c.name)}" src="${h(avatarUrl(v, c))}"></a>` +
    `<a class="post-user" href="/${c.slug}">${h(c.name)}</a><div class="post-date"><a href="/posts/${post.id}">${date}</a></div></div>` +
    `<div class="post-body${locked ? ' is-locked' : ''}" data-role="post-body"><div class="post-content" data-role="post_content-text"><div class="trix-content">${content}</div></div>` +
    `<div class="post-uploads for-youtube"><div class="uploads">${gallery}${docsHtml}${audiosHtml}</div></div>${notice}</div>` +
    `<div class="post_tags for-post">${tags}</div><div class="post-actions"><a class="post-comments_link" href="/posts/${post.id}#comments">${post.comments?.length ?? 0} comments</a></div>` +
    `<div class="post-edit_form"></div></div>`
  );
}

export const moreLink = (href: string) =>
  `<a class="posts-more" data-role="infinite_scroll-next_page" href="${h(href)}">Show more posts</a>`;

/** The star's profile header: name, bio, avatar and cover images. */
export function profileHeader(v: SsView, c: SsCreator): string {
  return (
    `<div class="profile_main_info"><img data-type="cover" data-user-id="${c.id}" alt="${h(c.name)}" src="${h(coverUrl(v, c))}">` +
    `<img data-type="avatar" data-user-id="${c.id}" alt="${h(c.name)}" src="${h(avatarUrl(v, c))}">` +
    `<div class="profile_main_info-name">${h(c.name)}</div><div class="profile_main_info-description">${h(c.bio)}</div></div>`
  );
}

export function commentsHtml(post: SsPost): string {
  return (post.comments ?? [])
    .map(
      (cm) =>
        `<div class="comments-row" data-comment-id="${cm.id}"><div class="comment-user">${h(cm.author)}</div><div class="comment-body">${h(cm.body)}</div><div class="comment-date">${ssDate(cm.at)}</div></div>`,
    )
    .join('');
}

const T0 = Date.UTC(2024, 8, 1, 20, 46);
const HOUR = 3600_000;

/**
 * Three stars. Ada Studio (www.subscribestar.com/adastudio, the key pays $5) has 17 live posts and one
 * deleted: text-only, gallery with a video, documents, audio, a blog with an inline image, an embed
 * link, a $10 locked post, unicode, tags, an untitled post, an edited post, comments. 夜桜アトリエ
 * (subscribestar.adult/yozakura, $3) has 5, its gallery files behind /uploads?payload=. verifyme
 * (.com) asks for subscriber verification.
 */
export function demoDataset(): SsDataset {
  const at = (n: number) => T0 + n * 26 * HOUR;
  const post = (id: number, title: string | null, body: string, n: number, extra: Partial<SsPost> = {}): SsPost => ({
    id,
    title,
    body,
    publishedAt: at(n),
    updatedAt: null,
    tags: [],
    uploads: [],
    tier: 5,
    ...extra,
  });
  const ada: SsPost[] = [
    post(
      1320001,
      'Hello patrons',
      '<div>Thanks for joining! <strong>Bold</strong> and <em>italic</em>.</div><ul><li>one</li><li>two</li></ul>',
      0,
      { tier: 0, tags: ['news'] },
    ),
    post(1320002, 'Sketch gallery', '<div>Three sketches and a timelapse.</div>', 1, {
      tags: ['sketch', 'timelapse'],
      uploads: [
        { id: 203881, name: 'sketch one.jpg', kind: 'image' },
        { id: 203882, name: 'sketch-two.png', kind: 'image' },
        { id: 203883, name: 'timelapse.mp4', kind: 'video' },
      ],
      comments: [{ id: 9001, author: 'Bo', body: 'Love the second one <3', at: at(1) + HOUR }],
    }),
    post(1320003, 'Brush pack and guide', '<div>Files below.</div>', 2, {
      uploads: [
        { id: 1957727, name: 'Ada brushes v3.zip', kind: 'doc' },
        { id: 1957728, name: 'Training for freelancers - Guide.pdf', kind: 'doc' },
      ],
    }),
    post(1320004, 'Podcast #12', '<div>Listen while you draw.</div>', 3, {
      uploads: [{ id: 4627253, name: 'episode 12.mp3', kind: 'audio' }],
    }),
    post(1320005, 'Process blog', '<div>Step one:</div>INLINE:1<div>Then colours.</div>', 4, {
      inline: { id: 203890, name: 'step-one.jpg', kind: 'image' },
    }),
    post(
      1320006,
      'Stream replay',
      '<div>Watch on <a href="AWAY:https://www.youtube.com/watch?v=dQw4w9WgXcQ" target="_blank">YouTube</a>.</div>',
      5,
      { tier: 0 },
    ),
    post(1320007, 'Premium wallpapers', '<div>4K wallpapers.</div>', 6, {
      tier: 10,
      tags: ['premium'],
      uploads: [
        { id: 203891, name: 'wall-4k.png', kind: 'image' },
        { id: 1957729, name: 'walls.zip', kind: 'doc' },
      ],
    }),
    post(1320008, 'Removed post', '<div>gone</div>', 7, { deleted: true }),
    post(1320009, 'Ünïcødé ✨ 日本語のタイトル', '<div>Emoji 🎨 and <strong>日本語</strong>.</div>', 8, { tags: ['日本語', 'ünï'] }),
    post(1320010, null, '<div>A quick note without a title.</div>', 9),
    post(1320011, 'Fixed typo', '<div>Corrected text.</div>', 10, { updatedAt: at(10) + 5 * HOUR }),
  ];
  for (let i = 0; i < 7; i++) ada.push(post(1320020 + i, `Weekly update ${i + 1}`, `<div>Update number ${i + 1}.</div>`, 11 + i));
  const yozakura: SsPost[] = [
    post(2410001, '夜桜 gallery', '<div>R18 set.</div>', 0, {
      tier: 3,
      uploads: [
        { id: 303881, name: '夜桜-1.jpg', kind: 'image' },
        { id: 303882, name: 'clip.mp4', kind: 'video' },
      ],
    }),
    post(2410002, 'Free hello', '<div>Welcome.</div>', 1, { tier: 0 }),
    post(2410003, 'VIP only', '<div>VIP.</div>', 2, { tier: 20, uploads: [{ id: 303883, name: 'vip.png', kind: 'image' }] }),
    post(2410004, 'Voice', '<div>ASMR.</div>', 3, { tier: 3, uploads: [{ id: 4627260, name: 'voice.mp3', kind: 'audio' }] }),
    post(2410005, 'Archive', '<div>Set archive.</div>', 4, { tier: 3, uploads: [{ id: 2957701, name: 'set.zip', kind: 'doc' }] }),
  ];
  return {
    me: { id: 880001, name: 'Fake Subscriber' },
    creators: [
      { id: 11, slug: 'adastudio', name: 'Ada Studio', bio: 'Illustration & brushes.', domain: 'com', subscribed: 5, posts: ada },
      { id: 7021, slug: 'yozakura', name: '夜桜アトリエ', bio: '大人向けイラスト', domain: 'adult', subscribed: 3, posts: yozakura },
      {
        id: 9090,
        slug: 'verifyme',
        name: 'Verify Me',
        bio: '',
        domain: 'com',
        subscribed: null,
        verifySubscriber: true,
        posts: [post(9090001, 'Hidden', '<div>x</div>', 0)],
      },
    ],
  };
}

/**
 * A generated dataset of about `posts` visible posts over three stars on www.subscribestar.com (the key
 * pays $5 to each), every post with a gallery image (the post's file) and a document, for the import
 * benchmark and the paging tests.
 */
export function generatedDataset(posts: number): SsDataset {
  const stars = [
    { id: 51, slug: 'benchstar-a', name: 'Bench Star A' },
    { id: 52, slug: 'benchstar-b', name: 'Bench Star B' },
    { id: 53, slug: 'benchstar-c', name: 'Bench Star C' },
  ];
  return {
    me: { id: 880002, name: 'Bench Subscriber' },
    creators: stars.map((star, s) => ({
      ...star,
      bio: 'Generated.',
      domain: 'com' as const,
      subscribed: 5,
      posts: Array.from({ length: Math.floor(posts / 3) + (s < posts % 3 ? 1 : 0) }, (_, i) => {
        const n = s * 1_000_000 + i;
        return {
          id: 5_000_000 + n,
          title: `Post ${i + 1} of ${star.name}`,
          body: `<div>Generated post ${i + 1}.</div>`,
          publishedAt: T0 + i * HOUR,
          updatedAt: null,
          tags: ['generated'],
          uploads: [
            { id: 700_000 + n * 2, name: `picture-${n}.jpg`, kind: 'image' as const },
            { id: 700_001 + n * 2, name: `notes-${n}.pdf`, kind: 'doc' as const },
          ],
          tier: i % 2 === 0 ? 0 : 5,
        };
      }),
    })),
  };
}
