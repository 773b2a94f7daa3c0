/**
 * Recorded-shape Fansly answers, one per content kind, for table-driven mapper tests: the `response`
 * of GET /api/v1/post?ids= (same container as /timelinenew), of /message, and of /account, exactly as
 * the fake renders them (fansly-render.ts, over Mika's posts and messages of the demo dataset) with
 * Fansly's real hosts (https://cdn3.fansly.com) and a fixed clock, so they never change. Fansly has no
 * titles, no file names, no embeds and no rich text: a link is plain text in `content`, tags are the
 * #hashtags in it. Sources are cited per fixture; "JK" is Jakan-Kink/fansly-scraper
 * tests/fixtures/json_data (captured from the real API), "notes" is /work/research/fansly.md.
 */
import { UrlSigner } from './kit/signing.ts';
import { demoDataset, type FanslyPost } from './fansly-data.ts';
import { renderAccount, renderAccountMedia, renderMessagePage, renderPostContainer, type RenderContext } from './fansly-render.ts';

const NOW = 1737290990;
const ctx: RenderContext = {
  cdn: 'https://cdn3.fansly.com',
  signer: new UrlSigner('fixture-secret', 'K2JCJMDEHXQW5F', () => NOW * 1000),
  ttl: 3600,
};
const data = demoDataset();
const [mika] = data.creators;
const [chat] = data.groups;

const post = (start: string): FanslyPost => {
  const found = mika.posts.find((p) => p.content.startsWith(start));
  if (!found) throw new Error(`no post ${start}`);
  return found;
};
/** The /post container for one post of Mika's (and, for a repost, the original and its account). */
const one = (start: string) => renderPostContainer(ctx, data, [{ creator: mika, post: post(start) }]);
const gallery = post('Three sketches');

export const FANSLY_FIXTURES = {
  /** JK example_timeline.json posts[0] (content with hashtags, no attachments): notes 2.3, 3. */
  textOnly: { source: 'JK example_timeline.json post; notes 2.3', response: one('Hello Fansly!') },
  /** One accountMedia attachment (contentType 1) with an image Media and a thumbnail variant: JK example_conversation.json accountMedia, notes 2.4. */
  image: { source: 'JK example_conversation.json accountMedia; notes 2.4', response: one('New piece finished') },
  /** A bundle (contentType 2): accountMediaBundles with accountMediaIds/bundleContent; member media come from /account/media: JK example_timeline.json accountMediaBundles, notes 2.4. */
  gallery: {
    source: 'JK example_timeline.json accountMediaBundles; notes 2.4',
    response: one('Three sketches'),
    accountMedia: gallery.media.map((m) => renderAccountMedia(ctx, mika, m, gallery.createdAt)),
  },
  /** Video with the original .mp4 location (locationId 1), a JPEG variant and an HLS variant (302, locationId 102, CloudFront metadata): JK example_timeline.json media, notes 2.4 and 4. */
  video: { source: 'JK example_timeline.json accountMedia[0].media; notes 2.4, 4', response: one('Timelapse of the painting') },
  /** A video whose only downloadable form is the HLS manifest (no original location): notes 2.4 "when only an HLS variant is available". */
  videoHlsOnly: { source: 'notes 2.4 (HLS-only), 4 (manifest metadata)', response: one('Stream replay') },
  /** Audio: mimetype audio/mp4 (notes 2.4; Media type 3 is the fake's choice, not recorded). */
  audio: { source: 'notes 2.4 (audio/mp4)', response: one('Voice note') },
  /** Pay-per-view: access false, price, previewId and a preview with locations, media without: notes 2.4 previews, 3 locked content; JK example_timeline.json preview shape. */
  locked: { source: 'JK example_timeline.json preview; notes 2.4, 3', response: one('Full-resolution set') },
  /** deleted / deletedAt on the accountMedia: notes 3 "Deleted". */
  deleted: { source: 'notes 3 (deleted, deletedAt on accountMedia)', response: one('This one was removed') },
  /** Unicode text with newlines, HTML-looking text that is plain text, non-ASCII hashtags: notes 3 "Text", "Tags". */
  unicode: { source: 'notes 3 (plain text, hashtags)', response: one('日本語のタイトル') },
  /** A link in the text (Fansly has no embeds). */
  link: { source: 'notes 3 (plain text)', response: one('Process write-up') },
  /** A repost: attachment contentType 8, the original in aggregatedPosts with its media: notes 2.4, 3 "Reposts". */
  repost: { source: 'notes 2.4 contentType 8', response: one('Check out Noah!') },
  /** The account with avatar/banner Media, pinnedPosts, walls, tiers and the fan's subscription: notes 2.2 (JK timeline fixture + api_fixtures.py). */
  account: { source: 'notes 2.2 account object', response: [renderAccount(ctx, mika, data.me.id)] },
  /** /message answer: one message with a bundle of two images and one with an image: JK example_conversation.json, test_message_variants.json; notes 2.5. */
  message: {
    source: 'JK example_conversation.json, test_message_variants.json; notes 2.5',
    response: renderMessagePage(ctx, data, chat.id, chat.messages.filter((m) => /^(Two more|Welcome!)/.test(m.content)).reverse()),
  },
};
