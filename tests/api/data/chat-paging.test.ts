/**
 * The chat page query on both engines: every page, counted from the newest or (older half) the oldest
 * end, gives the same rows as slicing the whole channel newest first, equal times ordered by id.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { pageChatRows, type ChatTable } from '@api/data/chat-paging.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();

const DISCORD: ChatTable = { table: 'discord_messages', columns: 'id, content, published', time: 'published', id: 'id' };
const COMMUNITY: ChatTable = { table: 'community_messages', columns: 'message_id, created_at', time: 'created_at', id: 'message_id' };

/** 13 messages; several share a time so the id decides, ids in binary order ('B' < 'a'). */
const MESSAGES = ['a1', 'a2', 'B3', 'b4', 'c5', 'C6', 'd7', 'e8', 'e9', 'f0', 'g1', 'h2', 'ü3'].map((id, i) => ({
  id,
  published: `2030-01-${String(10 + Math.floor(i / 3)).padStart(2, '0')}T00:00:00`,
}));
const NEWEST_FIRST = [...MESSAGES].sort((a, b) =>
  a.published === b.published ? (a.id < b.id ? 1 : -1) : a.published < b.published ? 1 : -1,
);

describe.each(ENGINES)('chat paging on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await db.k
      .insertInto('discord_channels')
      .values([
        { id: 'ch', server_id: 's', name: 'general' },
        { id: 'empty', server_id: 's', name: 'quiet' },
      ])
      .execute();
    await db.k
      .insertInto('discord_messages')
      .values(
        MESSAGES.map((m) => ({
          id: m.id,
          server_id: 's',
          channel_id: 'ch',
          author: '{}',
          content: `text ${m.id}`,
          published: m.published,
          added: '2030-02-01',
        })),
      )
      .execute();
  });

  it('gives every page as a slice of the channel newest first, from either end', async () => {
    const total = MESSAGES.length;
    for (const limit of [1, 4, 5, 13, 50]) {
      for (let offset = 0; offset <= total + 1; offset += 1) {
        const rows = await pageChatRows<{ id: string; content: string; published: string }>(db, DISCORD, 'ch', offset, limit, total);
        expect(
          rows.map((row) => row.id),
          `offset ${offset} limit ${limit}`,
        ).toEqual(NEWEST_FIRST.slice(offset, offset + limit).map((m) => m.id));
      }
    }
    const [first] = await pageChatRows<{ id: string; content: string; published: string }>(db, DISCORD, 'ch', 0, 1, total);
    expect(first).toEqual({ id: NEWEST_FIRST[0].id, content: `text ${NEWEST_FIRST[0].id}`, published: NEWEST_FIRST[0].published });
  });

  it('gives nothing for an empty or unknown channel', async () => {
    expect(await pageChatRows(db, DISCORD, 'empty', 0, 10, 0)).toEqual([]);
    expect(await pageChatRows(db, DISCORD, 'missing', 0, 10, 0)).toEqual([]);
  });

  it('pages a community channel by its own columns', async () => {
    await db.k.insertInto('creators').values({ service: 'patreon', id: 'c1', name: 'One', indexed: 1, updated: 1 }).execute();
    await db.k.insertInto('community_channels').values({ channel_id: 'cc', creator_id: 'c1', name: 'lobby' }).execute();
    await db.k
      .insertInto('community_messages')
      .values([
        { message_id: 'm1', channel_id: 'cc', created_at: '2030-01-01', added: '2030-01-01' },
        { message_id: 'm2', channel_id: 'cc', created_at: '2030-01-02', added: '2030-01-01' },
        { message_id: 'm3', channel_id: 'cc', created_at: '2030-01-02', added: '2030-01-01' },
      ])
      .execute();
    expect(await pageChatRows(db, COMMUNITY, 'cc', 0, 2, 3)).toEqual([
      { message_id: 'm3', created_at: '2030-01-02' },
      { message_id: 'm2', created_at: '2030-01-02' },
    ]);
    expect(await pageChatRows(db, COMMUNITY, 'cc', 2, 2, 3)).toEqual([{ message_id: 'm1', created_at: '2030-01-01' }]);
  });
});
