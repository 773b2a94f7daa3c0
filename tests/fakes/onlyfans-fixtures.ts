/**
 * Recorded-shape OnlyFans answers, one per content kind, for table-driven mapper tests: post objects
 * as GET /api2/v2/users/{id}/posts lists them (and posts/{id} answers), plus a profile, exactly as
 * the fake renders them (onlyfans-data.ts, over Luna's posts of the demo dataset) with OnlyFans' real
 * hosts (cdn2.onlyfans.com signed URLs, public.onlyfans.com) and a fixed clock. OnlyFans posts have no
 * title, no tags (hashtags are text), no file names and no embeds (links are <a> in `text`). Sources
 * are cited per fixture; "OS" is datawhores/OF-Scraper (test_constants.py sample payloads,
 * classes/of/media.py), "VO" Voldrix/onlyfans-dl-2, "notes" /work/research/onlyfans.md.
 */
import { UrlSigner } from './kit/signing.ts';
import { demoDataset, renderPost, renderUser, type RenderContext } from './onlyfans-data.ts';

const NOW = 1717243200;
const ctx: RenderContext = {
  cdn: 'https://cdn2.onlyfans.com',
  publicHost: 'https://public.onlyfans.com',
  signer: new UrlSigner('fixture-secret', 'APKAIN4QFZ7VFMVZBN5Q', () => NOW * 1000),
  ttl: 3600,
};
const [luna] = demoDataset().creators;
const post = (start: string) => {
  const found = luna.posts.find((p) => p.rawText.startsWith(start));
  if (!found) throw new Error(`no post ${start}`);
  return renderPost(ctx, luna, found);
};

export const ONLYFANS_FIXTURES = {
  /** OS TIMELINE_EXAMPLE (post fields), no media: notes 2.4, 3 "Text". */
  textOnly: { source: 'OS test_constants.py TIMELINE_EXAMPLE; notes 2.4', post: post('Hi everyone!') },
  /** One photo, current media shape files.full/thumb/preview/squarePreview: OS classes/of/media.py; notes 3. */
  image: { source: 'OS classes/of/media.py (files.*); notes 3', post: post('Golden hour') },
  /** Three photos in one post (OnlyFans galleries are a post's media list). */
  gallery: { source: 'notes 2.4 (media[]), 3', post: post('Three from the beach shoot') },
  /** Video: files.full.url the original MP4, videoSources {720, 240}: OS _url_quality_picker; notes 3. */
  video: { source: 'OS classes/of/media.py (videoSources); notes 3', post: post('Behind the scenes clip') },
  /** Audio: type "audio", an MP3 original, no image files: notes 3 (type values). */
  audio: { source: 'notes 3 (type audio)', post: post('A little song for you') },
  /** Pay-per-view: price, isOpened false, canViewMedia false, media canView false with null URLs, `preview` = ids shown free: notes 3 "Locked"; KS/VO skip such media. */
  locked: { source: 'notes 3 (locked content); VO, KS', post: post('Full set, unlock below') },
  /** DRM video: files.full.url null, files.drm.manifest.{hls,dash} + signature cookies: OS classes/of/media.py; notes 3, 4. */
  drmVideo: { source: 'OS classes/of/media.py (files.drm); notes 3', post: post('Protected premiere') },
  /** 2021-2023 media shape: source.source, info.source, string full/preview/thumb: OS examples, VO fallback; notes 3. */
  legacyMedia: { source: 'OS test_constants.py (source.source); VO; notes 3', post: post('From the archive (2022 upload)') },
  /** Unicode rawText; `text` escaped with <br />: notes 3 "Text". */
  unicode: { source: 'notes 3 (text HTML, rawText plain)', post: post('月の光') },
  /** A link: <a href> in `text`, hasUrls true (OnlyFans has no embeds). */
  link: { source: 'notes 3 (links as <a href>)', post: post('My wishlist') },
  /** isPinned (listed by pinned=1, left out by pinned=0): OS PINNED_POSTS_EXAMPLE; notes 2.4. */
  pinned: { source: 'OS PINNED_POSTS_EXAMPLE; notes 2.4', post: post('Read this first!') },
  /** expiredAt set: the post expires: notes 3 "Dates". */
  expiring: { source: 'notes 3 (expiredAt)', post: post('Gone in a week') },
  /** isArchived (posts/archived): notes 2.4. */
  archived: { source: 'notes 2.4 (posts/archived)', post: post('Old post moved to the archive') },
  /** isDeleted true: the field the post shape has (notes 3 "Deleted"); the fake never lists such a post. */
  deleted: { source: 'notes 3 (isDeleted)', post: { ...post('Good morning #14'), isDeleted: true } },
  /** The profile (users/{id}): OS USERPROFILE_EXAMPLE_DICT; notes 2.3. */
  profile: { source: 'OS USERPROFILE_EXAMPLE_DICT; notes 2.3', user: renderUser(ctx, luna) },
};
