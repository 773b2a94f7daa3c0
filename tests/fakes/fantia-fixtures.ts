/**
 * Recorded-shape fixtures of Fantia's GET /api/v1/posts/{id} answer, one per content kind, on the real
 * hosts (fantia.jp, c.fantia.jp, cc.fantia.jp), for table-driven mapper tests. Every fixture is the
 * whole answer body, made by the fake's renderers (fantia-render.ts) over its demo dataset as the key
 * sees it (plans 無料 and ラフ joined, the adult setting on), with fixed signatures. Sources of the
 * shapes (see /work/research/fantia.md §7):
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
import { demoDataset, postOf } from './fantia-data.ts';
import { NOT_FOUND, renderPost, type FantiaView } from './fantia-render.ts';

const SIGNED =
  'Key-Pair-Id=APKAEXAMPLEKEYPAIR&Policy=eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoiaHR0cHM6Ly9jYy5mYW50aWEuanAvIn1dfQ__&Signature=Zm9v~YmFy';
const data = demoDataset();
const view = (adult: boolean): FantiaView => ({
  site: 'https://fantia.jp',
  c: 'https://c.fantia.jp',
  cc: 'https://cc.fantia.jp',
  sign: () => SIGNED,
  joinedPlans: new Set(data.joinedPlans),
  adult,
  albumQuery: (postId, albumId) => `${Buffer.from(`${postId}:${albumId}`).toString('base64url')}.3q2-7w`,
});
/** The answer for this post, with the account's adult setting on unless told. */
const answer = (id: number, adult = true) => {
  const found = postOf(data, id);
  if (!found) throw new Error(`no post ${id}`);
  return renderPost(view(adult), found.fanclub, found.post);
};

export const fantiaFixtures = {
  /** Only the post's own plain text (comment with \r\n), no contents. */
  textOnly: answer(2100001),
  /** A `text` content: its own title and plain-text comment. */
  textContent: answer(2100008),
  /** photo_gallery: signed cc.fantia.jp URLs, a comment per photo, no real file names. */
  gallery: answer(2100002),
  /** A file with its real name; download_uri is relative and redirects to a signed cc URL. */
  file: answer(2100003),
  /** A video is a file (content_type video/mp4 or application/mp4); comment and thumb may be null. */
  video: answer(2100004),
  /** Audio is a file too. */
  audio: answer(2100005),
  /** A blog: the content's comment (and post.blog_comment) is a Quill delta as a JSON string. */
  blog: answer(2100006),
  /** An embed: embed_url is an outside URL. */
  embed: answer(2100007),
  /** Locked: a content above the key's plan is "uncatchable", with no photos and no download_uri. */
  locked: answer(2100009),
  /** Adult post with the account's adult setting off: contents are "adult_only". */
  adultOnly: answer(2100010, false),
  /** Unicode and emoji in the title, body and tags. */
  unicodeTitle: answer(2100014),
  /** A post changed after posting: converted_at later than posted_at. */
  edited: answer(2100012),
  /** A deleted or missing post: 404 (the body is a guess). */
  deleted: { status: 404, body: NOT_FOUND },
  /** A session flagged for the captcha: no `post` at all. */
  recaptcha: { redirect: '/recaptcha' },
};
