/**
 * Takedowns (docs/product.md, "Takedowns and the do-not-post list"): an administrator removes a
 * creator or one post at its owner's request. Each takedown is one transaction: the rows
 * (api/data/takedowns.ts), the change-log rows that make the page rebuild drop what showed them, the
 * do-not-post entry that keeps importers from bringing them back, and the audit line. The stored files
 * no remaining row uses are deleted after that transaction commits: a crash in between leaves an orphan
 * file, never a row naming a missing one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths, type Config } from '../config.ts';
import type { Account } from '../data/accounts.ts';
import { recordAudit } from '../data/audit-log.ts';
import { findCreator } from '../data/creators.ts';
import type { Store } from '../data/store.ts';
import { inTransaction } from '../data/store.ts';
import {
  addDoNotPost,
  recordRemovedPosts,
  countDoNotPost,
  isCreatorListed,
  isPostListed,
  liftDoNotPost,
  listDoNotPost,
  type DoNotPostEntry,
} from '../data/do-not-post.ts';
import {
  fileRecorded,
  postTitle,
  releaseFiles,
  removeCreatorRows,
  removePostRows,
  type RemovedFile,
  type TakedownCounts,
} from '../data/takedowns.ts';
import { CREATOR_NOT_FOUND, ConflictError, NotFoundError, POST_NOT_FOUND } from '../http/errors.ts';
import { storeLocation } from '../media/store.ts';
import { thumbnailFileOf } from '../media/thumbnails.ts';
import { filePath } from '@shared/urls.ts';
import { PAGE_SIZE } from '@shared/constants.ts';

export const TAKEDOWN_MESSAGES = {
  creatorListed: 'This creator is already on the do-not-post list.',
  postListed: 'This post is already on the do-not-post list.',
  entryNotFound: 'Entry not found.',
} as const;

export interface TakedownResult {
  entry: DoNotPostEntry;
  removed: TakedownCounts;
  /** Stored files deleted because nothing else used them. */
  files_deleted: number;
  /** Files the removed rows used that stay because other rows still use them. */
  files_kept: number;
}

export interface TakedownDeps {
  db: Store;
  config: Pick<Config, 'dataDir'>;
}

type Actor = Pick<Account, 'id' | 'username'>;

/** Deletes one file from disk; a file that is already gone is fine. @returns whether it was there */
function removeFromDisk(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}

/**
 * Removes the bytes and thumbnails of released files, unless a file was recorded again since the
 * takedown committed (an import stored the same bytes anew): then its bytes are in use again.
 */
async function removeStoredFiles(deps: TakedownDeps, files: RemovedFile[]): Promise<void> {
  const paths = dataPaths(deps.config.dataDir);
  for (const file of files) {
    if (await fileRecorded(deps.db, file.hash)) continue;
    for (const ext of file.exts) removeFromDisk(storeLocation(paths.files, filePath(file.hash, ext)));
    removeFromDisk(thumbnailFileOf(paths.thumbnails, file.hash));
  }
}

/** The creator's icon and banner (stored per creator, not by content). */
function removePortraits(deps: TakedownDeps, service: string, creatorId: string, counts: TakedownCounts): void {
  const paths = dataPaths(deps.config.dataDir);
  // The same shape the media handler serves: one path segment under the service's folder.
  if (!creatorId || /[/\\\u0000]/.test(creatorId) || /^\.+$/.test(creatorId)) return;
  if (removeFromDisk(path.join(paths.icons, service, creatorId))) counts.icons += 1;
  if (removeFromDisk(path.join(paths.banners, service, creatorId))) counts.banners += 1;
}

/**
 * Removes a creator (by id or public id) with everything of it and lists it as do-not-post.
 * 404 when it is not in the archive; 409 when it is gone and already listed.
 */
export async function takedownCreator(
  deps: TakedownDeps,
  service: string,
  id: string,
  reason: string,
  actor: Actor,
): Promise<TakedownResult> {
  const creator = await findCreator(deps.db, service, id);
  if (!creator) {
    if (await isCreatorListed(deps.db, service, id)) throw new ConflictError(TAKEDOWN_MESSAGES.creatorListed);
    throw new NotFoundError(CREATOR_NOT_FOUND);
  }
  const outcome = await inTransaction(deps.db, async (db) => {
    const rows = await removeCreatorRows(db, creator.service, creator.id);
    if (!rows) throw new NotFoundError(CREATOR_NOT_FOUND);
    const files = await releaseFiles(db, rows.uses);
    rows.counts.files = files.removed.length;
    const entry = await addDoNotPost(db, {
      service: creator.service,
      creator_id: creator.id,
      name: creator.name,
      reason,
      added_by: actor.id,
    });
    await recordRemovedPosts(db, entry.id, creator.service, rows.postIds);
    await recordAudit(db, {
      actor,
      action: 'takedown_creator',
      target: `${creator.service}/${creator.id}`,
      reason,
      details: { name: creator.name, ...rows.counts, files_kept: files.kept },
    });
    return { entry, counts: rows.counts, files };
  });
  await removeStoredFiles(deps, outcome.files.removed);
  removePortraits(deps, creator.service, creator.id, outcome.counts);
  return { entry: outcome.entry, removed: outcome.counts, files_deleted: outcome.files.removed.length, files_kept: outcome.files.kept };
}

/** Removes one post and lists it as do-not-post. 404 when it is not there; 409 when it is gone and listed. */
export async function takedownPost(
  deps: TakedownDeps,
  service: string,
  creatorId: string,
  postId: string,
  reason: string,
  actor: Actor,
): Promise<TakedownResult> {
  const outcome = await inTransaction(deps.db, async (db) => {
    const title = await postTitle(db, service, creatorId, postId);
    const rows = title === undefined ? undefined : await removePostRows(db, service, creatorId, postId);
    if (!rows) {
      if (await isPostListed(db, service, creatorId, postId)) throw new ConflictError(TAKEDOWN_MESSAGES.postListed);
      throw new NotFoundError(POST_NOT_FOUND);
    }
    const files = await releaseFiles(db, rows.uses);
    rows.counts.files = files.removed.length;
    const entry = await addDoNotPost(db, {
      service,
      creator_id: creatorId,
      post_id: postId,
      name: title || null,
      reason,
      added_by: actor.id,
    });
    await recordAudit(db, {
      actor,
      action: 'takedown_post',
      target: `${service}/${creatorId}/post/${postId}`,
      reason,
      details: { title, ...rows.counts, files_kept: files.kept },
    });
    return { entry, counts: rows.counts, files };
  });
  await removeStoredFiles(deps, outcome.files.removed);
  return { entry: outcome.entry, removed: outcome.counts, files_deleted: outcome.files.removed.length, files_kept: outcome.files.kept };
}

/** One page of the do-not-post list, newest first. */
export async function doNotPostPage(db: Store, offset: number): Promise<{ total: number; entries: DoNotPostEntry[] }> {
  return { total: await countDoNotPost(db), entries: await listDoNotPost(db, { offset, limit: PAGE_SIZE }) };
}

/** Lifts an entry (importers may bring the creator or post back), with its audit line. 404 when unknown. */
export async function liftEntry(db: Store, id: number, actor: Actor): Promise<DoNotPostEntry> {
  return await inTransaction(db, async (db) => {
    const entry = await liftDoNotPost(db, id);
    if (!entry) throw new NotFoundError(TAKEDOWN_MESSAGES.entryNotFound);
    const target = `${entry.service}/${entry.creator_id}${entry.post_id === null ? '' : `/post/${entry.post_id}`}`;
    await recordAudit(db, { actor, action: 'do_not_post_lift', target, reason: null, details: { name: entry.name, reason: entry.reason } });
    return entry;
  });
}
