import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app.ts';
import { upsertCreator } from '../../../api/data/creators.ts';
import { upsertDm } from '../../../api/data/dms.ts';
import { readConfig } from '../../../src/lib/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
let reviewer: TestSession;
let other: TestSession;

beforeAll(() => {
  temp = tempDb();
  const { db } = temp;
  upsertCreator(db, { service: 'patreon', id: '42', name: 'Painter' });
  upsertCreator(db, { service: 'fanbox', id: '7', name: 'Sculptor' });
  reviewer = signIn(db);
  other = signIn(db);
  for (let n = 0; n < 60; n++) {
    upsertDm(db, { service: 'patreon', user: '42', hash: `p${String(n).padStart(3, '0')}`, content: n === 3 ? 'Thanks for the sketchbook!' : `Message ${n}`, published: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00`, status: 'approved' });
  }
  upsertDm(db, { service: 'fanbox', user: '7', hash: 'f1', content: 'Hello from fanbox', status: 'approved' });
  upsertDm(db, { service: 'fanbox', user: '7', hash: 'pending1', content: 'Waiting for review', status: 'pending', account_id: reviewer.account.id });
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

describe('GET /api/v1/{service}/user/{id}/dms', () => {
  it("pages a creator's approved DMs with the total", async () => {
    const first = await request(app).get('/api/v1/patreon/user/42/dms');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(60);
    expect(first.body.dms).toHaveLength(50);
    expect(first.body.dms[0]).toMatchObject({ service: 'patreon', user: '42', user_id: '42' });
    expect((await request(app).get('/api/v1/patreon/user/42/dms?o=50')).body.dms).toHaveLength(10);
    expect((await request(app).get('/api/v1/patreon/user/42/dms?o=25')).status).toBe(400);
    expect((await request(app).get('/api/v1/patreon/user/0/dms')).status).toBe(404);
  });

  it('never shows DMs waiting for review', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/7/dms');
    expect(answer.body.dms.map((d: { hash: string }) => d.hash)).toEqual(['f1']);
  });
});

describe('GET /api/v1/dms', () => {
  it('lists approved DMs with their artist and searches them', async () => {
    const all = await request(app).get('/api/v1/dms');
    expect(all.body.count).toBe(61);
    expect(all.body.dms[0].artist).toMatchObject({ service: expect.any(String), name: expect.any(String) });
    const found = await request(app).get('/api/v1/dms?q=sketchbook');
    expect(found.body.count).toBe(1);
    expect(found.body.dms[0].content).toBe('Thanks for the sketchbook!');
    expect((await request(app).get('/api/v1/dms?q=ab')).status).toBe(400);
  });
});

describe('GET /api/v1/has_pending_dms', () => {
  it('is true only for the account that imported pending DMs, and needs an account', async () => {
    expect((await request(app).get('/api/v1/has_pending_dms').set('Cookie', reviewer.cookie)).body).toBe(true);
    expect((await request(app).get('/api/v1/has_pending_dms').set('Cookie', other.cookie)).body).toBe(false);
    expect((await request(app).get('/api/v1/has_pending_dms')).status).toBe(401);
  });
});
