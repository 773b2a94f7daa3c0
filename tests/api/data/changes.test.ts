import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '@api/data/store.ts';
import { getKv, setKv } from '@api/data/kv.ts';
import { iterateChangesSince, lastChangeId, readChangesSince, recordChange, type Change } from '@api/data/changes.ts';
import { touchCreatorUpdated, upsertCreator } from '@api/data/creators.ts';
import { upsertAnnouncement } from '@api/data/announcements.ts';
import { upsertFancard } from '@api/data/fancards.ts';
import { deletePost, upsertPost } from '@api/data/posts.ts';
import { upsertComment } from '@api/data/comments.ts';
import { registerFile } from '@api/data/files.ts';
import { setArchiveInfo } from '@api/data/archive-files.ts';
import { createAccount } from '@api/data/accounts.ts';
import { reviewDms, upsertDm } from '@api/data/dms.ts';
import { createShare } from '@api/data/shares.ts';
import { approveLinkRequest, createLinkRequest, rejectLinkRequest } from '@api/data/links.ts';
import { upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { upsertCommunityChannel, upsertCommunityMessages } from '@api/data/community.ts';
import { tempDb, type TempDb } from './helpers.ts';

type Brief = Pick<Change, 'kind' | 'action'> & Partial<Pick<Change, 'service' | 'creator_id' | 'post_id' | 'ref'>>;

describe('change log', () => {
  let t: TempDb;
  let mark = 0;
  beforeEach(() => {
    t = tempDb();
    mark = 0;
  });
  afterEach(() => t.cleanup());

  /** The changes recorded since the previous call, without ids and times. */
  async function since(): Promise<Brief[]> {
    const rows = await readChangesSince(t.db, mark);
    mark = await lastChangeId(t.db);
    return rows.map(({ kind, action, service, creator_id, post_id, ref }) => {
      const brief: Brief = { kind, action };
      if (service !== null) brief.service = service;
      if (creator_id !== null) brief.creator_id = creator_id;
      if (post_id !== null) brief.post_id = post_id;
      if (ref !== null) brief.ref = ref;
      return brief;
    });
  }

  it('reads the log in order, by batches, and keeps process state in kv', async () => {
    expect(await lastChangeId(t.db)).toBe(0);
    const a = await recordChange(t.db, { kind: 'creator', action: 'upsert', service: 'fanbox', creator_id: '1' });
    const b = await recordChange(t.db, { kind: 'file', action: 'upsert', ref: 'abc' });
    expect(b).toBeGreaterThan(a);
    expect(await lastChangeId(t.db)).toBe(b);
    expect((await readChangesSince(t.db, 0)).map((c) => c.id)).toEqual([a, b]);
    expect((await readChangesSince(t.db, a)).map((c) => c.id)).toEqual([b]);
    expect((await readChangesSince(t.db, 0, 1)).map((c) => c.id)).toEqual([a]);
    expect((await readChangesSince(t.db, 0))[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const iterated: number[] = [];
    for await (const change of iterateChangesSince(t.db, 0, 1)) iterated.push(change.id);
    expect(iterated).toEqual([a, b]);
    expect(await getKv(t.db, 'rebuild:last')).toBeUndefined();
    await setKv(t.db, 'rebuild:last', String(b));
    await setKv(t.db, 'rebuild:last', String(a));
    expect(await getKv(t.db, 'rebuild:last')).toBe(String(a));
  });

  it('records creator writes, and nothing for an identical write', async () => {
    await upsertCreator(t.db, { service: 'fanbox', id: '1', name: 'Kuro', indexed: 100, updated: 100 });
    expect(await since()).toEqual([{ kind: 'creator', action: 'upsert', service: 'fanbox', creator_id: '1' }]);
    await upsertCreator(t.db, { service: 'fanbox', id: '1', name: 'Kuro', indexed: 100, updated: 100 });
    expect(await since()).toEqual([]);
    await touchCreatorUpdated(t.db, 'fanbox', '1', 50);
    expect(await since()).toEqual([]);
    await touchCreatorUpdated(t.db, 'fanbox', '1', 200);
    expect(await since()).toEqual([{ kind: 'creator', action: 'upsert', service: 'fanbox', creator_id: '1' }]);
  });

  it('records post writes, deletions and the neighbours a deletion or a move affects', async () => {
    await upsertCreator(t.db, { service: 'fanbox', id: '1', name: 'Kuro' });
    await since();
    for (const [id, day] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      await upsertPost(t.db, { service: 'fanbox', user: '1', id, title: id, published: `2024-01-0${day}T00:00:00` });
    }
    expect(await since()).toEqual(
      ['a', 'b', 'c'].map((id) => ({ kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: id })),
    );

    await upsertPost(t.db, { service: 'fanbox', user: '1', id: 'b', title: 'b', published: '2024-01-02T00:00:00' });
    expect(await since()).toEqual([]);

    // Moving b to the newest position: its old neighbours (c newer, a older) must re-render.
    await upsertPost(t.db, { service: 'fanbox', user: '1', id: 'b', title: 'b', published: '2024-01-09T00:00:00' });
    expect(await since()).toEqual([
      { kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'c', ref: 'neighbour' },
      { kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'a', ref: 'neighbour' },
      { kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'b' },
    ]);

    // Order is now b, c, a. Deleting c affects b and a.
    expect(await deletePost(t.db, 'fanbox', '1', 'c')).toBe(true);
    expect(await since()).toEqual([
      { kind: 'post', action: 'delete', service: 'fanbox', creator_id: '1', post_id: 'c' },
      { kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'b', ref: 'neighbour' },
      { kind: 'post', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'a', ref: 'neighbour' },
    ]);
    expect(await deletePost(t.db, 'fanbox', '1', 'c')).toBe(false);
    expect(await since()).toEqual([]);

    await upsertComment(t.db, { service: 'fanbox', user: '1', post_id: 'a', id: 'x', commenter: '9', content: 'hi' });
    expect(await since()).toEqual([{ kind: 'comment', action: 'upsert', service: 'fanbox', creator_id: '1', post_id: 'a' }]);
  });

  it('rolls the change back with the write when the transaction fails', async () => {
    await upsertCreator(t.db, { service: 'fanbox', id: '1', name: 'Kuro' });
    await since();
    await expect(
      inTransaction(t.db, async (db) => {
        await upsertPost(db, { service: 'fanbox', user: '1', id: 'p', title: 'p' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await since()).toEqual([]);
    expect(t.db.prepare('SELECT count(*) AS n FROM posts').get()).toEqual({ n: 0 });
  });

  it('records DMs only when they are or become public', async () => {
    await upsertCreator(t.db, { service: 'patreon', id: '2', name: 'Luna' });
    const account = await createAccount(t.db, { username: 'consumer', password_hash: 'x' });
    await since();
    await upsertDm(t.db, { service: 'patreon', user: '2', hash: 'h1', content: 'hello', status: 'pending', account_id: account.id });
    await upsertDm(t.db, { service: 'patreon', user: '2', hash: 'h2', content: 'hi', status: 'pending', account_id: account.id });
    expect(await since()).toEqual([]);
    expect(await reviewDms(t.db, account.id, ['h1'], { ignoreRest: true })).toEqual({ approved: 1, ignored: 1, deleted: 0 });
    expect(await since()).toEqual([{ kind: 'dm', action: 'upsert', service: 'patreon', creator_id: '2', ref: 'h1' }]);
    await upsertDm(t.db, { service: 'patreon', user: '2', hash: 'h3', content: 'public', status: 'approved' });
    expect(await since()).toEqual([{ kind: 'dm', action: 'upsert', service: 'patreon', creator_id: '2', ref: 'h3' }]);
  });

  it('records link approvals for every member of the joined group, and nothing for a rejection', async () => {
    for (const [service, id] of [
      ['patreon', '1'],
      ['fanbox', '2'],
      ['fantia', '3'],
    ]) {
      await upsertCreator(t.db, { service, id, name: `${service} ${id}` });
    }
    await since();
    const first = await createLinkRequest(t.db, {
      from_service: 'patreon',
      from_id: '1',
      to_service: 'fanbox',
      to_id: '2',
      requester_id: null,
    });
    const second = await createLinkRequest(t.db, {
      from_service: 'fantia',
      from_id: '3',
      to_service: 'fanbox',
      to_id: '2',
      requester_id: null,
    });
    expect(await since()).toEqual([]);
    expect(await rejectLinkRequest(t.db, second, null)).toBe(true);
    expect(await since()).toEqual([]);
    expect(await approveLinkRequest(t.db, first, null)).toBe(true);
    expect(await since()).toEqual([
      { kind: 'link', action: 'upsert', service: 'fanbox', creator_id: '2' },
      { kind: 'link', action: 'upsert', service: 'patreon', creator_id: '1' },
    ]);
    expect(await approveLinkRequest(t.db, first, null)).toBe(false);
  });

  it('records shares, files, announcements, fancards, Discord and community writes', async () => {
    await upsertCreator(t.db, { service: 'fanbox', id: '1', name: 'Kuro' });
    await upsertCreator(t.db, { service: 'patreon', id: '2', name: 'Luna' });
    await upsertCreator(t.db, { service: 'discord', id: '900', name: 'Server' });
    await since();

    const file = await registerFile(t.db, { hash: 'e'.repeat(64), size: 3, ext: 'png', added: '2024-01-01T00:00:00' });
    await registerFile(t.db, { hash: 'e'.repeat(64), size: 3, ext: 'png' });
    await setArchiveInfo(t.db, { hash: 'e'.repeat(64), file_list: ['a.txt'] });
    expect(await since()).toEqual([
      { kind: 'file', action: 'upsert', ref: 'e'.repeat(64) },
      { kind: 'file', action: 'upsert', ref: 'e'.repeat(64) },
    ]);

    const share = await createShare(t.db, {
      name: 'Pack',
      files: [{ filename: 'a.png', hash: file.hash }],
      creators: [{ service: 'fanbox', creator_id: '1' }],
    });
    expect(await since()).toEqual([{ kind: 'share', action: 'upsert', service: 'fanbox', creator_id: '1', ref: String(share) }]);

    await upsertAnnouncement(t.db, { service: 'fanbox', user_id: '1', hash: 'ann', content: '<p>news</p>' });
    const fancard = await upsertFancard(t.db, { user_id: '1', file_id: file.id, price: '500円' });
    expect(await since()).toEqual([
      { kind: 'announcement', action: 'upsert', service: 'fanbox', creator_id: '1', ref: 'ann' },
      { kind: 'fancard', action: 'upsert', service: 'fanbox', creator_id: '1', ref: String(fancard) },
    ]);

    await upsertDiscordChannel(t.db, { id: '901', server_id: '900', name: 'general' });
    await upsertDiscordMessages(t.db, [
      {
        id: 'm1',
        server_id: '900',
        channel_id: '901',
        author: { id: 'u', username: 'u' },
        content: 'hi',
        published: '2024-01-01T00:00:00',
      },
      {
        id: 'm2',
        server_id: '900',
        channel_id: '901',
        author: { id: 'u', username: 'u' },
        content: 'yo',
        published: '2024-01-01T00:01:00',
      },
    ]);
    expect(await since()).toEqual([
      { kind: 'discord', action: 'upsert', service: 'discord', creator_id: '900', ref: '901' },
      { kind: 'discord', action: 'upsert', service: 'discord', creator_id: '900', ref: '901' },
    ]);
    // The same channel again changes nothing; a renamed one is a change.
    await upsertDiscordChannel(t.db, { id: '901', server_id: '900', name: 'general' });
    expect(await since()).toEqual([]);
    await upsertDiscordChannel(t.db, { id: '901', server_id: '900', name: 'general-chat' });
    expect(await since()).toEqual([{ kind: 'discord', action: 'upsert', service: 'discord', creator_id: '900', ref: '901' }]);

    await upsertCommunityChannel(t.db, { channel_id: 'ch', creator_id: '2', name: 'General' });
    await upsertCommunityMessages(t.db, [{ message_id: 'cm1', channel_id: 'ch', created_at: '2024-01-01T00:00:00' }]);
    expect(await since()).toEqual([
      { kind: 'creator', action: 'upsert', service: 'patreon', creator_id: '2' },
      { kind: 'community', action: 'upsert', service: 'patreon', creator_id: '2', ref: 'ch' },
      { kind: 'community', action: 'upsert', service: 'patreon', creator_id: '2', ref: 'ch' },
    ]);
  });
});
