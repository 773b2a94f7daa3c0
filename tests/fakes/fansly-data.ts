/**
 * The fake Fansly's content: accounts with tiers and walls, posts whose media are single attachments,
 * bundles or reposts, message groups and messages, and the demo and benchmark datasets. How
 * apiv3.fansly.com renders it is in fansly-render.ts. Shapes follow the notes (/work/research/fansly.md
 * sections 2-3) and the JSON captured from the real API in Jakan-Kink/fansly-scraper
 * tests/fixtures/json_data (example_timeline, example_conversation, messages-group,
 * example_subscriptions). Ids are 18-digit strings, as Fansly's snowflakes are.
 */

export type FanslyMediaKind = 'image' | 'video' | 'video-hls' | 'audio';

export interface FanslyMediaSpec {
  /** accountMedia id = media id; the preview is id+1, variants id+2.. */
  id: string;
  kind: FanslyMediaKind;
  /** Pay-per-view or above the fan's tier: access false, only the preview has locations. */
  locked?: boolean;
  price?: number;
  deleted?: boolean;
}

export interface FanslyPost {
  id: string;
  createdAt: number;
  content: string;
  media: FanslyMediaSpec[];
  /** The media are one bundle (attachment contentType 2) instead of one attachment each. */
  bundleId?: string;
  /** A repost of this post id (attachment contentType 8, the post in aggregatedPosts). */
  repostOf?: string;
  wallId?: string;
  pinned?: boolean;
}

export interface FanslyCreator {
  id: string;
  username: string;
  displayName: string;
  about: string;
  tier: { id: string; name: string; price: number };
  walls: { id: string; name: string; description: string }[];
  subscribed: boolean;
  following: boolean;
  avatarId: string;
  bannerId: string;
  posts: FanslyPost[];
}

export interface FanslyMessage {
  id: string;
  senderId: string;
  content: string;
  createdAt: number;
  media: FanslyMediaSpec[];
  bundleId?: string;
}

export interface FanslyGroup {
  id: string;
  partner: { id: string; username: string; displayName: string };
  messages: FanslyMessage[];
}

export interface FanslyDataset {
  me: { id: string; username: string; displayName: string };
  creators: FanslyCreator[];
  groups: FanslyGroup[];
}

export const sf = (n: number | bigint) => String(790000000000000000n + BigInt(n));
export const plus = (id: string, n: number) => String(BigInt(id) + BigInt(n));

/** The datasets' clock (epoch seconds): posts, messages, subscriptions and accounts are dated from it. */
export const T0 = Date.UTC(2024, 2, 1, 9) / 1000;
export const DAY = 86400;

/**
 * Mika (subscribed, two walls, 17 posts of every kind, one pinned) and Noah (followed only: his media
 * are locked to this fan), DMs with Mika over two pages of 25 (with media, one pay-per-view) and a
 * group with someone who is not a creator.
 */
export function demoDataset(): FanslyDataset {
  let counter = 1000;
  const id = () => sf((counter += 10));
  const m = (kind: FanslyMediaKind, extra: Partial<FanslyMediaSpec> = {}): FanslyMediaSpec => ({ id: id(), kind, ...extra });
  const mikaId = sf(100);
  const noahId = sf(200);
  const noahPosts: FanslyPost[] = [
    { id: id(), createdAt: T0 + 1 * DAY, content: 'Foley session: rain on a tin roof', media: [m('audio', { locked: true, price: 0 })] },
    { id: id(), createdAt: T0 + 2 * DAY, content: 'Studio photo', media: [m('image', { locked: true, price: 0 })] },
    { id: id(), createdAt: T0 + 3 * DAY, content: 'Free for everyone, thanks for following!', media: [m('image')] },
  ];
  const walls = [
    { id: sf(110), name: 'Main', description: 'Everything' },
    { id: sf(111), name: 'Sketches 落書き', description: 'Work in progress' },
  ];
  const day = (n: number) => T0 + n * DAY;
  const mika: FanslyPost[] = [
    { id: id(), createdAt: day(1), content: 'Hello Fansly! First post, text only. #hello #intro', media: [], pinned: true },
    { id: id(), createdAt: day(2), content: 'New piece finished #illustration', media: [m('image')] },
    {
      id: id(),
      createdAt: day(3),
      content: 'Three sketches from this week #sketch #wip',
      media: [m('image'), m('image'), m('image')],
      bundleId: id(),
      wallId: walls[1].id,
    },
    { id: id(), createdAt: day(4), content: 'Timelapse of the painting', media: [m('video')] },
    { id: id(), createdAt: day(5), content: 'Stream replay (streamed only)', media: [m('video-hls')] },
    { id: id(), createdAt: day(6), content: 'Voice note for subscribers', media: [m('audio')] },
    { id: id(), createdAt: day(7), content: 'Full-resolution set, pay-per-view', media: [m('image', { locked: true, price: 4990 })] },
    { id: id(), createdAt: day(8), content: 'This one was removed', media: [m('image', { deleted: true })] },
    { id: id(), createdAt: day(9), content: 'Check out Noah! @noah_sfx', media: [], repostOf: noahPosts[2].id },
    {
      id: id(),
      createdAt: day(10),
      content: '日本語のタイトル 🎨\n«Ünïcödé» & <b>not bold</b>\nSecond line #日本語 #art',
      media: [m('image')],
    },
    { id: id(), createdAt: day(11), content: 'Process write-up on my site: https://example.com/process', media: [] },
    { id: id(), createdAt: day(12), content: 'A sketch and a clip', media: [m('image'), m('video')], bundleId: id(), wallId: walls[1].id },
  ];
  for (let n = 13; n <= 17; n++)
    mika.push({ id: id(), createdAt: day(n), content: `Daily doodle ${n} #daily`, media: n % 2 ? [m('image')] : [] });
  const meId = sf(900);
  const strangerId = sf(950);
  const messages: FanslyMessage[] = [];
  const addMessage = (senderId: string, content: string, media: FanslyMediaSpec[] = [], bundle = false) =>
    messages.push({ id: id(), senderId, content, createdAt: day(20) + messages.length * 600, media, bundleId: bundle ? id() : undefined });
  addMessage(mikaId, 'Welcome! Here is a thank-you sketch 💌', [m('image')]);
  addMessage(meId, 'Thank you so much!');
  addMessage(mikaId, 'Exclusive clip, unlock it here', [m('video', { locked: true, price: 9990 })]);
  addMessage(mikaId, 'Two more from the archive', [m('image'), m('image')], true);
  addMessage(mikaId, 'ありがとう！また来週 🌙');
  for (let n = 1; n <= 25; n++) addMessage(n % 5 === 0 ? meId : mikaId, `Chat line ${n}`);
  return {
    me: { id: meId, username: 'fan_account', displayName: 'Fan Account' },
    creators: [
      {
        id: mikaId,
        username: 'mika_art',
        displayName: 'Mika ミカ 🌸',
        about: 'Illustrator. 絵を描いています。',
        tier: { id: sf(120), name: 'Supporter', price: 5000 },
        walls,
        subscribed: true,
        following: true,
        avatarId: sf(130),
        bannerId: sf(140),
        posts: mika,
      },
      {
        id: noahId,
        username: 'noah_sfx',
        displayName: 'Noah',
        about: 'Sound design',
        tier: { id: sf(220), name: 'Listener', price: 3000 },
        walls: [],
        subscribed: false,
        following: true,
        avatarId: sf(230),
        bannerId: sf(240),
        posts: noahPosts,
      },
    ],
    groups: [
      { id: sf(300), partner: { id: mikaId, username: 'mika_art', displayName: 'Mika ミカ 🌸' }, messages },
      {
        id: sf(310),
        partner: { id: strangerId, username: 'random_person', displayName: 'Random Person' },
        messages: [
          { id: id(), senderId: strangerId, content: 'hi, not a creator', createdAt: day(21), media: [] },
          { id: id(), senderId: meId, content: 'hello', createdAt: day(21) + 60, media: [] },
        ],
      },
    ],
  };
}

/**
 * A dataset of about `posts` visible posts over three subscribed creators, for the importer benchmark
 * (bench/importers/fansly.ts): each post has two images (the post's file and an attachment), every third
 * one as a bundle; no DMs.
 */
export function benchDataset(posts: number): FanslyDataset {
  const names = ['Bench Aoi', 'Bench Ben', 'Bench Cleo'];
  let counter = 100_000;
  const next = () => sf((counter += 10));
  const creators: FanslyCreator[] = names.map((displayName, c) => ({
    id: sf(10_000 + c * 100),
    username: displayName.toLowerCase().replace(' ', '_'),
    displayName,
    about: '',
    tier: { id: sf(10_010 + c * 100), name: 'Bench', price: 5000 },
    walls: [],
    subscribed: true,
    following: true,
    avatarId: sf(10_020 + c * 100),
    bannerId: sf(10_030 + c * 100),
    posts: [],
  }));
  for (let n = 0; n < posts; n++) {
    const media: FanslyMediaSpec[] = [
      { id: next(), kind: 'image' },
      { id: next(), kind: 'image' },
    ];
    creators[n % creators.length].posts.push({
      id: next(),
      createdAt: T0 + n * 3600,
      content: `Bench post ${n + 1} #bench`,
      media,
      bundleId: n % 3 === 0 ? next() : undefined,
    });
  }
  return { me: { id: sf(99_000), username: 'bench_fan', displayName: 'Bench Fan' }, creators, groups: [] };
}
