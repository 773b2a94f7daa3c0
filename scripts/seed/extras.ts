/**
 * The parts of the demo archive that do not scale with --posts: accounts, DMs, announcements,
 * fancards, shares, linked creators, a Discord server, Patreon community chats, favourites, a
 * notification, a flag, a pending link request and an import with its log.
 */
import type { Store } from '@api/data/store.ts';
import { createAccount, getAccountByUsername, type Role } from '@api/data/accounts.ts';
import { upsertAnnouncement } from '@api/data/announcements.ts';
import { upsertFancard } from '@api/data/fancards.ts';
import { upsertComment } from '@api/data/comments.ts';
import { upsertDm } from '@api/data/dms.ts';
import { createShare, listShareNames } from '@api/data/shares.ts';
import { addFavoriteCreator, addFavoritePost } from '@api/data/favorites.ts';
import { createLinkRequest, hasPendingLinkRequest, linkCreators } from '@api/data/links.ts';
import { flagPost } from '@api/data/flags.ts';
import { createNotification, listNotifications, NOTIFICATION_ROLE_CHANGE } from '@api/data/notifications.ts';
import { inTransaction } from '@api/data/store.ts';
import { appendImportLog, createImport, getImport, updateImport } from '@api/data/imports.ts';
import type { Rng } from './random.ts';
import { DAY, iso } from './time.ts';
import { seedShowcasePost } from './showcase.ts';
import { seedCommunity, seedDiscord } from './chat.ts';
import type { MediaPool, PoolFile } from './media.ts';

export interface SeededCreator {
  service: string;
  id: string;
  name: string;
  index: number;
  /** Ids of the creator's posts, in creation order. */
  postIds: string[];
}

export interface ExtrasContext {
  creators: SeededCreator[];
  pool: MediaPool;
  accounts: { role: string; username: string; password_hash: string }[];
  extraAccountHash: string;
  timeline: { start: number; end: number };
}

export function byService(creators: SeededCreator[], service: string): SeededCreator[] {
  return creators.filter((c) => c.service === service);
}

/**
 * Seeds everything that is not a post. Each area runs in its own transaction; the account data's opens
 * through the store (api/data/store.ts), since it calls modules that moved to it.
 */
export async function seedExtras(db: Store, rng: Rng, ctx: ExtrasContext): Promise<void> {
  const accounts = await seedAccounts(db, ctx);
  const consumer = accounts.get('consumer')!;
  const admin = accounts.get('admin')!;
  await inTransaction(db, async (db) => {
    await seedAnnouncementsAndFancards(db, rng.fork('tabs'), ctx);
    await seedShares(db, ctx, consumer);
    await seedLinks(db, ctx);
    await seedCommentRevision(db, ctx);
    await seedShowcasePost(db, ctx);
  });
  await inTransaction(db, async (db) => seedDiscord(db, rng.fork('discord'), ctx));
  await inTransaction(db, async (db) => seedCommunity(db, rng.fork('community'), ctx));
  await inTransaction(db, async (db) => seedDms(db, rng.fork('dms'), ctx, consumer));
  await inTransaction(db, async (db) => seedAccountData(db, rng.fork('social'), ctx, consumer, admin));
}

async function seedAccounts(db: Store, ctx: ExtrasContext): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await inTransaction(db, async (db) => {
    const created = iso(ctx.timeline.start);
    for (const account of ctx.accounts) {
      const existing = await getAccountByUsername(db, account.username);
      ids.set(
        account.username,
        existing?.id ??
          (
            await createAccount(db, {
              username: account.username,
              password_hash: account.password_hash,
              role: account.role as Role,
              created_at: created,
            })
          ).id,
      );
    }
    // A few more consumers so the administrator's account list has something to page and filter.
    for (const [i, username] of ['kiwi_fan', 'sketchy', 'patron_42', 'nekomimi'].entries()) {
      if (!(await getAccountByUsername(db, username))) {
        await createAccount(db, {
          username,
          password_hash: ctx.extraAccountHash,
          role: 'consumer',
          created_at: iso(ctx.timeline.start + (i + 1) * 30 * DAY),
        });
      }
    }
  });
  return ids;
}

async function seedAnnouncementsAndFancards(db: Store, rng: Rng, ctx: ExtrasContext): Promise<void> {
  const texts = [
    '<p>Thank you for 1,000 supporters! A bonus pack is coming next week.</p>',
    '<p>いつもありがとうございます。今月は更新が少し遅れます。</p>',
    '<p>New tier added: monthly PSD files and timelapses.</p>',
    '<p>冬コミに参加します！新刊の情報は後日お知らせします。</p>',
  ];
  for (const creator of [...byService(ctx.creators, 'fanbox'), ...byService(ctx.creators, 'patreon')]) {
    const count = rng.int(2, 3);
    for (let i = 0; i < count; i += 1) {
      const published = ctx.timeline.start + rng.int(10, 700) * DAY;
      await upsertAnnouncement(db, {
        service: creator.service,
        user_id: creator.id,
        hash: rng.hex(64),
        content: rng.pick(texts),
        published: iso(published),
        added: iso(published + DAY),
      });
    }
  }
  let fancardId = 100_000 + rng.int(0, 50_000) * 100;
  for (const creator of byService(ctx.creators, 'fanbox')) {
    const count = rng.int(2, 3);
    for (let i = 0; i < count; i += 1) {
      fancardId += rng.int(1, 500);
      await upsertFancard(db, {
        id: fancardId,
        service: 'fanbox',
        user_id: creator.id,
        file_id: rng.pick(ctx.pool.images).fileId,
        price: `${rng.pick([100, 300, 500, 1000])}円`,
        added: iso(ctx.timeline.start + rng.int(10, 700) * DAY),
      });
    }
  }
}

async function seedShares(db: Store, ctx: ExtrasContext, consumerId: number): Promise<void> {
  const { images, zips } = ctx.pool;
  const first = ctx.creators.find((c) => c.service !== 'discord');
  const second = ctx.creators.filter((c) => c.service !== 'discord')[1];
  const shares = [
    {
      name: 'Sketch pack (spring)',
      description: 'Loose sketches and the layered file.',
      files: [images[0], zips[0]],
      creators: first ? [first] : [],
      added: ctx.timeline.start + 100 * DAY,
    },
    {
      name: 'Reference sheets',
      description: 'Character reference sheets shared by a supporter.',
      files: [images[1], images[2], zips[1]],
      creators: second ? [second] : [],
      added: ctx.timeline.start + 200 * DAY,
    },
    {
      name: 'Unsorted upload',
      description: '',
      files: [images[3 % images.length]],
      creators: [],
      added: ctx.timeline.start + 300 * DAY,
    },
  ];
  const existing = new Set(await listShareNames(db));
  for (const share of shares) {
    if (existing.has(share.name)) continue;
    await createShare(db, {
      name: share.name,
      description: share.description,
      uploader_id: consumerId,
      added: iso(share.added),
      files: share.files.map((file: PoolFile) => ({ filename: file.name, hash: file.hash })),
      creators: share.creators.map((c) => ({ service: c.service, creator_id: c.id })),
    });
  }
}

async function seedLinks(db: Store, ctx: ExtrasContext): Promise<void> {
  const patreon = byService(ctx.creators, 'patreon')[0];
  const fanbox = byService(ctx.creators, 'fanbox')[0];
  const fantia = byService(ctx.creators, 'fantia')[0];
  if (patreon && fanbox) await linkCreators(db, patreon, fanbox);
  if (patreon && fantia) await linkCreators(db, patreon, fantia);
}

async function seedCommentRevision(db: Store, ctx: ExtrasContext): Promise<void> {
  const creator = ctx.creators.find((c) => c.postIds.length > 0);
  if (!creator) return;
  const postId = creator.postIds[0];
  const base = {
    service: creator.service,
    user: creator.id,
    post_id: postId,
    id: '999000001',
    commenter: '424242',
    commenter_name: 'kiwi_fan',
  };
  await upsertComment(
    db,
    {
      ...base,
      content: 'First! Love the colours.',
      published: iso(ctx.timeline.start + 5 * DAY),
      added: iso(ctx.timeline.start + 5 * DAY),
    },
    { now: iso(ctx.timeline.start + 5 * DAY) },
  );
  await upsertComment(
    db,
    { ...base, content: 'First! Love the colours (and the background too).', published: iso(ctx.timeline.start + 5 * DAY) },
    { now: iso(ctx.timeline.start + 6 * DAY) },
  );
}

// Discord ---------------------------------------------------------------------------------------------

const DM_TEXTS = [
  'Thank you for supporting me! Here is a small bonus sketch for you.',
  'Hi! The high resolution files are now available in the latest post.',
  'ご支援ありがとうございます！次回の更新もお楽しみに。',
  '感谢支持！下个月会有新的奖励。',
  'Your reward for this month: the password for the bonus zip is in the post.',
  'Спасибо за поддержку!',
];

async function seedDms(db: Store, rng: Rng, ctx: ExtrasContext, consumerId: number): Promise<void> {
  const candidates = ctx.creators.filter((c) => ['patreon', 'fanbox', 'fansly', 'onlyfans', 'boosty'].includes(c.service)).slice(0, 6);
  if (candidates.length === 0) return;
  const importId = `demo${rng.hex(12)}`;
  if (await getImport(db, importId)) return;
  await createImport(db, {
    id: importId,
    service: candidates[0].service,
    account_id: consumerId,
    save_dms: true,
    created_at: iso(ctx.timeline.end - 2 * DAY),
  });
  await updateImport(db, importId, {
    first_started_at: iso(ctx.timeline.end - 2 * DAY + 5_000),
    current_try_started_at: iso(ctx.timeline.end - 2 * DAY + 5_000),
    finished_at: iso(ctx.timeline.end - 2 * DAY + 240_000),
    sub_count: candidates.length,
  });
  for (const line of [
    'Starting import.',
    `Found ${candidates.length} subscriptions.`,
    'Importing posts...',
    'Importing DMs...',
    'Done importing DMs',
    'Finished import.',
  ]) {
    await appendImportLog(db, importId, line, iso(ctx.timeline.end - 2 * DAY + 10_000));
  }
  let n = 0;
  for (const status of ['approved', 'approved', 'approved', 'pending', 'ignored'] as const) {
    for (const creator of candidates) {
      if (status !== 'approved' && rng.chance(0.4)) continue;
      n += 1;
      const published = ctx.timeline.start + rng.int(30, 700) * DAY;
      const withFile = rng.chance(0.2);
      const image = rng.pick(ctx.pool.images);
      await upsertDm(db, {
        service: creator.service,
        user: creator.id,
        hash: rng.hex(64),
        content: rng.pick(DM_TEXTS),
        embed: {},
        file: withFile ? { name: image.name, path: image.path } : null,
        published: iso(published),
        added: iso(status === 'approved' ? published + DAY : ctx.timeline.end - 2 * DAY + 200_000 + n),
        status,
        account_id: status === 'approved' ? null : consumerId,
        import_id: status === 'approved' ? null : importId,
      });
    }
  }
}

// Account data ------------------------------------------------------------------------------------------

async function seedAccountData(db: Store, rng: Rng, ctx: ExtrasContext, consumerId: number, adminId: number): Promise<void> {
  const posting = ctx.creators.filter((c) => c.postIds.length > 0);
  const at = (days: number) => iso(ctx.timeline.end - days * DAY);
  for (const [i, creator] of rng.sample(ctx.creators, 5).entries()) {
    await addFavoriteCreator(db, consumerId, creator.service, creator.id, at(40 - i));
  }
  for (const [i, creator] of rng.sample(ctx.creators, 2).entries()) {
    await addFavoriteCreator(db, adminId, creator.service, creator.id, at(20 - i));
  }
  for (let i = 0; i < 10 && posting.length > 0; i += 1) {
    const creator = rng.pick(posting);
    await addFavoritePost(db, consumerId, creator.service, creator.id, rng.pick(creator.postIds), at(30 - i));
  }
  if ((await listNotifications(db, consumerId, 1)).length === 0)
    await createNotification(db, {
      account_id: consumerId,
      type: NOTIFICATION_ROLE_CHANGE,
      extra_info: { old_role: 'moderator', new_role: 'consumer' },
      created_at: at(10),
    });
  if (posting[0]) {
    await flagPost(db, {
      service: posting[0].service,
      user: posting[0].id,
      post_id: posting[0].postIds[posting[0].postIds.length - 1],
      account_id: consumerId,
      reason: 'reason-other',
      created_at: at(5),
    });
  }
  const boosty = byService(ctx.creators, 'boosty')[0];
  const subscribestar = byService(ctx.creators, 'subscribestar')[0];
  const [from, to] = boosty && subscribestar ? [boosty, subscribestar] : [posting[0], posting[1]];
  const pending = from && to && (await hasPendingLinkRequest(db, from, to));
  if (from && to && !pending) {
    await createLinkRequest(db, {
      from_service: from.service,
      from_id: from.id,
      to_service: to.service,
      to_id: to.id,
      reason: 'Same artist: same name and avatar on both pages.',
      requester_id: consumerId,
      created_at: at(3),
    });
  }
}
