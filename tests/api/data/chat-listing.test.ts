/**
 * Chat listings page from either end of a channel (api/data/discord.ts and community.ts read the older
 * half from the oldest end): every page must be exactly the matching slice of the newest-first order,
 * ties on the timestamp included, and stay right after messages are removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { deleteDiscordMessages, listDiscordMessages, upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { listCommunityMessages, upsertCommunityChannel, upsertCommunityMessages } from '@api/data/community.ts';
import { tempDb, type TempDb } from './helpers.ts';

let temp: TempDb;
const COUNT = 1_000;
/** Runs of 7 messages share one timestamp, so page edges fall inside ties. */
const stamp = (n: number) => new Date(Date.UTC(2024, 0, 1) + Math.floor(n / 7) * 60_000).toISOString();
const id = (n: number) => `7${String(n).padStart(6, '0')}`;

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'discord', id: 's', name: 'S' });
  await upsertDiscordChannel(db, { id: 'c', server_id: 's', name: 'c' });
  // Inserted in a shuffled order: the listing must not depend on insertion order.
  const order = Array.from({ length: COUNT }, (_, n) => (n * 389) % COUNT);
  await upsertDiscordMessages(
    temp.db,
    order.map((n) => ({ id: id(n), server_id: 's', channel_id: 'c', author: { id: 'a', username: 'a' }, published: stamp(n) })),
  );
  await upsertCreator(db, { service: 'patreon', id: 'p', name: 'P' });
  await upsertCommunityChannel(db, { channel_id: 'k', creator_id: 'p', name: 'k' });
  await upsertCommunityMessages(
    db,
    order.map((n) => ({ message_id: id(n), channel_id: 'k', created_at: stamp(n) })),
  );
});

afterAll(() => temp.cleanup());

async function expectSlices(list: (offset: number, limit: number) => Promise<string[]>, expected: string[]) {
  for (const limit of [150, 7, 1]) {
    for (let offset = 0; offset <= expected.length + limit; offset += limit === 150 ? 150 : 61) {
      expect(await list(offset, limit), `offset ${offset} limit ${limit}`).toEqual(expected.slice(offset, offset + limit));
    }
  }
}

describe('chat listings', () => {
  it('give the newest-first slice at every offset of a Discord channel, ties ordered by id', async () => {
    const expected = Array.from({ length: COUNT }, (_, n) => id(COUNT - 1 - n));
    await expectSlices(async (o, l) => (await listDiscordMessages(temp.db, 'c', o, l)).map((m) => m.id), expected);
  });

  it('give the newest-first slice at every offset of a community channel', async () => {
    const expected = Array.from({ length: COUNT }, (_, n) => id(COUNT - 1 - n));
    await expectSlices(async (o, l) => (await listCommunityMessages(temp.db, 'k', o, l)).map((m) => m.message_id), expected);
  });

  it('stay exact after messages are removed (post_count follows)', async () => {
    const removed = new Set([id(0), id(500), id(501), id(999)]);
    await deleteDiscordMessages(temp.db, [...removed]);
    const expected = Array.from({ length: COUNT }, (_, n) => id(COUNT - 1 - n)).filter((m) => !removed.has(m));
    await expectSlices(async (o, l) => (await listDiscordMessages(temp.db, 'c', o, l)).map((m) => m.id), expected);
  });
});
