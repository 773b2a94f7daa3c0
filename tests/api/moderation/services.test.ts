/**
 * Link requests and role changes without HTTP: the checks behind the moderation routes, with the
 * statuses and messages they answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccount } from '@api/data/accounts.ts';
import { linkedCreators, upsertCreator } from '@api/data/creators.ts';
import { getLinkRequest } from '@api/data/links.ts';
import { ACCOUNT_MESSAGES, changeAccountRole } from '@api/moderation/account-roles.ts';
import { LINK_MESSAGES, removeCreatorLinks, requestLink, reviewLinkRequest } from '@api/moderation/link-requests.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
beforeAll(() => {
  t = tempDb();
  upsertCreator(t.db, { service: 'patreon', id: '1', name: 'One', public_id: 'one' });
  upsertCreator(t.db, { service: 'fanbox', id: '2', name: 'Two' });
});
afterAll(() => t.cleanup());

describe('link requests', () => {
  it('requests, approves and removes a link, refusing what the routes refuse', () => {
    const asker = signIn(t.db).account;
    const moderator = signIn(t.db, { role: 'moderator' }).account;
    const one = { service: 'patreon', id: 'one' };
    expect(() => requestLink(t.db, one, { service: 'patreon', artist_id: '1' }, asker.id)).toThrow(LINK_MESSAGES.itself);
    expect(() => requestLink(t.db, one, { service: 'fanbox', artist_id: '9' }, asker.id)).toThrow('Creator not found.');
    requestLink(t.db, one, { service: 'fanbox', artist_id: '2', reason: 'same artist' }, asker.id);
    expect(() => requestLink(t.db, { service: 'fanbox', id: '2' }, { service: 'patreon', artist_id: '1' }, asker.id)).toThrow(
      LINK_MESSAGES.alreadyRequested,
    );
    const id = (t.db.prepare("SELECT id FROM link_requests WHERE status = 'pending'").get() as { id: number }).id;
    expect(getLinkRequest(t.db, id)!.reason).toBe('same artist');
    expect(() => reviewLinkRequest(t.db, 9999, 'approve', moderator.id)).toThrow(LINK_MESSAGES.requestNotFound);
    reviewLinkRequest(t.db, id, 'approve', moderator.id);
    expect(linkedCreators(t.db, 'patreon', '1').map((c) => c.id)).toEqual(['2']);
    expect(() => reviewLinkRequest(t.db, id, 'reject', moderator.id)).toThrow(LINK_MESSAGES.alreadyReviewed);
    removeCreatorLinks(t.db, 'fanbox', '2');
    expect(linkedCreators(t.db, 'patreon', '1')).toEqual([]);
    expect(() => removeCreatorLinks(t.db, 'fanbox', '2')).toThrow(LINK_MESSAGES.noLinks);
  });
});

describe('role changes', () => {
  it('gives the consumer or moderator role, never to an administrator or oneself', () => {
    const admin = signIn(t.db, { role: 'administrator' }).account;
    const other = signIn(t.db, { role: 'administrator' }).account;
    const target = signIn(t.db).account;
    expect(changeAccountRole(t.db, target.id, 'moderator', admin).role).toBe('moderator');
    expect(getAccount(t.db, target.id)!.role).toBe('moderator');
    expect(() => changeAccountRole(t.db, target.id, 'administrator', admin)).toThrow('Invalid account role.');
    expect(() => changeAccountRole(t.db, admin.id, 'consumer', admin)).toThrow(ACCOUNT_MESSAGES.ownRole);
    expect(() => changeAccountRole(t.db, other.id, 'consumer', admin)).toThrow(ACCOUNT_MESSAGES.administratorRole);
    expect(() => changeAccountRole(t.db, 999999, 'consumer', admin)).toThrow(ACCOUNT_MESSAGES.notFound);
  });
});
