/**
 * Creator links: a signed-in account asks for two creators to be linked, a moderator approves (the
 * creators become linked both ways) or rejects the request, and an administrator takes a creator out
 * of its linked accounts. Creators are named by id or public id. Reviews and removals write their audit
 * line ('link_approve', 'link_reject', 'link_remove') in the same transaction as the change.
 */
import { recordAudit } from '../data/audit-log.ts';
import { findCreator, linkedCreators, type Creator } from '../data/creators.ts';
import type { Store } from '../data/store.ts';
import {
  approveLinkRequest,
  createLinkRequest,
  getLinkRequest,
  hasPendingLinkRequest,
  inSameLinkGroup,
  rejectLinkRequest,
  unlinkCreator,
} from '../data/links.ts';
import { inTransaction } from '../data/util.ts';
import { CREATOR_NOT_FOUND, ConflictError, NotFoundError, ValidationError } from '../http/errors.ts';

export const LINK_MESSAGES = {
  requested: 'Link request submitted. A moderator will review it.',
  itself: 'A creator cannot be linked to itself.',
  alreadyLinked: 'These creators are already linked.',
  alreadyRequested: 'A link between these creators has already been requested.',
  requestNotFound: 'Link request not found.',
  alreadyReviewed: 'This link request has already been reviewed.',
  approved: 'Link request approved.',
  rejected: 'Link request rejected.',
  unlinked: 'The creator was removed from its linked accounts.',
  noLinks: 'No linked accounts found.',
} as const;

/** The creator named by id or public id, or the 404. */
export async function requireLinkCreator(db: Store, service: string, id: string): Promise<Creator> {
  const creator = await findCreator(db, service, id);
  if (!creator) throw new NotFoundError(CREATOR_NOT_FOUND);
  return creator;
}

/**
 * Records the account's request to link the creator `from` with `to`: 404 for an unknown creator, 400
 * for the creator itself, 409 when they are already linked or the pair is already requested (either way).
 */
export async function requestLink(
  db: Store,
  from: { service: string; id: string },
  to: { service: string; artist_id: string; reason?: string },
  requesterId: number,
): Promise<void> {
  const source = await requireLinkCreator(db, from.service, from.id);
  const target = await requireLinkCreator(db, to.service, to.artist_id);
  if (source.service === target.service && source.id === target.id) throw new ValidationError(LINK_MESSAGES.itself);
  if (await inSameLinkGroup(db, source, target)) throw new ConflictError(LINK_MESSAGES.alreadyLinked);
  if (await hasPendingLinkRequest(db, source, target)) throw new ConflictError(LINK_MESSAGES.alreadyRequested);
  await createLinkRequest(db, {
    from_service: source.service,
    from_id: source.id,
    to_service: target.service,
    to_id: target.id,
    reason: to.reason ?? null,
    requester_id: requesterId,
  });
}

/** Who acts, as the audit log names them. */
export interface Actor {
  id: number;
  username: string;
}

/** A moderator's decision on a pending request: 404 for an unknown request, 409 once it was reviewed. */
export async function reviewLinkRequest(db: Store, id: number, action: 'approve' | 'reject', reviewer: Actor): Promise<void> {
  await inTransaction(db, async (db) => {
    const request = await getLinkRequest(db, id);
    if (!request) throw new NotFoundError(LINK_MESSAGES.requestNotFound);
    const done = await (action === 'approve' ? approveLinkRequest : rejectLinkRequest)(db, id, reviewer.id);
    if (!done) throw new ConflictError(LINK_MESSAGES.alreadyReviewed);
    const { from_creator: from, to_creator: to } = request;
    await recordAudit(db, {
      actor: { id: reviewer.id, username: reviewer.username },
      action: action === 'approve' ? 'link_approve' : 'link_reject',
      target: `${from.service}/${from.id} ↔ ${to.service}/${to.id}`,
      reason: request.reason,
      details: { request: request.id, from: from.name, to: to.name, requester: request.requester.username },
    });
  });
}

/** Takes the creator out of its linked accounts (the others stay linked): 404 when it has none. */
export async function removeCreatorLinks(db: Store, service: string, id: string, by: Actor): Promise<void> {
  await inTransaction(db, async (db) => {
    const creator = await requireLinkCreator(db, service, id);
    const linked = await linkedCreators(db, creator.service, creator.id);
    if (linked.length === 0 || !(await unlinkCreator(db, creator.service, creator.id))) throw new NotFoundError(LINK_MESSAGES.noLinks);
    await recordAudit(db, {
      actor: { id: by.id, username: by.username },
      action: 'link_remove',
      target: `${creator.service}/${creator.id}`,
      details: { name: creator.name, unlinked_from: linked.map((other) => `${other.service}/${other.id}`) },
    });
  });
}
