/**
 * What the takedown islands share: the call to the takedown API, and the one-time notice a takedown
 * leaves for the next page (the post's creator page, the reloaded do-not-post list), kept in
 * sessionStorage: shown once by the island there, then forgotten.
 */
import { api } from '@site/client/api-client';
import { unlessStorageRefuses } from '@site/client/storage-errors';
import { apiPaths } from '@shared/api-paths';
import type { TakedownTargetIds } from '@shared/takedown-target';

/** The reason's limit and messages, as the takedown API checks them. */
export { TAKEDOWN_REASON_MAX, TAKEDOWN_REASON_MESSAGES } from '@shared/validation/takedowns';

const NOTICE_KEY = 'trove:takedown-notice';

export function takeNotice(): string | null {
  return unlessStorageRefuses(() => {
    const notice = sessionStorage.getItem(NOTICE_KEY);
    if (notice) sessionStorage.removeItem(NOTICE_KEY);
    return notice;
  }, null);
}

export function leaveNotice(text: string): void {
  unlessStorageRefuses(() => sessionStorage.setItem(NOTICE_KEY, text), undefined);
}

/** The takedown API's answer, as far as the notices read it. */
export interface TakedownAnswer {
  removed?: Record<string, number>;
  files_deleted?: number;
  files_kept?: number;
}

/** "12 posts, 30 files deleted (2 kept: still used elsewhere)". */
export function describeRemoval(answer: TakedownAnswer): string {
  const posts = answer.removed?.posts ?? 0;
  const deleted = answer.files_deleted ?? 0;
  const kept = answer.files_kept ?? 0;
  const postText = `${posts} post${posts === 1 ? '' : 's'}`;
  const fileText = `${deleted} file${deleted === 1 ? '' : 's'} deleted`;
  return kept > 0 ? `${postText}, ${fileText} (${kept} kept: still used elsewhere)` : `${postText}, ${fileText}`;
}

export function takedownPath(target: TakedownTargetIds): string {
  return target.postId === null
    ? apiPaths.takedownCreator(target.service, target.creatorId)
    : apiPaths.takedownPost(target.service, target.creatorId, target.postId);
}

/** Sends the takedown; resolves with the server's answer once it has removed it. */
export function sendTakedown(target: TakedownTargetIds, reason: string): Promise<TakedownAnswer> {
  return api.v1.post<TakedownAnswer>(takedownPath(target), { reason });
}
