/** Patreon community channels and messages on both engines, with the change rows their writes log. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  getCommunityChannel,
  listCommunityChannels,
  listCommunityMessages,
  upsertCommunityChannel,
  upsertCommunityMessages,
} from '@api/data/community.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';

const engines = engineDatabases();

async function changesAfter(db: Store, since: number) {
  return (await readChangesSince(db, since)).map((c) => [c.kind, c.action, c.service, c.creator_id, c.ref]);
}

async function hasChats(db: Store, service: string, id: string) {
  const row = await db.k.selectFrom('creators').select('has_chats').where('service', '=', service).where('id', '=', id).executeTakeFirst();
  return row?.has_chats;
}

describe.each(ENGINES)('community on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'patreon', 'p1');
    await addCreator(db, 'fanbox', 'f1');
  });

  it('upserts channels, flags the creator has_chats once and lists channels by name then id', async () => {
    expect(await listCommunityChannels(db, 'patreon', 'p1')).toEqual([]);
    expect(await getCommunityChannel(db, 'k1')).toBeUndefined();
    expect(await hasChats(db, 'patreon', 'p1')).toBe(0);
    await upsertCommunityChannel(db, { channel_id: 'k2', creator_id: 'p1', name: 'Ärger' });
    await upsertCommunityChannel(db, { channel_id: 'k1', creator_id: 'p1', name: 'Zed', messages_refreshed_at: '2030-01-01T00:00:00' });
    await upsertCommunityChannel(db, { channel_id: 'k3', creator_id: 'p1', name: 'Zed' });
    await upsertCommunityChannel(db, { channel_id: 'k4', creator_id: 'f1', service: 'fanbox', name: 'other' });
    expect(await hasChats(db, 'patreon', 'p1')).toBe(1);
    expect(await hasChats(db, 'fanbox', 'f1')).toBe(1);
    // Binary order: 'Z' sorts before 'Ä' on both engines.
    expect(await listCommunityChannels(db, 'patreon', 'p1')).toEqual([
      { channel_id: 'k1', creator_id: 'p1', name: 'Zed', messages_refreshed_at: '2030-01-01T00:00:00', post_count: 0 },
      { channel_id: 'k3', creator_id: 'p1', name: 'Zed', messages_refreshed_at: null, post_count: 0 },
      { channel_id: 'k2', creator_id: 'p1', name: 'Ärger', messages_refreshed_at: null, post_count: 0 },
    ]);
    expect(await listCommunityChannels(db, 'fanbox', 'p1')).toEqual([]);
    expect(await getCommunityChannel(db, 'k4')).toEqual({
      channel_id: 'k4',
      creator_id: 'f1',
      service: 'fanbox',
      name: 'other',
      messages_refreshed_at: null,
      post_count: 0,
    });
    expect(await changesAfter(db, 0)).toEqual([
      ['creator', 'upsert', 'patreon', 'p1', null],
      ['community', 'upsert', 'patreon', 'p1', 'k2'],
      ['community', 'upsert', 'patreon', 'p1', 'k1'],
      ['community', 'upsert', 'patreon', 'p1', 'k3'],
      ['creator', 'upsert', 'fanbox', 'f1', null],
      ['community', 'upsert', 'fanbox', 'f1', 'k4'],
    ]);

    // Renaming updates the row; the creator is already flagged, so only the channel is logged.
    const before = await lastChangeId(db);
    await upsertCommunityChannel(db, { channel_id: 'k1', creator_id: 'p1', name: 'Alpha' });
    expect(await getCommunityChannel(db, 'k1')).toMatchObject({ name: 'Alpha', messages_refreshed_at: null });
    expect(await changesAfter(db, before)).toEqual([['community', 'upsert', 'patreon', 'p1', 'k1']]);
  });

  it('upserts messages, keeps deleted ones, counts them per channel and logs one change per channel', async () => {
    await upsertCommunityChannel(db, { channel_id: 'k1', creator_id: 'p1', name: 'one' });
    await upsertCommunityChannel(db, { channel_id: 'k2', creator_id: 'f1', service: 'fanbox', name: 'two' });
    const before = await lastChangeId(db);
    await upsertCommunityMessages(db, []);
    expect(await lastChangeId(db)).toBe(before);
    await upsertCommunityMessages(db, [
      {
        message_id: 'm1',
        channel_id: 'k1',
        created_at: '2030-01-01T00:00:00',
        replies: [{ text: 'ありがとう' }],
        embeds: [{ type: 'image', image_url: 'https://example.com/a.png' }],
        attachments: [{ path: '/x.png', name: 'x.png' }],
        original_json: { id: 'm1', nested: { n: 1 } },
        added: '2030-02-01T00:00:00',
      },
      { message_id: 'm2', channel_id: 'k1', created_at: '2030-01-02T00:00:00', deleted_at: '2030-01-03T00:00:00' },
      { message_id: 'm3', channel_id: 'k2', created_at: '2030-01-01T00:00:00' },
      { message_id: 'm4', channel_id: 'k1', created_at: '2030-01-01T00:00:00' },
    ]);
    expect(await changesAfter(db, before)).toEqual([
      ['community', 'upsert', 'patreon', 'p1', 'k1'],
      ['community', 'upsert', 'fanbox', 'f1', 'k2'],
    ]);
    expect((await getCommunityChannel(db, 'k1'))?.post_count).toBe(3);
    expect((await getCommunityChannel(db, 'k2'))?.post_count).toBe(1);
    const listed = await listCommunityMessages(db, 'k1', 0);
    expect(listed.map((m) => m.message_id)).toEqual(['m2', 'm4', 'm1']);
    expect(listed[0]).toEqual({
      message_id: 'm2',
      channel_id: 'k1',
      created_at: '2030-01-02T00:00:00',
      deleted_at: '2030-01-03T00:00:00',
      replies: [],
      embeds: [],
      attachments: [],
      original_json: {},
    });
    expect(listed[2]).toEqual({
      message_id: 'm1',
      channel_id: 'k1',
      created_at: '2030-01-01T00:00:00',
      deleted_at: null,
      replies: [{ text: 'ありがとう' }],
      embeds: [{ type: 'image', image_url: 'https://example.com/a.png' }],
      attachments: [{ path: '/x.png', name: 'x.png' }],
      original_json: { id: 'm1', nested: { n: 1 } },
    });
    for (let offset = 0; offset < 3; offset += 1) {
      expect((await listCommunityMessages(db, 'k1', offset, 1)).map((m) => m.message_id)).toEqual([['m2', 'm4', 'm1'][offset]]);
    }
    expect(await listCommunityMessages(db, 'k1', 3)).toEqual([]);
    expect(await listCommunityMessages(db, 'missing', 0)).toEqual([]);

    // Re-importing moves a message to another channel and keeps its first added time.
    await upsertCommunityMessages(db, [{ message_id: 'm1', channel_id: 'k2', created_at: '2030-01-05T00:00:00', deleted_at: null }]);
    const added = await db.k.selectFrom('community_messages').select('added').where('message_id', '=', 'm1').executeTakeFirst();
    expect(added?.added).toBe('2030-02-01T00:00:00');
    expect((await listCommunityMessages(db, 'k2', 0)).map((m) => [m.message_id, m.replies])).toEqual([
      ['m1', []],
      ['m3', []],
    ]);
    expect((await getCommunityChannel(db, 'k2'))?.post_count).toBe(2);
  });
});
