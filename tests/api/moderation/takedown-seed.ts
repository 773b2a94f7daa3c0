/**
 * A small archive for the takedown tests, with real files in the store of a temporary DATA_DIR:
 * patreon/100 (the creator taken down) with two posts, revisions, comments, popularity, favourites, a
 * flag, a DM, an announcement, a fancard, a share of its own and one shared with fanbox/200, a
 * community channel, a pending link request and an icon and banner; fanbox/200, linked to it, whose post
 * uses two of the same files (one as a file link, one inline in its text); and the Discord server 900.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '@api/config.ts';
import { createAccount } from '@api/data/accounts.ts';
import { upsertAnnouncement } from '@api/data/announcements.ts';
import { setArchiveInfo } from '@api/data/archive-files.ts';
import { upsertComment } from '@api/data/comments.ts';
import { upsertCommunityChannel, upsertCommunityMessages } from '@api/data/community.ts';
import { upsertCreator } from '@api/data/creators.ts';
import type { Db } from '@api/data/db.ts';
import { upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { upsertDm } from '@api/data/dms.ts';
import { upsertFancard } from '@api/data/fancards.ts';
import { addFavoriteCreator, addFavoritePost } from '@api/data/favorites.ts';
import { registerFile } from '@api/data/files.ts';
import { flagPost } from '@api/data/flags.ts';
import { createLinkRequest, linkCreators } from '@api/data/links.ts';
import { addPopularity } from '@api/data/popular.ts';
import { upsertPost } from '@api/data/posts.ts';
import { createShare } from '@api/data/shares.ts';
import { storeFileSync } from '@api/media/store.ts';
import { thumbnailFileOf } from '@api/media/thumbnails.ts';

export interface SeededFile {
  hash: string;
  /** '/ab/cd/<hash>.<ext>' */
  path: string;
  /** Where the bytes are on disk. */
  disk: string;
  thumbnail: string;
}

export const FILE_NAMES = [
  'shared', // patreon p1's main file and fanbox f1's attachment: stays
  'textShared', // patreon p1's attachment, inline in fanbox f1's text: stays
  'unique', // patreon p1's attachment, with a thumbnail
  'archive', // patreon p1's zip attachment, with archive metadata
  'inline', // inline in patreon p2's text
  'revision', // only in an earlier version of patreon p2
  'dm', // the DM's file
  'fancard', // the fancard
  'ownShare', // the share of patreon/100 alone
  'sharedShare', // the share of patreon/100 and fanbox/200: stays
  'community', // a community message's attachment
  'discord', // a Discord attachment of server 900
] as const;
export type FileName = (typeof FILE_NAMES)[number];

export interface Seeded {
  files: Record<FileName, SeededFile>;
  fanId: number;
  ownShare: number;
  sharedShare: number;
  icon: string;
  banner: string;
}

const EXT: Partial<Record<FileName, string>> = { archive: 'zip', fancard: 'jpg', inline: 'jpg' };

export async function seedArchive(db: Db, dataDir: string): Promise<Seeded> {
  const paths = dataPaths(dataDir);
  const files = {} as Record<FileName, SeededFile>;
  for (const name of FILE_NAMES) {
    const ext = EXT[name] ?? 'png';
    const stored = storeFileSync(paths.files, Buffer.from(`bytes of the ${name} file`), ext);
    await registerFile(db, { hash: stored.sha256, size: stored.size, ext });
    const thumbnail = thumbnailFileOf(paths.thumbnails, stored.sha256);
    fs.mkdirSync(path.dirname(thumbnail), { recursive: true });
    fs.writeFileSync(thumbnail, 'thumbnail');
    files[name] = {
      hash: stored.sha256,
      path: stored.path,
      disk: path.join(paths.files, ...stored.path.split('/').filter(Boolean)),
      thumbnail,
    };
  }
  await setArchiveInfo(db, { hash: files.archive.hash, file_list: ['readme.txt'] });
  const fan = await createAccount(db, { username: `fan${Math.random().toString(36).slice(2, 8)}`, password_hash: 'x' });

  await upsertCreator(db, { service: 'patreon', id: '100', name: 'Takedown Target' });
  await upsertCreator(db, { service: 'fanbox', id: '200', name: 'Other Artist' });
  await upsertCreator(db, { service: 'discord', id: '900', name: 'Taken Server' });
  await linkCreators(db, { service: 'patreon', id: '100' }, { service: 'fanbox', id: '200' });

  await upsertPost(db, {
    service: 'patreon',
    user: '100',
    id: 'p1',
    title: 'Zebrafish drawing',
    published: '2024-03-01T00:00:00',
    file: { name: 'cover.png', path: files.shared.path },
    attachments: [
      { name: 'unique.png', path: files.unique.path },
      { name: 'text.png', path: files.textShared.path },
      { name: 'pack.zip', path: files.archive.path },
    ],
    tags: ['alpha', 'beta'],
  });
  const p2 = { service: 'patreon', user: '100', id: 'p2', published: '2024-03-02T00:00:00', tags: ['alpha'] };
  await upsertPost(db, { ...p2, title: 'Zebrafish sketch', file: { name: 'old.png', path: files.revision.path } });
  await upsertPost(db, { ...p2, title: 'Zebrafish sketch', content: `<p>See <img src="/data${files.inline.path}"></p>` });
  await upsertPost(db, {
    service: 'fanbox',
    user: '200',
    id: 'f1',
    title: 'Kept post',
    content: `<p><img src="https://img.example/data${files.textShared.path}"></p>`,
    attachments: [{ name: 'cover.png', path: files.shared.path }],
    tags: ['alpha'],
  });

  const comment = { service: 'patreon', user: '100', post_id: 'p1', id: 'c1', commenter: 'x' };
  await upsertComment(db, { ...comment, content: 'first' });
  await upsertComment(db, { ...comment, content: 'second' });
  await addPopularity(db, [
    { day: '2024-03-05', service: 'patreon', user: '100', post_id: 'p1', favorites: 2, views: 9 },
    { day: '2024-03-05', service: 'fanbox', user: '200', post_id: 'f1', favorites: 1, views: 1 },
  ]);
  await addFavoritePost(db, fan.id, 'patreon', '100', 'p1');
  await addFavoriteCreator(db, fan.id, 'patreon', '100');
  await addFavoriteCreator(db, fan.id, 'fanbox', '200');
  await flagPost(db, { service: 'patreon', user: '100', post_id: 'p1', account_id: fan.id, reason: 'copyright' });

  await upsertDm(db, {
    service: 'patreon',
    user: '100',
    hash: 'dm1',
    content: 'Thanks!',
    file: { name: 'dm.png', path: files.dm.path },
    status: 'approved',
  });
  await upsertAnnouncement(db, { service: 'patreon', user_id: '100', hash: 'an1', content: 'News' });
  const fancardFile = await registerFile(db, { hash: files.fancard.hash, size: 1, ext: 'jpg' });
  await upsertFancard(db, { service: 'patreon', user_id: '100', file_id: fancardFile.id });
  const ownShare = await createShare(db, {
    name: 'Own share',
    files: [{ filename: 'own.png', hash: files.ownShare.hash }],
    creators: [{ service: 'patreon', creator_id: '100' }],
  });
  const sharedShare = await createShare(db, {
    name: 'Shared share',
    files: [{ filename: 'both.png', hash: files.sharedShare.hash }],
    creators: [
      { service: 'patreon', creator_id: '100' },
      { service: 'fanbox', creator_id: '200' },
    ],
  });
  await upsertCommunityChannel(db, { channel_id: 'ch1', creator_id: '100', name: 'general' });
  await upsertCommunityMessages(db, [
    { message_id: 'cm1', channel_id: 'ch1', created_at: '2024-03-03T00:00:00', attachments: [{ path: files.community.path }] },
  ]);
  await createLinkRequest(db, { from_service: 'fanbox', from_id: '200', to_service: 'patreon', to_id: '100', requester_id: fan.id });

  await upsertDiscordChannel(db, { id: 'dc1', server_id: '900', name: 'art' });
  await upsertDiscordMessages(db, [
    {
      id: 'dm-900-1',
      server_id: '900',
      channel_id: 'dc1',
      author: { id: 'a1', username: 'someone' },
      content: 'hello',
      attachments: [{ name: 'd.png', path: files.discord.path, hash: files.discord.hash }],
      published: '2024-03-04T00:00:00',
    },
  ]);

  const icon = path.join(paths.icons, 'patreon', '100');
  const banner = path.join(paths.banners, 'patreon', '100');
  for (const file of [icon, banner]) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'portrait');
  }
  return { files, fanId: fan.id, ownShare, sharedShare, icon, banner };
}

/** Rows in `table` matching `where`. */
export function rows(db: Db, table: string, where = 'TRUE', ...args: unknown[]): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(...args) as { n: number }).n;
}
