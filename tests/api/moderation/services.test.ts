/**
 * Link requests and role changes without HTTP: the checks behind the moderation routes, with the
 * statuses and messages they answer, and the one audit line each action writes (none when refused).
 * A role change also on both engines: it answers the new role (read inside its transaction).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, getAccount } from '@api/data/accounts.ts';
import { countAudit, listAudit } from '@api/data/audit-log.ts';
import { linkedCreators, upsertCreator } from '@api/data/creators.ts';
import { getLinkRequest } from '@api/data/links.ts';
import { ACCOUNT_MESSAGES, changeAccountRole } from '@api/moderation/account-roles.ts';
import { LINK_MESSAGES, removeCreatorLinks, requestLink, reviewLinkRequest } from '@api/moderation/link-requests.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
beforeAll(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'patreon', id: '1', name: 'One', public_id: 'one' });
  await upsertCreator(t.db, { service: 'fanbox', id: '2', name: 'Two' });
});
afterAll(() => t.cleanup());

const lines = () => countAudit(t.db, {});
const lastLine = async () => (await listAudit(t.db, {}, { offset: 0, limit: 1 }))[0];

describe('link requests', () => {
  it('requests, approves and removes a link, refusing what the routes refuse', async () => {
    const asker = (await signIn(t.db)).account;
    const moderator = (await signIn(t.db, { role: 'moderator' })).account;
    const one = { service: 'patreon', id: 'one' };
    await expect(requestLink(t.db, one, { service: 'patreon', artist_id: '1' }, asker.id)).rejects.toThrow(LINK_MESSAGES.itself);
    await expect(requestLink(t.db, one, { service: 'fanbox', artist_id: '9' }, asker.id)).rejects.toThrow('Creator not found.');
    await requestLink(t.db, one, { service: 'fanbox', artist_id: '2', reason: 'same artist' }, asker.id);
    await expect(requestLink(t.db, { service: 'fanbox', id: '2' }, { service: 'patreon', artist_id: '1' }, asker.id)).rejects.toThrow(
      LINK_MESSAGES.alreadyRequested,
    );
    const id = (t.db.prepare("SELECT id FROM link_requests WHERE status = 'pending'").get() as { id: number }).id;
    expect((await getLinkRequest(t.db, id))!.reason).toBe('same artist');
    await expect(reviewLinkRequest(t.db, 9999, 'approve', moderator)).rejects.toThrow(LINK_MESSAGES.requestNotFound);
    const before = await lines();
    await reviewLinkRequest(t.db, id, 'approve', moderator);
    expect((await linkedCreators(t.db, 'patreon', '1')).map((c) => c.id)).toEqual(['2']);
    expect(await lines()).toBe(before + 1);
    expect(await lastLine()).toMatchObject({
      actor_id: moderator.id,
      actor_name: moderator.username,
      action: 'link_approve',
      target: 'patreon/1 ↔ fanbox/2',
      reason: 'same artist',
      details: { request: id, from: 'One', to: 'Two', requester: asker.username },
    });
    await expect(reviewLinkRequest(t.db, id, 'reject', moderator)).rejects.toThrow(LINK_MESSAGES.alreadyReviewed);
    expect(await lines()).toBe(before + 1);
    const admin = (await signIn(t.db, { role: 'administrator' })).account;
    await removeCreatorLinks(t.db, 'fanbox', '2', admin);
    expect(await linkedCreators(t.db, 'patreon', '1')).toEqual([]);
    expect(await lines()).toBe(before + 2);
    expect(await lastLine()).toMatchObject({
      actor_id: admin.id,
      action: 'link_remove',
      target: 'fanbox/2',
      reason: null,
      details: { name: 'Two', unlinked_from: ['patreon/1'] },
    });
    await expect(removeCreatorLinks(t.db, 'fanbox', '2', admin)).rejects.toThrow(LINK_MESSAGES.noLinks);
    await expect(removeCreatorLinks(t.db, 'fanbox', '404', admin)).rejects.toThrow('Creator not found.');
    expect(await lines()).toBe(before + 2);
  });

  it('records a rejection with the request and its reason, once', async () => {
    const asker = (await signIn(t.db)).account;
    const moderator = (await signIn(t.db, { role: 'moderator' })).account;
    await requestLink(t.db, { service: 'fanbox', id: '2' }, { service: 'patreon', artist_id: 'one', reason: 'not the same' }, asker.id);
    const id = (t.db.prepare("SELECT id FROM link_requests WHERE status = 'pending'").get() as { id: number }).id;
    const before = await lines();
    await reviewLinkRequest(t.db, id, 'reject', moderator);
    expect(await lines()).toBe(before + 1);
    expect(await lastLine()).toMatchObject({
      actor_id: moderator.id,
      action: 'link_reject',
      target: 'fanbox/2 ↔ patreon/1',
      reason: 'not the same',
    });
    await expect(reviewLinkRequest(t.db, id, 'approve', moderator)).rejects.toThrow(LINK_MESSAGES.alreadyReviewed);
    expect(await linkedCreators(t.db, 'patreon', '1')).toEqual([]);
    expect(await lines()).toBe(before + 1);
  });
});

describe('role changes', () => {
  it('gives the consumer or moderator role, never to an administrator or oneself', async () => {
    const admin = (await signIn(t.db, { role: 'administrator' })).account;
    const other = (await signIn(t.db, { role: 'administrator' })).account;
    const target = (await signIn(t.db)).account;
    const before = await lines();
    expect((await changeAccountRole(t.db, target.id, 'moderator', admin)).role).toBe('moderator');
    expect((await getAccount(t.db, target.id))!.role).toBe('moderator');
    expect(await lines()).toBe(before + 1);
    expect(await lastLine()).toMatchObject({
      actor_id: admin.id,
      actor_name: admin.username,
      action: 'role_change',
      target: `account ${target.id} (${target.username})`,
      reason: null,
      details: { old_role: 'consumer', new_role: 'moderator' },
    });
    await expect(changeAccountRole(t.db, target.id, 'administrator', admin)).rejects.toThrow('Invalid account role.');
    await expect(changeAccountRole(t.db, admin.id, 'consumer', admin)).rejects.toThrow(ACCOUNT_MESSAGES.ownRole);
    await expect(changeAccountRole(t.db, other.id, 'consumer', admin)).rejects.toThrow(ACCOUNT_MESSAGES.administratorRole);
    await expect(changeAccountRole(t.db, 999999, 'consumer', admin)).rejects.toThrow(ACCOUNT_MESSAGES.notFound);
    expect(await lines()).toBe(before + 1);
  });

  it('writes no line when the account already has the role', async () => {
    const admin = (await signIn(t.db, { role: 'administrator' })).account;
    const target = (await signIn(t.db, { role: 'moderator' })).account;
    const before = await lines();
    expect((await changeAccountRole(t.db, target.id, 'moderator', admin)).role).toBe('moderator');
    expect(await lines()).toBe(before);
  });
});

const engines = engineDatabases();

describe.each(ENGINES)('role changes on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('answers the account with its new role and writes the audit line with it', async () => {
    const admin = await createAccount(db, { username: 'root', password_hash: 'x', role: 'administrator' });
    const target = await createAccount(db, { username: 'kiwi', password_hash: 'x' });
    expect(await changeAccountRole(db, target.id, 'moderator', admin)).toMatchObject({ id: target.id, role: 'moderator' });
    expect((await getAccount(db, target.id))!.role).toBe('moderator');
    expect(await countAudit(db, {})).toBe(1);
    expect((await listAudit(db, {}, { offset: 0, limit: 1 }))[0]).toMatchObject({
      action: 'role_change',
      details: { old_role: 'consumer', new_role: 'moderator' },
    });
    expect(await changeAccountRole(db, target.id, 'consumer', admin)).toMatchObject({ role: 'consumer' });
  });
});
