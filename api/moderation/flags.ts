/**
 * The moderators' review of flagged posts (docs/product.md#flags): a flag asks for the post to be
 * fetched again on its creator's next import, which clears it; a moderator may also dismiss a post's
 * flags (a flag that was wrong), recorded in the audit log as 'flag_dismiss'.
 */
import type { Store } from '../data/store.ts';
import type { Account } from '../data/accounts.ts';
import { recordAudit } from '../data/audit-log.ts';
import { clearPostFlags } from '../data/flags.ts';
import { inTransaction } from '../data/util.ts';
import { NotFoundError } from '../http/errors.ts';

export const NO_FLAGS = 'This post has no flags.';

/** Deletes a post's flags and records who did it. @returns how many were cleared; 404 when none */
export async function dismissFlags(
  db: Store,
  account: Pick<Account, 'id' | 'username'>,
  post: { service: string; user: string; post: string },
): Promise<number> {
  return await inTransaction(db, async (db) => {
    const cleared = await clearPostFlags(db, post.service, post.user, post.post);
    if (cleared === 0) throw new NotFoundError(NO_FLAGS);
    await recordAudit(db, {
      actor: { id: account.id, username: account.username },
      action: 'flag_dismiss',
      target: `${post.service}/${post.user}/${post.post}`,
      details: { cleared },
    });
    return cleared;
  });
}
