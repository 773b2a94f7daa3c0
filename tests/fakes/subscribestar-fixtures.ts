/**
 * Recorded-shape fixtures of SubscribeStar, one per content kind: each is a "load more" answer
 * (`GET /posts?page_end_order_position=...&star_id=...` -> {"html": "<div class=\"post ...\">...</div>"})
 * holding one post, on the real hosts (www.subscribestar.com / subscribestar.adult, the uploads_v2
 * CloudFront distribution, ss-uploads-prod.b-cdn.net), for table-driven mapper tests. They are made by
 * the fake's own renderer (subscribestar-data.ts) with fixed signatures, so the fake serves the same
 * markup. Where the markup comes from (see /work/research/subscribestar.md §7):
 *   - `<div class="post ` + data-id, post-avatar/post-user/post-date, `.post-body.is-locked`, content
 *     between `data-role="post_content-text">` and `</div><div class="post-uploads for-youtube"`,
 *     attachments before `class="post-edit_form"`, tags between `post_tags for-post` and `post-actions`:
 *     gallery-dl extractor/subscribestar.py (string markers), Kitsune, hoordu, GalleryManager;
 *   - data-gallery item fields: gallery-dl test results + postybirb SubscribeStarUploadItem;
 *   - .doc_preview / .audio_preview-data with titles and data-upload-id: gallery-dl 84c5484ac;
 *   - /away?url=<base64> links with data-href: gallery-dl test output for post 1851025;
 *   - Trix figure.attachment[data-trix-attachment]: the BeautifulSoup fork (GDLF);
 *   - "Updated on" dates: gallery-dl 22284cf7b; /previews URLs on locked posts: gallery-dl #4468;
 *   - site-relative /uploads?payload= gallery URLs on the adult site: gallery-dl #6916.
 * The exact nesting is a reconstruction (the sources fix the markers, not every wrapper), and the
 * signing query of uploads_v2 URLs is a guess.
 */
import { demoDataset, renderPost, type SsCreator, type SsView } from './subscribestar-data.ts';

const data = demoDataset();
const [ada, yozakura] = data.creators;
const view = (c: SsCreator, tier: number | null): SsView => ({
  root: c.domain === 'com' ? 'https://www.subscribestar.com' : 'https://subscribestar.adult',
  cdn: 'https://d3ts7pb9ldoin4.cloudfront.net',
  bunny: 'https://ss-uploads-prod.b-cdn.net',
  tier,
  sign: () => '&Expires=1767225600&Signature=bG9yZW0taXBzdW0tc2lnbmF0dXJl&Key-Pair-Id=APKAEXAMPLEKEYPAIR',
  payload: (path) => Buffer.from(path).toString('base64url').slice(0, 48) + '.c2lnbmVk',
});
const answer = (c: SsCreator, id: number, tier: number | null = c.subscribed) => ({
  html: renderPost(view(c, tier), c, c.posts.find((p) => p.id === id)!),
});

export const subscribestarFixtures = {
  /** Title <h1> and Trix text (bold, italic, list), a tag; no uploads. */
  textOnly: answer(ada, 1320001),
  /** data-gallery with two images and a video (type "video"), absolute signed URLs, tags. */
  gallery: answer(ada, 1320002),
  /** A video is a gallery item of type "video" with a direct MP4 URL, no HLS (here beside two images). */
  video: answer(ada, 1320002),
  /** .uploads-docs: a zip and a PDF with real names; ?filename= is double-URL-encoded. */
  file: answer(ada, 1320003),
  /** .uploads-audios: an MP3 with its title. */
  audio: answer(ada, 1320004),
  /** Rich text with an inline image (a Trix attachment figure). */
  blog: answer(ada, 1320005),
  /** An outside link (YouTube) wrapped as /away?url=<base64> with the real URL in data-href. */
  embed: answer(ada, 1320006),
  /** Above the key's tier: .post-body.is-locked, title only, /previews gallery URLs, no docs. */
  locked: answer(ada, 1320007),
  /** Unicode title, body and tags. */
  unicodeTitle: answer(ada, 1320009),
  /** No <h1>: the post has no title. */
  untitled: answer(ada, 1320010),
  /** Edited: the date reads "Updated on ...". */
  edited: answer(ada, 1320011),
  /** The adult site: gallery URLs are site-relative /uploads?payload= links that redirect to the CDN. */
  adultGallery: answer(yozakura, 2410001),
  /** The same post seen by a visitor (wrong or expired key): locked with previews. */
  visitor: answer(ada, 1320002, null),
  /** A deleted post: absent from every list; /posts/{id} answers the 404 page. */
  deleted: { status: 404, html: "<h1>The page you were looking for doesn't exist.</h1>" },
};
