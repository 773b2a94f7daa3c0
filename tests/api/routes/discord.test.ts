import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertDiscordChannel, upsertDiscordMessages, type DiscordMessageInput } from '@api/data/discord.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const UPDATED = Date.UTC(2024, 5, 4, 23, 53, 36) / 1000;
const TOTAL = 400;
const START = Date.UTC(2024, 0, 1);

/** Message n of #general; every fifth pair shares a timestamp so ties are ordered by id. */
function message(n: number): DiscordMessageInput {
  const at = START + Math.floor(n / 2) * 2 * 60_000 + (n % 2 === 1 && n % 5 !== 0 ? 60_000 : 0);
  return {
    id: `9${String(n).padStart(17, '0')}`,
    server_id: '555',
    channel_id: '1001',
    author: { id: `a${n % 3}`, username: `user${n % 3}`, global_name: `User ${n % 3}`, avatar: n % 3 ? 'abc' : null, discriminator: '0' },
    content: `message ${n}`,
    embeds: n === 7 ? [{ type: 'rich', title: 'An embed', color: 16711680, provider: { name: 'Site' } }] : [],
    mentions: [],
    attachments: n === 8 ? [{ name: 'cat.png', path: `/ab/cd/${'ab'.repeat(32)}.png` }] : [],
    published: new Date(at).toISOString(),
  };
}
const ids = (body: Array<{ id: string }>) => body.map((m) => m.id);
/** Every message id, newest first, as the API must list them. */
let newestFirst: string[];

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'discord', id: '555', name: 'The Server', indexed: UPDATED - 100, updated: UPDATED });
  await upsertDiscordChannel(db, { id: '1001', server_id: '555', name: 'general', topic: 'Talk', position: 1 });
  await upsertDiscordChannel(db, {
    id: '1000',
    server_id: '555',
    name: 'rules',
    is_nsfw: true,
    type: 5,
    position: 0,
    parent_channel_id: '999',
  });
  await upsertCreator(db, { service: 'discord', id: '556', name: 'Empty server' });
  const all = Array.from({ length: TOTAL }, (_, n) => message(n));
  await upsertDiscordMessages(db, all);
  newestFirst = all
    .slice()
    .sort((a, b) => (a.published === b.published ? (a.id < b.id ? 1 : -1) : a.published < b.published ? 1 : -1))
    .map((m) => m.id);
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

const CHANNEL_KEYS = ['id', 'server_id', 'name', 'parent_channel_id', 'topic', 'is_nsfw', 'type', 'post_count'].sort();

describe('GET /api/v1/discord/server/{id}', () => {
  it('answers the server with its channels by position, exactly the documented keys', async () => {
    const answer = await request(app).get('/api/v1/discord/server/555');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['channels', 'id', 'indexed', 'name', 'updated']);
    expect(answer.body).toMatchObject({ id: '555', name: 'The Server', updated: '2024-06-04T23:53:36' });
    expect(answer.body.channels).toEqual([
      { id: '1000', server_id: '555', name: 'rules', parent_channel_id: '999', topic: null, is_nsfw: true, type: 5, post_count: 0 },
      { id: '1001', server_id: '555', name: 'general', parent_channel_id: null, topic: 'Talk', is_nsfw: false, type: 0, post_count: TOTAL },
    ]);
    for (const channel of answer.body.channels) expect(Object.keys(channel).sort()).toEqual(CHANNEL_KEYS);
  });

  it('answers a known server without channels with an empty list, and 404 for an unknown one', async () => {
    expect((await request(app).get('/api/v1/discord/server/556')).body.channels).toEqual([]);
    const unknown = await request(app).get('/api/v1/discord/server/404404');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Discord server not found.' });
  });
});

describe('GET /api/v1/discord/channel/lookup/{server}', () => {
  it("answers the server's channel list", async () => {
    const answer = await request(app).get('/api/v1/discord/channel/lookup/555');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual((await request(app).get('/api/v1/discord/server/555')).body.channels);
    expect((await request(app).get('/api/v1/discord/channel/lookup/556')).body).toEqual([]);
    const unknown = await request(app).get('/api/v1/discord/channel/lookup/404404');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Discord server not found.' });
  });
});

describe('GET /api/v1/discord/channel/{id}', () => {
  it('answers 150 messages newest first in the documented shape', async () => {
    const answer = await request(app).get('/api/v1/discord/channel/1001');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(150);
    expect(ids(answer.body)).toEqual(newestFirst.slice(0, 150));
    const first = answer.body[0];
    expect(Object.keys(first).sort()).toEqual(
      ['added', 'attachments', 'author', 'channel', 'content', 'edited', 'embeds', 'id', 'mentions', 'published', 'server'].sort(),
    );
    expect(first).toMatchObject({ server: '555', channel: '1001', content: 'message 399', edited: null });
    // The author is kept as Discord sent it.
    expect(first.author).toEqual({ id: 'a0', username: 'user0', global_name: 'User 0', avatar: null, discriminator: '0' });
  });

  it('keeps embeds and attachments as stored', async () => {
    const last = (await request(app).get('/api/v1/discord/channel/1001?o=300')).body as Array<Record<string, unknown>>;
    const seven = last.find((m) => m.content === 'message 7')!;
    expect(seven.embeds).toEqual([{ type: 'rich', title: 'An embed', color: 16711680, provider: { name: 'Site' } }]);
    const eight = last.find((m) => m.content === 'message 8')!;
    expect(eight.attachments).toEqual([{ name: 'cat.png', path: `/ab/cd/${'ab'.repeat(32)}.png` }]);
  });

  it('pages by 150 through every message exactly once, from either end of the channel', async () => {
    const pages = [];
    for (const o of [0, 150, 300]) pages.push(ids((await request(app).get(`/api/v1/discord/channel/1001?o=${o}`)).body));
    expect(pages.map((p) => p.length)).toEqual([150, 150, 100]);
    expect(pages.flat()).toEqual(newestFirst);
    expect((await request(app).get('/api/v1/discord/channel/1001?o=450')).body).toEqual([]);
    expect((await request(app).get('/api/v1/discord/channel/1000')).body).toEqual([]);
  });

  it("refuses offsets that are not multiples of 150 with the spec's wording", async () => {
    const bad = await request(app).get('/api/v1/discord/channel/1001?o=50');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Offset 50 is not a multiple of 150.' });
    expect((await request(app).get('/api/v1/discord/channel/1001?o=-150')).status).toBe(400);
    expect((await request(app).get('/api/v1/discord/channel/1001?o=abc')).body).toEqual({ error: 'Offset "abc" is not a whole number.' });
  });

  it("answers 404 'Invalid channel ID' for an unknown channel", async () => {
    const unknown = await request(app).get('/api/v1/discord/channel/404404');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Invalid channel ID' });
  });
});
