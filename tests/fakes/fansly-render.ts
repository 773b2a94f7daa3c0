/**
 * How apiv3.fansly.com renders the fake Fansly's content (fansly-data.ts): accounts, posts with
 * attachments resolved through accountMedia / accountMediaBundles / aggregatedPosts, Media objects with
 * variants and CloudFront-signed locations, subscriptions, messages, and the HLS files of a video. Shapes
 * follow the notes (/work/research/fansly.md sections 2-3) and the JSON captured from the real API in
 * Jakan-Kink/fansly-scraper tests/fixtures/json_data.
 */
import {
  DAY,
  T0,
  plus,
  sf,
  type FanslyCreator,
  type FanslyDataset,
  type FanslyMediaKind,
  type FanslyMediaSpec,
  type FanslyMessage,
  type FanslyPost,
} from './fansly-data.ts';
import { hlsMaster } from './kit/hls.ts';
import type { UrlSigner } from './kit/signing.ts';

export interface RenderContext {
  cdn: string;
  signer: UrlSigner;
  /** Lifetime of signed URLs (s). */
  ttl: number;
}

/** Width/height each kind's files really have (the CDN serves these sizes). */
export const SIZES = { image: [64, 48], thumb: [32, 24], video: [320, 180], poster: [64, 36] } as const;

const extOf = (kind: FanslyMediaKind) => (kind === 'image' ? 'jpeg' : 'mp4');
const mimeOf = (kind: FanslyMediaKind) => (kind === 'image' ? 'image/jpeg' : kind === 'audio' ? 'audio/mp4' : 'video/mp4');

/** The CDN paths of a media item: original, thumbnail variant, preview, HLS master. */
export function mediaPaths(accountId: string, spec: FanslyMediaSpec) {
  return {
    original: `/${accountId}/${spec.id}.${extOf(spec.kind)}`,
    thumb: `/${accountId}/${plus(spec.id, 2)}.jpeg`,
    preview: `/${accountId}/${plus(spec.id, 1)}.jpeg`,
    hls: `/${accountId}/${plus(spec.id, 3)}.m3u8`,
  };
}

const permissions = (ownerId: string, tierId: string, price: number) => ({
  permissionFlags: [
    {
      id: plus(ownerId, 7),
      accountMediaId: ownerId,
      type: 0,
      flags: 2,
      price,
      metadata: '',
      validAfter: null,
      validBefore: null,
      verificationFlags: 2,
      verificationMetadata: '{}',
    },
  ],
  accountPermissionFlags: { flags: 6, metadata: JSON.stringify({ 4: JSON.stringify({ subscriptionTierId: tierId }) }) },
});

/** A Media object; `withLocations` false for files this fan may not fetch. */
export function renderMedia(ctx: RenderContext, accountId: string, spec: FanslyMediaSpec, createdAt: number, withLocations: boolean) {
  const paths = mediaPaths(accountId, spec);
  const loc = (path: string) => (withLocations ? [{ locationId: '1', location: ctx.signer.sign(`${ctx.cdn}${path}`, ctx.ttl) }] : []);
  const [w, h] = spec.kind === 'image' ? SIZES.image : spec.kind === 'audio' ? [0, 0] : SIZES.video;
  const variants: Record<string, unknown>[] = [];
  if (spec.kind === 'image' || spec.kind === 'video' || spec.kind === 'video-hls') {
    const [tw, th] = spec.kind === 'image' ? SIZES.thumb : SIZES.poster;
    variants.push({
      id: plus(spec.id, 2),
      type: 1,
      status: 1,
      mimetype: 'image/jpeg',
      flags: 0,
      location: paths.thumb,
      width: tw,
      height: th,
      metadata: '{"resolutionMode":1}',
      updatedAt: createdAt + 1,
      locations: loc(paths.thumb),
    });
  }
  if (spec.kind !== 'image' && spec.kind !== 'audio') {
    const p = ctx.signer.params(`${ctx.cdn}/${accountId}/${plus(spec.id, 3)}*`, ctx.ttl);
    variants.push({
      id: plus(spec.id, 3),
      type: 302,
      status: 1,
      mimetype: 'application/vnd.apple.mpegurl',
      flags: 0,
      location: null,
      width: w,
      height: h,
      metadata: JSON.stringify({ duration: 3, resolutionMode: 1, frameRate: 12, variants: [{ w, h }] }),
      updatedAt: createdAt + 1,
      locations: withLocations ? [{ locationId: '102', location: `${ctx.cdn}${paths.hls}`, metadata: { ...p } }] : [],
    });
  }
  const meta =
    spec.kind === 'image' ? { resolutionMode: 1 } : { duration: 3, ...(spec.kind === 'audio' ? {} : { resolutionMode: 1, frameRate: 12 }) };
  return {
    id: spec.id,
    type: spec.kind === 'image' ? 1 : spec.kind === 'audio' ? 3 : 2,
    status: 1,
    accountId,
    mimetype: mimeOf(spec.kind),
    flags: 298,
    location: paths.original,
    width: w,
    height: h,
    metadata: JSON.stringify(meta),
    updatedAt: createdAt + 1,
    createdAt,
    variants,
    variantHash: {},
    locations: spec.kind === 'video-hls' ? [] : loc(paths.original),
  };
}

/** An accountMedia object as /account/media and the timeline's accountMedia list give it. */
export function renderAccountMedia(
  ctx: RenderContext,
  creator: { id: string; tier: { id: string } },
  spec: FanslyMediaSpec,
  createdAt: number,
) {
  const access = !spec.locked && !spec.deleted;
  const previewed = !!spec.locked;
  const preview = previewed
    ? {
        id: plus(spec.id, 1),
        type: 1,
        status: 1,
        accountId: creator.id,
        mimetype: 'image/jpeg',
        flags: 298,
        location: mediaPaths(creator.id, spec).preview,
        width: SIZES.thumb[0],
        height: SIZES.thumb[1],
        metadata: '{"resolutionMode":1}',
        createdAt,
        variants: [],
        locations: [{ locationId: '1', location: ctx.signer.sign(`${ctx.cdn}${mediaPaths(creator.id, spec).preview}`, ctx.ttl) }],
      }
    : undefined;
  return {
    id: spec.id,
    accountId: creator.id,
    mediaId: spec.id,
    previewId: preview ? preview.id : null,
    permissionFlags: 0,
    price: spec.price ?? 0,
    createdAt,
    deletedAt: spec.deleted ? createdAt + 3600 : null,
    deleted: !!spec.deleted,
    permissions: permissions(spec.id, creator.tier.id, spec.price ?? 0),
    media: renderMedia(ctx, creator.id, spec, createdAt, access),
    ...(preview ? { preview } : {}),
    likeCount: 2,
    purchased: false,
    whitelisted: false,
    accountPermissionFlags: access ? 6 : 0,
    access,
  };
}

export function renderBundle(creator: { id: string; tier: { id: string } }, bundleId: string, specs: FanslyMediaSpec[], createdAt: number) {
  const access = specs.every((s) => !s.locked);
  return {
    id: bundleId,
    accountId: creator.id,
    previewId: null,
    permissionFlags: 0,
    price: 0,
    createdAt,
    deletedAt: null,
    deleted: false,
    accountMediaIds: specs.map((s) => s.id),
    bundleContent: specs.map((s, pos) => ({ accountMediaId: s.id, pos })),
    permissions: permissions(bundleId, creator.tier.id, 0),
    purchased: false,
    whitelisted: false,
    accountPermissionFlags: access ? 6 : 0,
    access,
  };
}

/** Attachments of a post or message: one per media, or the bundle, or the reposted post. */
export function attachments(item: { media: FanslyMediaSpec[]; bundleId?: string; repostOf?: string }) {
  if (item.repostOf) return [{ pos: 0, contentType: 8, contentId: item.repostOf }];
  if (item.bundleId) return [{ pos: 0, contentType: 2, contentId: item.bundleId }];
  return item.media.map((s, pos) => ({ pos, contentType: 1, contentId: s.id }));
}

export function renderPost(creator: FanslyCreator, post: FanslyPost) {
  return {
    id: post.id,
    accountId: creator.id,
    content: post.content,
    fypFlags: 0,
    inReplyTo: null,
    inReplyToRoot: null,
    createdAt: post.createdAt,
    expiresAt: null,
    attachments: attachments(post),
    likeCount: 5,
    replyCount: 0,
    timelineReadPermissionFlags: [],
    accountTimelineReadPermissionFlags: { flags: 0, metadata: '{}' },
    mediaLikeCount: 0,
    totalTipAmount: 0,
    attachmentTipAmount: 0,
    accountMentions: post.repostOf ? [{ handle: 'noah_sfx', accountId: sf(200) }] : [],
  };
}

/**
 * The container the timeline and /post answer with. Media attached one by one are in accountMedia;
 * the media of bundles are not (only their ids are), so a client has to fetch them from
 * /account/media, as the notes say the real timeline's list can be incomplete.
 */
export function renderPostContainer(ctx: RenderContext, dataset: FanslyDataset, posts: { creator: FanslyCreator; post: FanslyPost }[]) {
  const accountMedia: ReturnType<typeof renderAccountMedia>[] = [];
  const bundles: ReturnType<typeof renderBundle>[] = [];
  const aggregated: ReturnType<typeof renderPost>[] = [];
  const accounts = new Map<string, ReturnType<typeof renderAccount>>();
  const addMedia = (creator: FanslyCreator, post: FanslyPost) => {
    if (post.bundleId) bundles.push(renderBundle(creator, post.bundleId, post.media, post.createdAt));
    else for (const spec of post.media) accountMedia.push(renderAccountMedia(ctx, creator, spec, post.createdAt));
  };
  for (const { creator, post } of posts) {
    addMedia(creator, post);
    if (post.repostOf) {
      for (const other of dataset.creators) {
        const original = other.posts.find((p) => p.id === post.repostOf);
        if (!original) continue;
        aggregated.push(renderPost(other, original));
        addMedia(other, original);
        accounts.set(other.id, renderAccount(ctx, other));
      }
    }
    accounts.set(creator.id, renderAccount(ctx, creator));
  }
  return {
    posts: posts.map(({ creator, post }) => renderPost(creator, post)),
    aggregatedPosts: aggregated,
    accountMediaBundles: bundles,
    accountMedia,
    accounts: [...accounts.values()],
    tips: [],
    tipGoals: [],
    stories: [],
    polls: [],
    timelineReadPermissionFlags: [],
    accountTimelineReadPermissionFlags: { flags: 0, metadata: '{}' },
  };
}

export function renderSubscription(creator: FanslyCreator, fanId: string) {
  const start = T0 * 1000;
  return {
    id: plus(creator.id, 9),
    historyId: plus(creator.id, 8),
    subscriberId: fanId,
    accountId: creator.id,
    subscriptionTierId: creator.tier.id,
    subscriptionTierName: creator.tier.name,
    subscriptionTierColor: '#2699f7',
    planId: plus(creator.tier.id, 1),
    promoId: null,
    giftCodeId: null,
    paymentMethodId: null,
    status: 3,
    price: creator.tier.price,
    renewPrice: creator.tier.price,
    autoRenew: true,
    billingCycle: 30,
    duration: 30,
    renewDate: start + 60 * DAY * 1000,
    createdAt: start,
    updatedAt: start,
    endsAt: start + 60 * DAY * 1000,
    promoPrice: null,
    promoDuration: null,
    promoStatus: null,
    promoStartsAt: null,
    promoEndsAt: null,
    version: 1,
  };
}

export function renderAccount(ctx: RenderContext, creator: FanslyCreator, fanId = '') {
  const image = (mediaId: string) => renderMedia(ctx, creator.id, { id: mediaId, kind: 'image' }, T0, true);
  return {
    id: creator.id,
    username: creator.username,
    displayName: creator.displayName,
    flags: 18,
    version: 3,
    createdAt: T0 - 90 * DAY,
    about: creator.about,
    location: '',
    followCount: 120,
    subscriberCount: 40,
    following: creator.following,
    subscribed: creator.subscribed,
    ...(creator.subscribed && fanId ? { subscription: renderSubscription(creator, fanId) } : {}),
    avatar: image(creator.avatarId),
    banner: image(creator.bannerId),
    timelineStats: {
      accountId: creator.id,
      imageCount: creator.posts.flatMap((p) => p.media).filter((s) => s.kind === 'image').length,
      videoCount: creator.posts.flatMap((p) => p.media).filter((s) => s.kind !== 'image').length,
      bundleCount: creator.posts.filter((p) => p.bundleId).length,
      bundleImageCount: 0,
      bundleVideoCount: 0,
      fetchedAt: T0,
    },
    pinnedPosts: creator.posts
      .filter((p) => p.pinned)
      .map((p, pos) => ({ postId: p.id, accountId: creator.id, pos, createdAt: p.createdAt * 1000 })),
    walls: creator.walls.map((w, pos) => ({
      id: w.id,
      accountId: creator.id,
      pos,
      name: w.name,
      description: w.description,
      metadata: '',
    })),
    subscriptionTiers: [
      {
        id: creator.tier.id,
        accountId: creator.id,
        name: creator.tier.name,
        color: '#2699f7',
        pos: 0,
        price: creator.tier.price,
        maxSubscribers: 0,
        subscriptionBenefits: ['All posts'],
        includedTierIds: [],
        plans: [],
      },
    ],
    profileSocials: [],
    profileAccess: true,
    profileAccessFlags: 0,
    profileFlags: 0,
    accountMediaLikes: 0,
    streaming: { accountId: creator.id, enabled: false, channel: null },
  };
}

export function renderMessage(message: FanslyMessage, groupId: string) {
  return {
    id: message.id,
    type: 1,
    dataVersion: 1,
    content: message.content,
    groupId,
    senderId: message.senderId,
    correlationId: '0',
    inReplyTo: null,
    inReplyToRoot: null,
    createdAt: message.createdAt,
    attachments: attachments(message).map((a) => ({ messageId: message.id, ...a })),
    embeds: [],
    interactions: [{ userId: message.senderId, readAt: message.createdAt * 1000 + 5000, deliveredAt: message.createdAt * 1000 + 1000 }],
    likes: [],
    totalTipAmount: 0,
  };
}

/** The /message answer for these messages of a group: the messages, and the media and bundles of the creators' ones. */
export function renderMessagePage(ctx: RenderContext, dataset: FanslyDataset, groupId: string, page: FanslyMessage[]) {
  const accountMedia: ReturnType<typeof renderAccountMedia>[] = [];
  const bundles: ReturnType<typeof renderBundle>[] = [];
  for (const msg of page) {
    const owner = dataset.creators.find((c) => c.id === msg.senderId);
    if (!owner) continue;
    if (msg.bundleId) bundles.push(renderBundle(owner, msg.bundleId, msg.media, msg.createdAt));
    for (const spec of msg.media) accountMedia.push(renderAccountMedia(ctx, owner, spec, msg.createdAt));
  }
  return {
    messages: page.map((msg) => renderMessage(msg, groupId)),
    accountMedia,
    accountMediaBundles: bundles,
    tips: [],
    tipGoals: [],
    accountMediaOrders: [],
    stories: [],
    storyOrders: [],
  };
}

/** The HLS files of a video: master playlist, its one rendition and the rendition's segments. */
export function hlsFiles(accountId: string, spec: FanslyMediaSpec) {
  const base = `/${accountId}/${plus(spec.id, 3)}`;
  const [w, h] = SIZES.video;
  return {
    master: `${base}.m3u8`,
    rendition: `${base}_${h}.m3u8`,
    segment: (n: number) => `${base}_${h}_${String(n).padStart(5, '0')}.ts`,
    masterText: hlsMaster([{ uri: `${plus(spec.id, 3)}_${h}.m3u8`, width: w, height: h, bandwidth: 120000 }]),
  };
}
