/**
 * Recorded-shape Fansly answers, one per content kind, for table-driven mapper tests: the `response`
 * of GET /api/v1/post?ids= (same container as /timelinenew), of /message, and of /account, exactly as
 * the fake renders them with Fansly's real hosts (https://cdn3.fansly.com) and a fixed clock, so they
 * never change. Fansly has no titles, no file names, no embeds and no rich text: a link is plain
 * text in `content`, tags are the #hashtags in it. Sources are cited per fixture; "JK" is
 * Jakan-Kink/fansly-scraper tests/fixtures/json_data (captured from the real API), "notes" is
 * /work/research/fansly.md.
 */
import { UrlSigner } from './kit/signing.ts';
import {
  renderAccount,
  renderAccountMedia,
  renderBundle,
  renderMessage,
  renderPostContainer,
  sf,
  type FanslyCreator,
  type FanslyDataset,
  type FanslyMediaSpec,
  type FanslyPost,
  type RenderContext,
} from './fansly-data.ts';

const NOW = 1737290990;
const ctx: RenderContext = { cdn: 'https://cdn3.fansly.com', signer: new UrlSigner('fixture-secret', 'K2JCJMDEHXQW5F', () => NOW * 1000), ttl: 3600 };

const creator = (posts: FanslyPost[]): FanslyCreator => ({
  id: sf(100),
  username: 'mika_art',
  displayName: 'Mika ミカ 🌸',
  about: 'Illustrator',
  tier: { id: sf(120), name: 'Supporter', price: 5000 },
  walls: [{ id: sf(110), name: 'Main', description: '' }],
  subscribed: true,
  following: true,
  avatarId: sf(130),
  bannerId: sf(140),
  posts,
});
const other: FanslyCreator = { ...creator([]), id: sf(200), username: 'noah_sfx', displayName: 'Noah', tier: { id: sf(220), name: 'Listener', price: 3000 }, avatarId: sf(230), bannerId: sf(240) };
const media = (n: number, kind: FanslyMediaSpec['kind'], extra: Partial<FanslyMediaSpec> = {}): FanslyMediaSpec => ({ id: sf(5000 + n * 10), kind, ...extra });
const post = (n: number, content: string, rest: Partial<FanslyPost> = {}): FanslyPost => ({ id: sf(4000 + n * 10), createdAt: NOW - n * 3600, content, media: [], ...rest });

/** The /post container for one post of Mika's (and, for a repost, Noah's original). */
function one(p: FanslyPost, originals: FanslyPost[] = []) {
  const mika = creator([p]);
  const dataset: FanslyDataset = { me: { id: sf(900), username: 'fan', displayName: 'Fan' }, creators: [mika, { ...other, posts: originals }], groups: [] };
  return renderPostContainer(ctx, dataset, [{ creator: mika, post: p }]);
}

const original = post(20, 'Free for everyone', { media: [media(20, 'image')] });

export const FANSLY_FIXTURES = {
  /** JK example_timeline.json posts[0] (content with hashtags, no attachments): notes 2.3, 3. */
  textOnly: { source: 'JK example_timeline.json post; notes 2.3', response: one(post(1, 'Hello Fansly! First post, text only. #hello #intro')) },
  /** One accountMedia attachment (contentType 1) with an image Media and a thumbnail variant: JK example_conversation.json accountMedia, notes 2.4. */
  image: { source: 'JK example_conversation.json accountMedia; notes 2.4', response: one(post(2, 'New piece #illustration', { media: [media(2, 'image')] })) },
  /** A bundle (contentType 2): accountMediaBundles with accountMediaIds/bundleContent; member media come from /account/media: JK example_timeline.json accountMediaBundles, notes 2.4. */
  gallery: {
    source: 'JK example_timeline.json accountMediaBundles; notes 2.4',
    response: one(post(3, 'Three sketches #sketch', { media: [media(3, 'image'), media(4, 'image'), media(5, 'image')], bundleId: sf(4031) })),
    accountMedia: [media(3, 'image'), media(4, 'image'), media(5, 'image')].map((m) => renderAccountMedia(ctx, creator([]), m, NOW)),
  },
  /** Video with the original .mp4 location (locationId 1), a JPEG variant and an HLS variant (302, locationId 102, CloudFront metadata): JK example_timeline.json media, notes 2.4 and 4. */
  video: { source: 'JK example_timeline.json accountMedia[0].media; notes 2.4, 4', response: one(post(6, 'Timelapse', { media: [media(6, 'video')] })) },
  /** A video whose only downloadable form is the HLS manifest (no original location): notes 2.4 "when only an HLS variant is available". */
  videoHlsOnly: { source: 'notes 2.4 (HLS-only), 4 (manifest metadata)', response: one(post(7, 'Stream replay', { media: [media(7, 'video-hls')] })) },
  /** Audio: mimetype audio/mp4 (notes 2.4; Media type 3 is the fake's choice, not recorded). */
  audio: { source: 'notes 2.4 (audio/mp4)', response: one(post(8, 'Voice note', { media: [media(8, 'audio')] })) },
  /** Pay-per-view: access false, price, previewId and a preview with locations, media without: notes 2.4 previews, 3 locked content; JK example_timeline.json preview shape. */
  locked: { source: 'JK example_timeline.json preview; notes 2.4, 3', response: one(post(9, 'Pay-per-view set', { media: [media(9, 'image', { locked: true, price: 4990 })] })) },
  /** deleted / deletedAt on the accountMedia: notes 3 "Deleted". */
  deleted: { source: 'notes 3 (deleted, deletedAt on accountMedia)', response: one(post(10, 'This one was removed', { media: [media(10, 'image', { deleted: true })] })) },
  /** Unicode text with newlines, HTML-looking text that is plain text, non-ASCII hashtags: notes 3 "Text", "Tags". */
  unicode: { source: 'notes 3 (plain text, hashtags)', response: one(post(11, '日本語のタイトル 🎨\n«Ünïcödé» & <b>not bold</b>\nSecond line #日本語 #art', { media: [media(11, 'image')] })) },
  /** A link in the text (Fansly has no embeds). */
  link: { source: 'notes 3 (plain text)', response: one(post(12, 'Process write-up: https://example.com/process')) },
  /** A repost: attachment contentType 8, the original in aggregatedPosts with its media: notes 2.4, 3 "Reposts". */
  repost: { source: 'notes 2.4 contentType 8', response: one(post(13, 'Check out Noah! @noah_sfx', { repostOf: original.id }), [original]) },
  /** The account with avatar/banner Media, pinnedPosts, walls, tiers and the fan's subscription: notes 2.2 (JK timeline fixture + api_fixtures.py). */
  account: { source: 'notes 2.2 account object', response: [renderAccount(ctx, creator([post(1, 'pinned', { pinned: true })]), sf(900))] },
  /** /message answer: one message with an image and one with a bundle: JK example_conversation.json, test_message_variants.json; notes 2.5. */
  message: {
    source: 'JK example_conversation.json, test_message_variants.json; notes 2.5',
    response: {
      messages: [
        renderMessage({ id: sf(7010), senderId: sf(100), content: 'Two more from the archive', createdAt: NOW, media: [media(30, 'image'), media(31, 'image')], bundleId: sf(7011) }, sf(300)),
        renderMessage({ id: sf(7000), senderId: sf(100), content: 'Welcome! 💌', createdAt: NOW - 60, media: [media(32, 'image')] }, sf(300)),
      ],
      accountMedia: [media(30, 'image'), media(31, 'image'), media(32, 'image')].map((m) => renderAccountMedia(ctx, creator([]), m, NOW)),
      accountMediaBundles: [renderBundle(creator([]), sf(7011), [media(30, 'image'), media(31, 'image')], NOW)],
      tips: [],
      tipGoals: [],
      accountMediaOrders: [],
      stories: [],
      storyOrders: [],
    },
  },
};
