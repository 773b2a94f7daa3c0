/**
 * Recorded-shape OnlyFans answers, one per content kind, for table-driven mapper tests: post objects
 * as GET /api2/v2/users/{id}/posts lists them (and posts/{id} answers), plus a profile, exactly as
 * the fake renders them with OnlyFans' real hosts (cdn2.onlyfans.com signed URLs, public.onlyfans.com)
 * and a fixed clock. OnlyFans posts have no title, no tags (hashtags are text), no file names and no
 * embeds (links are <a> in `text`). Sources are cited per fixture; "OS" is datawhores/OF-Scraper
 * (test_constants.py sample payloads, classes/of/media.py), "VO" Voldrix/onlyfans-dl-2, "notes"
 * /work/research/onlyfans.md.
 */
import { UrlSigner } from './kit/signing.ts';
import { renderPost, renderUser, type OnlyfansCreator, type OnlyfansMediaSpec, type OnlyfansPost, type RenderContext } from './onlyfans-data.ts';

const NOW = 1717243200;
const ctx: RenderContext = { cdn: 'https://cdn2.onlyfans.com', publicHost: 'https://public.onlyfans.com', signer: new UrlSigner('fixture-secret', 'APKAIN4QFZ7VFMVZBN5Q', () => NOW * 1000), ttl: 3600 };
const creator: OnlyfansCreator = { id: 4815162, username: 'luna_moon', name: 'Luna 月', about: 'Photographer & singer.\nNew sets every week.', subscription: 'active', subscribePrice: 9.99, posts: [] };
const m = (n: number, kind: OnlyfansMediaSpec['kind'], extra: Partial<OnlyfansMediaSpec> = {}): OnlyfansMediaSpec => ({ id: 3000000000 + n, kind, ...extra });
const post = (n: number, rawText: string, media: OnlyfansMediaSpec[] = [], extra: Partial<OnlyfansPost> = {}) => renderPost(ctx, creator, { id: 1000000000 + n, postedAt: NOW - n * 3600, rawText, media, ...extra });

export const ONLYFANS_FIXTURES = {
  /** OS TIMELINE_EXAMPLE (post fields), no media: notes 2.4, 3 "Text". */
  textOnly: { source: 'OS test_constants.py TIMELINE_EXAMPLE; notes 2.4', post: post(1, 'Hi everyone! Text only today.') },
  /** One photo, current media shape files.full/thumb/preview/squarePreview: OS classes/of/media.py; notes 3. */
  image: { source: 'OS classes/of/media.py (files.*); notes 3', post: post(2, 'Golden hour', [m(2, 'photo')]) },
  /** Three photos in one post (OnlyFans galleries are a post's media list). */
  gallery: { source: 'notes 2.4 (media[]), 3', post: post(3, 'Three from the beach shoot', [m(3, 'photo'), m(4, 'photo'), m(5, 'photo')]) },
  /** Video: files.full.url the original MP4, videoSources {720, 240}: OS _url_quality_picker; notes 3. */
  video: { source: 'OS classes/of/media.py (videoSources); notes 3', post: post(6, 'Behind the scenes clip', [m(6, 'video')]) },
  /** Audio: type "audio", an MP3 original, no image files: notes 3 (type values). */
  audio: { source: 'notes 3 (type audio)', post: post(7, 'A little song for you', [m(7, 'audio')]) },
  /** Pay-per-view: price, isOpened false, canViewMedia false, media canView false with null URLs, `preview` = ids shown free: notes 3 "Locked"; KS/VO skip such media. */
  locked: { source: 'notes 3 (locked content); VO, KS', post: post(8, 'Full set, unlock below 🔓', [m(8, 'photo'), m(9, 'photo', { locked: true }), m(10, 'video', { locked: true })], { price: 9.99 }) },
  /** DRM video: files.full.url null, files.drm.manifest.{hls,dash} + signature cookies: OS classes/of/media.py; notes 3, 4. */
  drmVideo: { source: 'OS classes/of/media.py (files.drm); notes 3', post: post(11, 'Protected premiere', [m(11, 'video', { drm: true })]) },
  /** 2021-2023 media shape: source.source, info.source, string full/preview/thumb: OS examples, VO fallback; notes 3. */
  legacyMedia: { source: 'OS test_constants.py (source.source); VO; notes 3', post: post(12, 'From the archive (2022 upload)', [m(12, 'photo', { legacy: true }), m(13, 'video', { legacy: true })]) },
  /** Unicode rawText; `text` escaped with <br />: notes 3 "Text". */
  unicode: { source: 'notes 3 (text HTML, rawText plain)', post: post(14, '月の光 🌙\nこんばんは «Ünïcödé» & <not a tag>', [m(14, 'photo')]) },
  /** A link: <a href> in `text`, hasUrls true (OnlyFans has no embeds). */
  link: { source: 'notes 3 (links as <a href>)', post: post(15, 'My wishlist: https://example.com/wishlist') },
  /** isPinned (listed by pinned=1, left out by pinned=0): OS PINNED_POSTS_EXAMPLE; notes 2.4. */
  pinned: { source: 'OS PINNED_POSTS_EXAMPLE; notes 2.4', post: post(16, 'Read this first! (pinned)', [m(16, 'photo')], { pinned: true }) },
  /** expiredAt set: the post expires: notes 3 "Dates". */
  expiring: { source: 'notes 3 (expiredAt)', post: post(17, 'Gone in a week', [m(17, 'photo')], { expiresAt: NOW + 7 * 86400 }) },
  /** isArchived (posts/archived): notes 2.4. */
  archived: { source: 'notes 2.4 (posts/archived)', post: post(18, 'Old post moved to the archive', [m(18, 'photo')], { archived: true }) },
  /** isDeleted true: the field the post shape has (notes 3 "Deleted"); the fake never lists such a post. */
  deleted: { source: 'notes 3 (isDeleted)', post: { ...post(19, 'This post was deleted'), isDeleted: true, media: [], mediaCount: 0 } },
  /** The profile (users/{id}): OS USERPROFILE_EXAMPLE_DICT; notes 2.3. */
  profile: { source: 'OS USERPROFILE_EXAMPLE_DICT; notes 2.3', user: renderUser(ctx, creator) },
};
