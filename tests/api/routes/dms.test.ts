import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertDm } from '@api/data/dms.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { affectedByChanges } from '@api/pages/affected.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
let reviewer: TestSession;
let other: TestSession;

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'patreon', id: '42', name: 'Painter' });
  await upsertCreator(db, { service: 'fanbox', id: '7', name: 'Sculptor' });
  reviewer = await signIn(db);
  other = await signIn(db);
  for (let n = 0; n < 60; n++) {
    await upsertDm(db, {
      service: 'patreon',
      user: '42',
      hash: `p${String(n).padStart(3, '0')}`,
      content: n === 3 ? 'Thanks for the sketchbook!' : `Message ${n}`,
      published: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00`,
      status: 'approved',
    });
  }
  await upsertDm(db, { service: 'fanbox', user: '7', hash: 'f1', content: 'Hello from fanbox', status: 'approved' });
  await upsertDm(db, {
    service: 'fanbox',
    user: '7',
    hash: 'pending1',
    content: 'Waiting for review',
    status: 'pending',
    account_id: reviewer.account.id,
  });
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

describe('/api/v1/account/review_dms', () => {
  let alice: TestSession;
  let bob: TestSession;
  const hashes = (body: { props: { dms: { hash: string }[] } }) => body.props.dms.map((d) => d.hash).sort();
  const review = (session: TestSession | undefined, status?: string) => {
    const call = request(app).get(`/api/v1/account/review_dms${status === undefined ? '' : `?status=${status}`}`);
    return session ? call.set('Cookie', session.cookie) : call;
  };
  const submit = (session: TestSession | undefined, body: unknown) => {
    const call = request(app)
      .post('/api/v1/account/review_dms')
      .send(body as object);
    return session ? call.set('Cookie', session.cookie) : call;
  };
  const statusOf = (hash: string) =>
    (temp.db.prepare('SELECT status FROM dms WHERE hash = ?').get(hash) as { status: string } | undefined)?.status;

  beforeAll(async () => {
    const { db } = temp;
    await upsertCreator(db, { service: 'fansly', id: '9', name: 'Dancer' });
    alice = await signIn(db);
    bob = await signIn(db);
    const dm = (hash: string, status: 'pending' | 'ignored', owner: TestSession, added: string) =>
      upsertDm(db, {
        service: 'fansly',
        user: '9',
        hash,
        content: `<p>DM ${hash}</p><script>alert(1)</script>`,
        published: '2024-03-01T00:00:00',
        added,
        status,
        account_id: owner.account.id,
      });
    await dm('a-pend-1', 'pending', alice, '2024-03-05T00:00:00');
    await dm('a-pend-2', 'pending', alice, '2024-03-04T00:00:00');
    await dm('a-pend-3', 'pending', alice, '2024-03-03T00:00:00');
    await dm('a-ign-1', 'ignored', alice, '2024-03-02T00:00:00');
    await dm('b-pend-1', 'pending', bob, '2024-03-05T00:00:00');
    await dm('b-ign-1', 'ignored', bob, '2024-03-01T00:00:00');
  });

  it("lists the account's own pending DMs by default, newest first, with their artist", async () => {
    const answer = await review(alice);
    expect(answer.status).toBe(200);
    expect(answer.body.props.status).toBe('pending');
    expect(answer.body.props.currentPage).toBe('account');
    expect(answer.body.props.dms.map((d: { hash: string }) => d.hash)).toEqual(['a-pend-1', 'a-pend-2', 'a-pend-3']);
    expect(answer.body.props.dms[0]).toMatchObject({
      service: 'fansly',
      user: '9',
      user_id: '9',
      published: '2024-03-01T00:00:00',
      artist: { id: '9', name: 'Dancer', service: 'fansly' },
    });
    expect(hashes((await review(alice, 'ignored')).body)).toEqual(['a-ign-1']);
    expect(hashes((await review(bob, 'pending')).body)).toEqual(['b-pend-1']);
  });

  it("refuses an unknown status with the spec's message, and guests", async () => {
    const bad = await review(alice, 'approved');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown status "approved".');
    const guest = await review(undefined);
    expect(guest.status).toBe(401);
    expect(guest.body.error).toBe('You must be registered to access this page.');
    expect((await submit(undefined, { approved_hashes: ['a-pend-1'] })).status).toBe(401);
    expect(statusOf('a-pend-1')).toBe('pending');
  });

  it('needs at least one DM unless ignored DMs are deleted', async () => {
    for (const body of [{}, { approved_hashes: [] }, { approved_hashes: [''], delete_ignored: false }]) {
      const answer = await submit(alice, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('At least one DM must be provided for approval.');
    }
    expect(hashes((await review(alice)).body)).toEqual(['a-pend-1', 'a-pend-2', 'a-pend-3']);
  });

  it("approves DMs into the public lists, ignores the rest, never touches another account's DMs, and logs the changes", async () => {
    const before = await lastChangeId(temp.db);
    const answer = await submit(alice, { approved_hashes: ['a-pend-1', 'b-pend-1', 'no-such-dm'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ approved: 1, ignored: 2, deleted: 0 });
    expect(statusOf('b-pend-1')).toBe('pending');
    expect(hashes((await review(bob)).body)).toEqual(['b-pend-1']);
    expect(hashes((await review(alice)).body)).toEqual([]);
    expect(hashes((await review(alice, 'ignored')).body)).toEqual(['a-ign-1', 'a-pend-2', 'a-pend-3']);
    const creatorDms = await request(app).get('/api/v1/fansly/user/9/dms');
    expect(creatorDms.body.dms.map((d: { hash: string }) => d.hash)).toEqual(['a-pend-1']);
    const global = await request(app).get('/api/v1/dms?q=a-pend-1');
    expect(global.body.dms.map((d: { hash: string }) => d.hash)).toEqual(['a-pend-1']);
    const changes = await readChangesSince(temp.db, before);
    expect(changes.map((c) => [c.kind, c.service, c.creator_id])).toEqual([['dm', 'fansly', '9']]);
    const affected = await affectedByChanges(temp.db, changes);
    expect(affected.render.has('/fansly/user/9/dms')).toBe(true);
    expect(affected.render.has('/dms')).toBe(true);
    expect((await request(app).get('/api/v1/has_pending_dms').set('Cookie', alice.cookie)).body).toBe(false);
  });

  it('approves from the ignored view and deletes the other ignored DMs, but not DMs still pending', async () => {
    await upsertDm(temp.db, {
      service: 'fansly',
      user: '9',
      hash: 'a-pend-new',
      content: 'Arrived later',
      status: 'pending',
      account_id: alice.account.id,
    });
    const answer = await submit(alice, { approved_hashes: ['a-pend-2'], delete_ignored: true });
    expect(answer.body).toEqual({ approved: 1, ignored: 1, deleted: 2 });
    expect(statusOf('a-pend-2')).toBe('approved');
    expect(statusOf('a-pend-3')).toBeUndefined();
    expect(statusOf('a-ign-1')).toBeUndefined();
    // The DM that arrived while the ignored view was open is kept, now in the ignored view.
    expect(hashes((await review(alice, 'ignored')).body)).toEqual(['a-pend-new']);
    expect(statusOf('b-ign-1')).toBe('ignored');
  });

  it('takes the form encoding of the page (delete_ignored alone)', async () => {
    const answer = await request(app).post('/api/v1/account/review_dms').set('Cookie', alice.cookie).type('form').send('delete_ignored=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ approved: 0, ignored: 0, deleted: 1 });
    expect(hashes((await review(alice, 'ignored')).body)).toEqual([]);
    expect(statusOf('b-ign-1')).toBe('ignored');
    expect(statusOf('b-pend-1')).toBe('pending');
  });

  it('takes more hashes than SQLite binds at once, each DM approved once', async () => {
    await upsertDm(temp.db, {
      service: 'fansly',
      user: '9',
      hash: 'a-bulk',
      content: 'Bulk',
      status: 'pending',
      account_id: alice.account.id,
    });
    const junk = Array.from({ length: 40_000 }, (_, n) => `x${n}`);
    const answer = await submit(alice, { approved_hashes: [...junk, 'a-bulk', 'a-bulk', 'b-pend-1'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ approved: 1, ignored: 0, deleted: 0 });
    expect(statusOf('a-bulk')).toBe('approved');
    expect(statusOf('b-pend-1')).toBe('pending');
  });
});
