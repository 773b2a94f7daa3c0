import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertCommunityChannel, upsertCommunityMessages, type CommunityMessageInput } from '@api/data/community.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const TOTAL = 320;
const START = Date.UTC(2024, 0, 1);

function message(n: number): CommunityMessageInput {
  const created = new Date(START + n * 60_000).toISOString();
  return {
    message_id: `m${String(n).padStart(5, '0')}`,
    channel_id: 'ch-main',
    created_at: created,
    deleted_at: n === 5 ? new Date(START + 10 ** 8).toISOString() : null,
    embeds: n === 6 ? [{ type: 'link', title: 'A link', title_link: 'https://example.org' }, { title: 'No type' }] : [],
    attachments: n === 7 ? [{ path: `/ab/cd/${'cd'.repeat(32)}.jpg` }] : [],
    original_json: {
      user: { name: `Member ${n % 4}`, role: ['user', 'campaign', 'admin', 'patreon_admin'][n % 4] },
      created_at: created,
      text: `hello ${n}`,
    },
  };
}
let newestFirst: string[];

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'patreon', id: '42', name: 'Chatty' });
  await upsertCreator(db, { service: 'patreon', id: '43', name: 'Quiet' });
  await upsertCreator(db, { service: 'fanbox', id: '44', name: 'Elsewhere' });
  await upsertCommunityChannel(db, { channel_id: 'ch-main', creator_id: '42', name: 'Main', messages_refreshed_at: '2024-05-01T10:00:00' });
  await upsertCommunityChannel(db, { channel_id: 'ch-art', creator_id: '42', name: 'Art' });
  await upsertCommunityChannel(db, { channel_id: 'ch-fanbox', creator_id: '44', service: 'fanbox', name: 'Not patreon' });
  const all = Array.from({ length: TOTAL }, (_, n) => message(n));
  await upsertCommunityMessages(db, all);
  newestFirst = all.map((m) => m.message_id).reverse();
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

describe('GET /api/v1/patreon/user/{id}/community', () => {
  it("answers the creator's channels by name with exactly the documented keys", async () => {
    const answer = await request(app).get('/api/v1/patreon/user/42/community');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { channel_id: 'ch-art', creator_id: '42', name: 'Art', messages_refreshed_at: null, post_count: 0 },
      { channel_id: 'ch-main', creator_id: '42', name: 'Main', messages_refreshed_at: '2024-05-01T10:00:00', post_count: TOTAL },
    ]);
  });

  it('answers [] for a creator without channels and 404 for an unknown creator', async () => {
    expect((await request(app).get('/api/v1/patreon/user/43/community')).body).toEqual([]);
    const unknown = await request(app).get('/api/v1/patreon/user/404/community');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Creator not found.' });
  });
});

describe('GET /api/v1/patreon/user/{channel}/community/messages', () => {
  it('answers 150 messages newest first in the documented shape, deleted ones included', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/ch-main/community/messages');
    expect(answer.status).toBe(200);
    expect(answer.body.map((m: { message_id: string }) => m.message_id)).toEqual(newestFirst.slice(0, 150));
    expect(Object.keys(answer.body[0]).sort()).toEqual(
      ['attachments', 'channel_id', 'created_at', 'deleted_at', 'embeds', 'message_id', 'original_json', 'replies'].sort(),
    );
    const oldest = (await request(app).get('/api/v1/patreon/user/ch-main/community/messages?o=300')).body;
    expect(oldest).toHaveLength(20);
    const byId = (id: string) => oldest.find((m: { message_id: string }) => m.message_id === id);
    expect(byId('m00005').deleted_at).not.toBeNull();
    expect(byId('m00006').embeds).toEqual([{ type: 'link', title: 'A link', title_link: 'https://example.org' }, { title: 'No type' }]);
    expect(byId('m00007').attachments).toEqual([{ path: `/ab/cd/${'cd'.repeat(32)}.jpg` }]);
    expect(byId('m00003').original_json.user).toEqual({ name: 'Member 3', role: 'patreon_admin' });
  });

  it('pages by 150 through every message exactly once', async () => {
    const pages = [];
    for (const o of [0, 150, 300, 450]) {
      const body = (await request(app).get(`/api/v1/patreon/user/ch-main/community/messages?o=${o}`)).body;
      pages.push(body.map((m: { message_id: string }) => m.message_id));
    }
    expect(pages.map((p) => p.length)).toEqual([150, 150, 20, 0]);
    expect(pages.flat()).toEqual(newestFirst);
  });

  it("refuses bad offsets and answers 404 'Invalid channel ID' for unknown or non-Patreon channels", async () => {
    const bad = await request(app).get('/api/v1/patreon/user/ch-main/community/messages?o=100');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Offset 100 is not a multiple of 150.' });
    for (const channel of ['nope', 'ch-fanbox']) {
      const unknown = await request(app).get(`/api/v1/patreon/user/${channel}/community/messages`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Invalid channel ID' });
    }
    expect((await request(app).get('/api/v1/patreon/user/ch-art/community/messages')).body).toEqual([]);
  });
});
