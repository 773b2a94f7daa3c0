/**
 * Chat pages in the page store: their canonical keys (150 a step; message links never stored), which
 * stored pages a Discord or community change affects, and that a full rebuild includes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affectedByChanges } from '@api/pages/affected.ts';
import { allArchivePages } from '@api/pages/rebuild.ts';
import { canonicalPageKey } from '@api/pages/keys.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertDiscordChannel, upsertDiscordMessages, type DiscordMessageInput } from '@api/data/discord.ts';
import { upsertCommunityChannel, upsertCommunityMessages } from '@api/data/community.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

describe('chat page keys', () => {
  it('keys a Discord channel by offsets of 150; the server root and message links are not stored', () => {
    expect(canonicalPageKey('/discord/server/1/2', '')).toBe('/discord/server/1/2');
    expect(canonicalPageKey('/discord/server/1/2', '?o=300')).toBe('/discord/server/1/2?o=300');
    expect(canonicalPageKey('/discord/server/1/2', '?o=50')).toBeUndefined();
    expect(canonicalPageKey('/discord/server/1/2', '?o=150&x=1')).toBeUndefined();
    expect(canonicalPageKey('/discord/server/1', '')).toBeUndefined();
    expect(canonicalPageKey('/discord/server/1/2/3', '')).toBeUndefined();
  });

  it('keys the community list and channels (offsets of 150), for patreon only', () => {
    expect(canonicalPageKey('/patreon/user/9/community', '')).toBe('/patreon/user/9/community');
    expect(canonicalPageKey('/patreon/user/9/community', '?o=150')).toBeUndefined();
    expect(canonicalPageKey('/patreon/user/9/community/c1', '?o=150')).toBe('/patreon/user/9/community/c1?o=150');
    expect(canonicalPageKey('/patreon/user/9/community/c1', '?o=100')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/9/community', '')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/9/community/c1', '')).toBeUndefined();
  });
});

function messages(channel: string, count: number, start = 0): DiscordMessageInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${channel}-${start + i}`,
    server_id: 'srv',
    channel_id: channel,
    author: { id: 'a', username: 'A' },
    content: `message ${start + i}`,
    published: new Date(Date.UTC(2024, 0, 1) + (start + i) * 60_000).toISOString(),
  }));
}

describe('pages a chat change affects', () => {
  let t: TempDb;
  beforeAll(async () => {
    t = tempDb();
    await upsertCreator(t.db, { service: 'discord', id: 'srv', name: 'Server' });
    await upsertDiscordChannel(t.db, { id: 'cat', server_id: 'srv', name: 'CATEGORY', type: 4, position: 0 });
    await upsertDiscordChannel(t.db, { id: 'big', server_id: 'srv', name: 'big', position: 1, parent_channel_id: 'cat' });
    await upsertDiscordChannel(t.db, { id: 'small', server_id: 'srv', name: 'small', position: 2 });
    await upsertDiscordMessages(t.db, [...messages('big', 320), ...messages('small', 200)]);
    await upsertCreator(t.db, { service: 'patreon', id: 'pat', name: 'Pat' });
    await upsertCreator(t.db, { service: 'patreon', id: 'other', name: 'Other' });
    await upsertCommunityChannel(t.db, { channel_id: 'c1', creator_id: 'pat', name: 'General' });
    await upsertCommunityChannel(t.db, { channel_id: 'c2', creator_id: 'pat', name: 'Art' });
  });
  afterAll(() => t.cleanup());

  it("new messages re-render every page of their channel and the other channels' first pages", async () => {
    const from = await lastChangeId(t.db);
    await upsertDiscordMessages(t.db, messages('big', 1, 320));
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    expect([...affected.render].sort()).toEqual(
      ['/discord/server/srv/big', '/discord/server/srv/big?o=150', '/discord/server/srv/big?o=300', '/discord/server/srv/small'].sort(),
    );
    expect(affected.listings.get('/discord/server/srv/big')).toBe(300);
  });

  it('a renamed server re-renders all of its channel pages', async () => {
    const from = await lastChangeId(t.db);
    await upsertCreator(t.db, { service: 'discord', id: 'srv', name: 'Renamed server' });
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    for (const key of ['/discord/server/srv/big?o=300', '/discord/server/srv/small?o=150']) expect(affected.render).toContain(key);
    expect([...affected.render].some((key) => key.includes('/cat'))).toBe(false);
  });

  it("community messages re-render the creator's community pages only", async () => {
    const from = await lastChangeId(t.db);
    await upsertCommunityMessages(
      t.db,
      Array.from({ length: 160 }, (_, i) => ({
        message_id: `m${i}`,
        channel_id: 'c1',
        created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      })),
    );
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    expect([...affected.render].sort()).toEqual(
      [
        '/patreon/user/pat/community',
        '/patreon/user/pat/community/c1',
        '/patreon/user/pat/community/c1?o=150',
        '/patreon/user/pat/community/c2',
      ].sort(),
    );
  });

  it('a full rebuild includes every chat page', async () => {
    const all = (await allArchivePages(t.db)).render;
    for (const key of [
      '/discord/server/srv/big?o=300',
      '/discord/server/srv/small?o=150',
      '/patreon/user/pat/community',
      '/patreon/user/pat/community/c1?o=150',
      '/patreon/user/pat/community/c2',
    ]) {
      expect(all, key).toContain(key);
    }
    expect([...all].some((key) => key.startsWith('/discord/server/srv/cat'))).toBe(false);
    expect([...all].some((key) => key.includes('/other/community/'))).toBe(false);
  });
});
