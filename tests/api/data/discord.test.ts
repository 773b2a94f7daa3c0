/** Discord channels and messages on both engines, with the 'discord' change rows their writes log. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deleteDiscordMessages,
  discordMessagePosition,
  getDiscordChannel,
  getDiscordServer,
  isViewableChannel,
  listDiscordChannels,
  listDiscordMessages,
  listDiscordMessagesWithFile,
  upsertDiscordChannel,
  upsertDiscordMessages,
  type DiscordMessageInput,
} from '@api/data/discord.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';

const engines = engineDatabases();
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const author = { id: 'u1', username: 'ユーザー', avatar: null };

function message(id: string, published: string, extra: Partial<DiscordMessageInput> = {}): DiscordMessageInput {
  return { id, server_id: 's1', channel_id: 'c1', author, published, ...extra };
}

async function changesAfter(db: Store, since: number) {
  return (await readChangesSince(db, since)).map((c) => [c.kind, c.action, c.service, c.creator_id, c.ref]);
}

describe.each(ENGINES)('discord on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('upserts channels, logging a change only when one is new or differs, and lists them by position then id', async () => {
    expect(await listDiscordChannels(db, 's1')).toEqual([]);
    expect(await getDiscordChannel(db, 'c1')).toBeUndefined();
    await upsertDiscordChannel(db, { id: 'c2', server_id: 's1', name: 'général', position: 1 });
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'rules', topic: 'be nice', is_nsfw: true, position: 1 });
    await upsertDiscordChannel(db, { id: 'cat', server_id: 's1', name: 'Category', type: 4, position: 0 });
    await upsertDiscordChannel(db, { id: 'x1', server_id: 's2', name: 'other' });
    expect((await listDiscordChannels(db, 's1')).map((c) => c.id)).toEqual(['cat', 'c1', 'c2']);
    expect(await getDiscordChannel(db, 'c1')).toEqual({
      id: 'c1',
      server_id: 's1',
      name: 'rules',
      parent_channel_id: null,
      topic: 'be nice',
      is_nsfw: true,
      type: 0,
      post_count: 0,
    });
    expect(isViewableChannel((await getDiscordChannel(db, 'cat'))!)).toBe(false);
    expect(isViewableChannel((await getDiscordChannel(db, 'c1'))!)).toBe(true);

    const before = await lastChangeId(db);
    // The same values again (NULLs included): nothing rewritten, nothing logged.
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'rules', topic: 'be nice', is_nsfw: true, position: 1 });
    expect(await lastChangeId(db)).toBe(before);
    // A NULL that becomes a value and back counts as a change both ways.
    await upsertDiscordChannel(db, {
      id: 'c1',
      server_id: 's1',
      name: 'rules',
      topic: 'be nice',
      is_nsfw: true,
      position: 1,
      parent_channel_id: 'cat',
    });
    await upsertDiscordChannel(db, {
      id: 'c1',
      server_id: 's1',
      name: 'rules',
      topic: null,
      is_nsfw: true,
      position: 1,
      parent_channel_id: 'cat',
    });
    expect(await getDiscordChannel(db, 'c1')).toMatchObject({ parent_channel_id: 'cat', topic: null });
    expect(await changesAfter(db, before)).toEqual([
      ['discord', 'upsert', 'discord', 's1', 'c1'],
      ['discord', 'upsert', 'discord', 's1', 'c1'],
    ]);
    expect((await changesAfter(db, 0)).slice(0, 4)).toEqual([
      ['discord', 'upsert', 'discord', 's1', 'c2'],
      ['discord', 'upsert', 'discord', 's1', 'c1'],
      ['discord', 'upsert', 'discord', 's1', 'cat'],
      ['discord', 'upsert', 'discord', 's2', 'x1'],
    ]);
  });

  it('answers a server from its creator row and channels, or undefined when neither exists', async () => {
    expect(await getDiscordServer(db, 's1')).toBeUndefined();
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'c' });
    expect(await getDiscordServer(db, 's1')).toMatchObject({
      id: 's1',
      name: 's1',
      indexed: '1970-01-01T00:00:00',
      updated: '1970-01-01T00:00:00',
    });
    await db.k
      .insertInto('creators')
      .values({ service: 'discord', id: 's1', name: 'Serveur ✨', indexed: 86_400, updated: 172_800 })
      .execute();
    await addCreator(db, 'discord', 's3', 'Empty');
    expect(await getDiscordServer(db, 's1')).toEqual({
      id: 's1',
      name: 'Serveur ✨',
      indexed: '1970-01-02T00:00:00',
      updated: '1970-01-03T00:00:00',
      channels: [await getDiscordChannel(db, 'c1')],
    });
    expect(await getDiscordServer(db, 's3')).toMatchObject({ id: 's3', name: 'Empty', channels: [] });
  });

  it('upserts messages with their attachments, counts them per channel and logs one change per channel', async () => {
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'one' });
    await upsertDiscordChannel(db, { id: 'c2', server_id: 's1', name: 'two' });
    const before = await lastChangeId(db);
    await upsertDiscordMessages(db, []);
    expect(await lastChangeId(db)).toBe(before);
    await upsertDiscordMessages(db, [
      message('m1', '2030-01-01T00:00:00', {
        content: 'こんにちは',
        embeds: [{ type: 'link', url: 'https://example.com' }],
        mentions: [{ id: 'u2' }],
        attachments: [
          { name: 'a.png', path: `/aa/aa/${A}.png` },
          { path: '/no/hash.txt', hash: B },
        ],
        added: '2030-02-01T00:00:00',
      }),
      message('m2', '2030-01-02T00:00:00', { edited: '2030-01-03T00:00:00' }),
      message('m3', '2030-01-01T00:00:00', { channel_id: 'c2' }),
    ]);
    expect(await changesAfter(db, before)).toEqual([
      ['discord', 'upsert', 'discord', 's1', 'c1'],
      ['discord', 'upsert', 'discord', 's1', 'c2'],
    ]);
    expect((await getDiscordChannel(db, 'c1'))?.post_count).toBe(2);
    expect((await getDiscordChannel(db, 'c2'))?.post_count).toBe(1);
    const listed = await listDiscordMessages(db, 'c1', 0);
    expect(listed.map((m) => m.id)).toEqual(['m2', 'm1']);
    expect(listed[1]).toEqual({
      id: 'm1',
      server: 's1',
      channel: 'c1',
      author,
      content: 'こんにちは',
      embeds: [{ type: 'link', url: 'https://example.com' }],
      mentions: [{ id: 'u2' }],
      attachments: [
        { name: 'a.png', path: `/aa/aa/${A}.png` },
        { name: null, path: '/no/hash.txt' },
      ],
      published: '2030-01-01T00:00:00',
      edited: null,
      added: '2030-02-01T00:00:00',
    });
    expect(listed[0]).toMatchObject({ content: '', embeds: [], mentions: [], attachments: [], edited: '2030-01-03T00:00:00' });
    expect(listed[0]?.added).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await db.k.selectFrom('discord_attachments').select(['message_id', 'idx', 'name', 'hash']).orderBy('idx').execute()).toEqual([
      { message_id: 'm1', idx: 0, name: 'a.png', hash: A },
      { message_id: 'm1', idx: 1, name: null, hash: B },
    ]);

    // Re-importing a message replaces its attachments and may move it to another channel.
    await upsertDiscordMessages(db, [message('m1', '2030-01-01T00:00:00', { channel_id: 'c2', attachments: [{ path: '/plain.txt' }] })]);
    expect(await db.k.selectFrom('discord_attachments').select(['message_id', 'idx', 'path', 'hash']).execute()).toEqual([
      { message_id: 'm1', idx: 0, path: '/plain.txt', hash: null },
    ]);
    expect((await listDiscordMessages(db, 'c2', 0)).map((m) => [m.id, m.content, m.added])).toEqual([
      ['m3', '', expect.any(String)],
      ['m1', '', '2030-02-01T00:00:00'],
    ]);
    expect((await getDiscordChannel(db, 'c2'))?.post_count).toBe(2);
    expect(await listDiscordMessages(db, 'missing', 0)).toEqual([]);
  });

  it('pages newest first with ties broken by id, and finds a message position', async () => {
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'one' });
    await upsertDiscordMessages(db, [
      message('m1', '2030-01-01T00:00:00'),
      message('m3', '2030-01-02T00:00:00'),
      message('m2', '2030-01-02T00:00:00'),
      message('m4', '2030-01-03T00:00:00'),
      message('m5', '2030-01-01T00:00:00'),
    ]);
    const order = ['m4', 'm3', 'm2', 'm5', 'm1'];
    expect((await listDiscordMessages(db, 'c1', 0)).map((m) => m.id)).toEqual(order);
    for (let offset = 0; offset < 5; offset += 2) {
      expect((await listDiscordMessages(db, 'c1', offset, 2)).map((m) => m.id)).toEqual(order.slice(offset, offset + 2));
    }
    expect(await listDiscordMessages(db, 'c1', 5)).toEqual([]);
    for (const [position, id] of order.entries()) {
      expect(await discordMessagePosition(db, id)).toEqual({ channel_id: 'c1', position });
    }
    expect(await discordMessagePosition(db, 'nope')).toBeUndefined();
  });

  it('finds the messages carrying a file, newest first, with server and channel names', async () => {
    expect(await listDiscordMessagesWithFile(db, A)).toEqual([]);
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'un' });
    await upsertDiscordChannel(db, { id: 'c2', server_id: 's2', name: 'deux' });
    await addCreator(db, 'discord', 's1', 'Server One');
    await upsertDiscordMessages(db, [
      message('m1', '2030-01-01T00:00:00', { content: 'first', attachments: [{ path: `/aa/aa/${A}.png` }, { path: `/x/${A}.png` }] }),
      message('m2', '2030-01-01T00:00:00', { attachments: [{ path: `/aa/aa/${A}.jpg` }] }),
      message('m3', '2030-01-02T00:00:00', { server_id: 's2', channel_id: 'c2', attachments: [{ path: `/aa/aa/${A}` }] }),
      message('m4', '2030-01-03T00:00:00', { attachments: [{ path: `/bb/bb/${B}.png` }] }),
    ]);
    expect(await listDiscordMessagesWithFile(db, A)).toEqual([
      {
        id: 'm3',
        server: 's2',
        server_name: null,
        channel: 'c2',
        channel_name: 'deux',
        published: '2030-01-02T00:00:00',
        author,
        content: '',
      },
      {
        id: 'm2',
        server: 's1',
        server_name: 'Server One',
        channel: 'c1',
        channel_name: 'un',
        published: '2030-01-01T00:00:00',
        author,
        content: '',
      },
      {
        id: 'm1',
        server: 's1',
        server_name: 'Server One',
        channel: 'c1',
        channel_name: 'un',
        published: '2030-01-01T00:00:00',
        author,
        content: 'first',
      },
    ]);
    expect((await listDiscordMessagesWithFile(db, A, 1)).map((m) => m.id)).toEqual(['m3']);
    expect((await listDiscordMessagesWithFile(db, B)).map((m) => m.id)).toEqual(['m4']);
  });

  it('deletes messages, recounting and logging each touched channel once', async () => {
    expect(await deleteDiscordMessages(db, [])).toBe(0);
    await upsertDiscordChannel(db, { id: 'c1', server_id: 's1', name: 'one' });
    await upsertDiscordChannel(db, { id: 'c2', server_id: 's1', name: 'two' });
    await upsertDiscordMessages(db, [
      message('m1', '2030-01-01T00:00:00', { attachments: [{ path: `/aa/aa/${A}.png` }] }),
      message('m2', '2030-01-02T00:00:00'),
      message('m3', '2030-01-02T00:00:00', { channel_id: 'c2' }),
    ]);
    const before = await lastChangeId(db);
    expect(await deleteDiscordMessages(db, ['nope'])).toBe(0);
    expect(await lastChangeId(db)).toBe(before);
    expect(await deleteDiscordMessages(db, ['m3', 'm1', 'nope'])).toBe(2);
    expect(await changesAfter(db, before)).toEqual([
      ['discord', 'upsert', 'discord', 's1', 'c1'],
      ['discord', 'upsert', 'discord', 's1', 'c2'],
    ]);
    expect((await listDiscordChannels(db, 's1')).map((c) => [c.id, c.post_count])).toEqual([
      ['c1', 1],
      ['c2', 0],
    ]);
    // The attachment rows go with their message.
    expect(await db.k.selectFrom('discord_attachments').selectAll().execute()).toEqual([]);
    expect(await listDiscordMessagesWithFile(db, A)).toEqual([]);
  });
});
