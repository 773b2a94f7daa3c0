import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '@api/app.ts';
import { deleteSession } from '@api/data/sessions.ts';
import type { Db } from '@api/data/db.ts';
import { hashSessionToken, passesCsrfCheck } from '@api/http/session.ts';
import { readCookie } from '@shared/cookies.ts';
import { defineRoutes, route } from '@api/http/route.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const guarded = defineRoutes('guarded', [
  route({
    method: 'get',
    version: 1,
    path: '/guarded/whoami',
    summary: 'The signed-in account.',
    access: 'account',
    response: z.object({ username: z.string() }),
    handler: ({ account }) => ({ username: account!.username }),
  }),
  route({
    method: 'post',
    version: 1,
    path: '/guarded/moderate',
    summary: 'Moderators only.',
    access: 'moderator',
    response: z.object({ ok: z.boolean() }),
    handler: () => ({ ok: true }),
  }),
  route({
    method: 'post',
    version: 1,
    path: '/guarded/admin',
    summary: 'Administrators only.',
    access: 'administrator',
    response: z.object({ ok: z.boolean() }),
    handler: () => ({ ok: true }),
  }),
  route({
    method: 'post',
    version: 1,
    path: '/guarded/open',
    summary: 'Anyone.',
    response: z.object({ signedIn: z.boolean() }),
    handler: ({ account }) => ({ signedIn: account !== null }),
  }),
]);

let temp: TempDb;
let db: Db;
let app: ReturnType<typeof createApp>;
let consumer: TestSession;
let moderator: TestSession;
let admin: TestSession;

beforeAll(async () => {
  temp = tempDb();
  db = temp.db;
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), routes: [guarded], logger: { error() {} } });
  consumer = await signIn(db, { role: 'consumer' });
  moderator = await signIn(db, { role: 'moderator' });
  admin = await signIn(db, { role: 'administrator' });
});

afterAll(() => temp.cleanup());

describe('route access', () => {
  it('answers 401 with the spec message to guests, and the account to a signed-in user', async () => {
    const guest = await request(app).get('/api/v1/guarded/whoami');
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ error: 'You must be registered to access this page.' });
    const user = await request(app).get('/api/v1/guarded/whoami').set('Cookie', consumer.cookie);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ username: consumer.account.username });
  });

  it('treats unknown, malformed and ended sessions as guests', async () => {
    for (const cookie of ['session=nope', 'session=', 'other=1', `session=${'x'.repeat(500)}`]) {
      expect((await request(app).get('/api/v1/guarded/whoami').set('Cookie', cookie)).status).toBe(401);
    }
    const ended = await signIn(db);
    await deleteSession(db, hashSessionToken(ended.token));
    expect((await request(app).get('/api/v1/guarded/whoami').set('Cookie', ended.cookie)).status).toBe(401);
  });

  it('ranks roles: moderators and administrators pass moderator routes, only administrators pass admin routes', async () => {
    const call = (url: string, session: TestSession) => request(app).post(url).set('Cookie', session.cookie);
    expect((await call('/api/v1/guarded/moderate', consumer)).body).toEqual({ error: 'Account is not moderator.' });
    expect((await call('/api/v1/guarded/moderate', consumer)).status).toBe(403);
    expect((await call('/api/v1/guarded/moderate', moderator)).status).toBe(200);
    expect((await call('/api/v1/guarded/moderate', admin)).status).toBe(200);
    const denied = await call('/api/v1/guarded/admin', moderator);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Account is not administrator.' });
    expect((await call('/api/v1/guarded/admin', admin)).status).toBe(200);
    expect((await request(app).post('/api/v1/guarded/admin')).status).toBe(401);
  });
});

describe('CSRF', () => {
  const post = (headers: Record<string, string>) => {
    const req = request(app).post('/api/v1/guarded/open').set('Cookie', consumer.cookie);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req;
  };

  it('refuses a cookie session request sent from another site', async () => {
    const forged: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Referer: 'https://evil.example/page' },
    ];
    for (const headers of forged) {
      const answer = await post(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body.error).toMatch(/CSRF/);
    }
  });

  it('lets same-site pages, header-less clients and cookie-less requests through', async () => {
    expect((await post({ 'Sec-Fetch-Site': 'same-origin' })).body).toEqual({ signedIn: true });
    const host = 'trove.test';
    expect((await post({ Host: host, Origin: `https://${host}` })).status).toBe(200);
    expect((await post({ Host: host, Referer: `http://${host}/posts` })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    // Without the cookie there is no session to ride on: a cross-site post is just a guest's.
    const guest = await request(app).post('/api/v1/guarded/open').set('Origin', 'https://evil.example');
    expect(guest.body).toEqual({ signedIn: false });
  });

  it('never checks safe methods', () => {
    expect(passesCsrfCheck('GET', { cookie: 'session=a', origin: 'https://evil.example', host: 'x' })).toBe(true);
    expect(passesCsrfCheck('DELETE', { cookie: 'session=a', origin: 'https://evil.example', host: 'x' })).toBe(false);
  });
});

describe('readCookie', () => {
  it('finds one cookie among several and decodes it', () => {
    expect(readCookie('a=1; session=abc%3D; b=2', 'session')).toBe('abc=');
    expect(readCookie('sessionx=1', 'session')).toBeUndefined();
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });
});
