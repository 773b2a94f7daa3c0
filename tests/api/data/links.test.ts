/** Creator links on both engines: the same answers and the same 'link' change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  approveLinkRequest,
  createLinkRequest,
  getLinkRequest,
  hasPendingLinkRequest,
  inSameLinkGroup,
  linkCreators,
  listPendingLinkRequests,
  rejectLinkRequest,
  unlinkCreator,
} from '@api/data/links.ts';
import { getCreator, linkedCreators } from '@api/data/creators.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator } from './store-rows.ts';

const engines = engineDatabases();
const A = { service: 'fanbox', id: '1' };
const B = { service: 'patreon', id: '2' };
const C = { service: 'fanbox', id: '3' };
const D = { service: 'fanbox', id: '4' };

describe.each(ENGINES)('links on %s', (engine) => {
  let db: Store;
  let mark = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    for (const creator of [A, B, C, D]) await addCreator(db, creator.service, creator.id, `名前 ${creator.id}`);
    mark = 0;
  });

  /** The change rows since the previous call, as [kind, service, creator_id]. */
  async function since(): Promise<(string | null)[][]> {
    const rows = await readChangesSince(db, mark);
    if (rows.length) mark = rows[rows.length - 1].id;
    return rows.map((c) => [c.kind, c.service, c.creator_id]);
  }

  const relation = async (creator: { service: string; id: string }) => (await getCreator(db, creator.service, creator.id))?.relation_id;

  it('creates, reads and lists pending requests with requester and creator names', async () => {
    expect(await listPendingLinkRequests(db)).toEqual([]);
    expect(await getLinkRequest(db, 1)).toBeUndefined();
    const account = await addAccount(db, 'ユーザー');
    const first = await createLinkRequest(db, {
      from_service: 'fanbox',
      from_id: '1',
      to_service: 'patreon',
      to_id: '2',
      reason: 'same ✓',
      requester_id: account,
      created_at: '2030-01-01T00:00:00',
    });
    const second = await createLinkRequest(db, {
      from_service: 'fanbox',
      from_id: '3',
      to_service: 'fanbox',
      to_id: '4',
      requester_id: null,
    });
    expect(second).toBeGreaterThan(first);
    expect(await getLinkRequest(db, first)).toEqual({
      id: first,
      requester: { id: account, username: 'ユーザー', role: 'consumer' },
      from_creator: { service: 'fanbox', id: '1', name: '名前 1' },
      to_creator: { service: 'patreon', id: '2', name: '名前 2' },
      reason: 'same ✓',
      status: 'pending',
      created_at: '2030-01-01T00:00:00',
    });
    const anonymous = (await getLinkRequest(db, second))!;
    expect(anonymous.requester).toEqual({ id: null, username: null, role: null });
    expect(anonymous.reason).toBeNull();
    expect(anonymous.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await listPendingLinkRequests(db)).map((r) => r.id)).toEqual([first, second]);
    expect(await hasPendingLinkRequest(db, A, B)).toBe(true);
    expect(await hasPendingLinkRequest(db, B, A)).toBe(true);
    expect(await hasPendingLinkRequest(db, A, C)).toBe(false);
  });

  it('approves and rejects only pending requests', async () => {
    const account = await addAccount(db, 'mod');
    const approve = await createLinkRequest(db, {
      from_service: 'fanbox',
      from_id: '1',
      to_service: 'patreon',
      to_id: '2',
      requester_id: null,
    });
    const reject = await createLinkRequest(db, {
      from_service: 'fanbox',
      from_id: '3',
      to_service: 'fanbox',
      to_id: '4',
      requester_id: null,
    });
    expect(await approveLinkRequest(db, approve, account)).toBe(true);
    expect(await approveLinkRequest(db, approve, account)).toBe(false);
    expect(await rejectLinkRequest(db, approve, account)).toBe(false);
    expect(await rejectLinkRequest(db, reject, account)).toBe(true);
    expect(await rejectLinkRequest(db, reject, account)).toBe(false);
    expect(await approveLinkRequest(db, reject, account)).toBe(false);
    expect(await approveLinkRequest(db, 999, account)).toBe(false);
    expect((await getLinkRequest(db, approve))?.status).toBe('approved');
    expect((await getLinkRequest(db, reject))?.status).toBe('rejected');
    expect(await listPendingLinkRequests(db)).toEqual([]);
    expect(await hasPendingLinkRequest(db, A, B)).toBe(false);
    const reviewed = await db.k.selectFrom('link_requests').select(['id', 'reviewed_by', 'reviewed_at']).orderBy('id').execute();
    expect(reviewed.map((r) => [Number(r.id), Number(r.reviewed_by), typeof r.reviewed_at])).toEqual([
      [approve, account, 'string'],
      [reject, account, 'string'],
    ]);
    expect(await inSameLinkGroup(db, A, B)).toBe(true);
    expect(await inSameLinkGroup(db, C, D)).toBe(false);
    expect(await since()).toEqual([
      ['link', 'fanbox', '1'],
      ['link', 'patreon', '2'],
    ]);
  });

  it('links into one group, merges groups, unlinks and logs every member', async () => {
    await expect(linkCreators(db, A, { service: 'fanbox', id: 'missing' })).rejects.toThrow('Both creators must exist');
    const first = await linkCreators(db, A, B);
    expect(await relation(A)).toBe(first);
    expect(await relation(B)).toBe(first);
    expect(await since()).toEqual([
      ['link', 'fanbox', '1'],
      ['link', 'patreon', '2'],
    ]);
    const second = await linkCreators(db, C, D);
    expect(second).not.toBe(first);
    await since();
    expect(await inSameLinkGroup(db, A, C)).toBe(false);
    // C's group joins A's.
    expect(await linkCreators(db, A, C)).toBe(first);
    for (const creator of [A, B, C, D]) expect(await relation(creator)).toBe(first);
    expect(await since()).toEqual([
      ['link', 'fanbox', '1'],
      ['link', 'fanbox', '3'],
      ['link', 'fanbox', '4'],
      ['link', 'patreon', '2'],
    ]);
    expect(await inSameLinkGroup(db, D, B)).toBe(true);
    expect((await linkedCreators(db, 'fanbox', '1')).map((c) => c.id)).toEqual(['3', '4', '2']);

    expect(await unlinkCreator(db, 'fanbox', '3')).toBe(true);
    expect(await relation(C)).toBeNull();
    expect(await since()).toEqual([
      ['link', 'fanbox', '1'],
      ['link', 'fanbox', '4'],
      ['link', 'patreon', '2'],
      ['link', 'fanbox', '3'],
    ]);
    expect(await unlinkCreator(db, 'fanbox', '3')).toBe(false);
    expect(await unlinkCreator(db, 'fanbox', 'missing')).toBe(false);
    expect(await since()).toEqual([]);
    expect(await inSameLinkGroup(db, C, C)).toBe(false);
    expect(await inSameLinkGroup(db, A, A)).toBe(true);
  });

  it('links two creators without a group when the other has one', async () => {
    const group = await linkCreators(db, A, B);
    expect(await linkCreators(db, C, A)).toBe(group);
    expect(await relation(C)).toBe(group);
    expect(await relation(D)).toBeNull();
  });
});
