/**
 * Accounts API against a real migrated database: registration, login, logout, the account and its
 * notifications, password change; cookie flags, session rotation and fixation, CSRF, rate limits.
 *
 * The app trusts X-Forwarded-For here, so each test speaks from its own address and the per-address
 * limits of one test do not spill into the next; one test uses real loopback addresses instead.
 */
import http from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { createAccount } from '@api/data/accounts.ts';
import { createSession } from '@api/data/sessions.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { createNotification } from '@api/data/notifications.ts';
import { sqliteStore } from '@api/data/store.ts';
import { hashPassword } from '@api/auth/passwords.ts';
import { RATE_LIMIT_MESSAGES } from '@api/auth/rate-limits.ts';
import { hashSessionToken } from '@api/http/session.ts';
import { ACCOUNT_MESSAGES } from '@api/auth/credentials.ts';
import { readConfig } from '@api/config.ts';
import { AUTH_RATE_LIMITS } from '@shared/constants.ts';
import { listen } from '../../helpers/http.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let address = 0;
/** A fresh client address (X-Forwarded-For) for each caller. */
const nextAddress = () => `198.51.100.${(address += 1)}`;

interface CallOptions {
  cookie?: string;
  body?: Record<string, unknown>;
  form?: boolean;
  from?: string;
  headers?: Record<string, string>;
}

function call(method: 'get' | 'post', path: string, options: CallOptions = {}) {
  const req = request(app)
    [method](path)
    .set('X-Forwarded-For', options.from ?? nextAddress());
  if (options.cookie) req.set('Cookie', options.cookie);
  for (const [name, value] of Object.entries(options.headers ?? {})) req.set(name, value);
  if (options.body) {
    if (options.form) req.type('form').send(new URLSearchParams(options.body as Record<string, string>).toString());
    else req.send(options.body);
  }
  return req;
}

/** The session cookie a response sets: its value and its attributes. */
function sessionCookie(res: request.Response): { value: string; attributes: string[]; header: string } {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('session='));
  if (!raw) throw new Error('no session cookie was set');
  const [pair, ...attributes] = raw.split(';').map((part) => part.trim());
  return { value: pair.slice('session='.length), attributes, header: pair };
}

async function register(username: string, password = 'password1', extra: Record<string, unknown> = {}) {
  return call('post', '/api/v1/authentication/register', { body: { username, password, confirm_password: password, ...extra } });
}

async function login(username: string, password: string, options: CallOptions = {}) {
  return call('post', '/api/v1/authentication/login', { ...options, body: { username, password } });
}

const count = (sql: string, ...params: unknown[]) => (t.db.prepare(sql).get(...params) as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  app = createApp({
    db: t.db,
    config: { ...readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), trustProxy: true },
    logger: { error() {} },
  });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice' });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob' });
});

afterAll(() => t.cleanup());

describe('POST /api/v1/authentication/register', () => {
  it('creates a normalised account with argon2id, signs it in and keeps the known guest favourites', async () => {
    const favorites = JSON.stringify([
      { service: 'patreon', id: '100' },
      { service: 'fanbox', id: '200' },
      { service: 'patreon', id: 'no-such-creator' },
      { service: 'nowhere', id: '1' },
    ]);
    const res = await register('  New.User+1 ', 'secret5', { favorites_json: favorites });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), username: 'new.user+1', created_at: expect.any(String), role: 'consumer' });
    const stored = t.db.prepare('SELECT password_hash FROM accounts WHERE id = ?').get(res.body.id) as { password_hash: string };
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    const faves = t.db.prepare('SELECT service, creator_id FROM favorite_creators WHERE account_id = ? ORDER BY service').all(res.body.id);
    expect(faves).toEqual([
      { service: 'fanbox', creator_id: '200' },
      { service: 'patreon', creator_id: '100' },
    ]);
    const cookie = sessionCookie(res);
    const me = await call('get', '/api/v1/account', { cookie: cookie.header });
    expect(me.status).toBe(200);
    expect(me.body.props.account.username).toBe('new.user+1');
  });

  it('accepts a form body', async () => {
    const res = await call('post', '/api/v1/authentication/register', {
      form: true,
      body: { username: 'formuser', password: 'secret5', confirm_password: 'secret5' },
    });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('formuser');
  });

  it.each([
    [{ password: 'secret5', confirm_password: 'secret5' }, 'Username is required.'],
    [{ username: '!!!', password: 'secret5', confirm_password: 'secret5' }, 'Username is required.'],
    [
      { username: 'ab', password: 'secret5', confirm_password: 'secret5' },
      'Username must be at least 3 characters and no more than 15 characters long.',
    ],
    [
      { username: 'a'.repeat(16), password: 'secret5', confirm_password: 'secret5' },
      'Username must be at least 3 characters and no more than 15 characters long.',
    ],
    [{ username: '_abc', password: 'secret5', confirm_password: 'secret5' }, expect.stringMatching(/^Username doesn't match pattern/)],
    [{ username: 'okname' }, 'Password is required.'],
    [{ username: 'okname', password: 'abcd', confirm_password: 'abcd' }, 'Password must have at least 5 characters.'],
    [{ username: 'okname', password: 'secret5', confirm_password: 'secret6' }, "Passwords don't match."],
    [{ username: 'okname', password: 'secret5', confirm_password: 'secret5', favorites_json: '{oops' }, 'Favorites must be a JSON list.'],
  ])('refuses %j with the spec message', async (body, message) => {
    const res = await call('post', '/api/v1/authentication/register', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    expect(count("SELECT count(*) AS n FROM accounts WHERE username = 'okname'")).toBe(0);
  });

  it('answers 409 for a taken username (after normalisation) and leaves the account alone', async () => {
    expect((await register('takenname')).status).toBe(200);
    const again = await register('TakenName', 'another1');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: ACCOUNT_MESSAGES.taken });
    expect(count("SELECT count(*) AS n FROM accounts WHERE username = 'takenname'")).toBe(1);
    expect((await login('takenname', 'password1')).status).toBe(200);
  });

  it('limits registrations per address (429 with Retry-After), other addresses still register', async () => {
    const from = nextAddress();
    const { points } = AUTH_RATE_LIMITS.registrationPerAddress;
    for (let i = 0; i < points; i += 1) {
      const res = await call('post', '/api/v1/authentication/register', {
        from,
        body: { username: `bulk${i}`, password: 'secret5', confirm_password: 'secret5' },
      });
      expect(res.status).toBe(200);
    }
    const refused = await call('post', '/api/v1/authentication/register', {
      from,
      body: { username: 'bulkmore', password: 'secret5', confirm_password: 'secret5' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: RATE_LIMIT_MESSAGES.registration });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(count("SELECT count(*) AS n FROM accounts WHERE username = 'bulkmore'")).toBe(0);
    expect((await register('elsewhere')).status).toBe(200);
  });
});

describe('POST /api/v1/authentication/login', () => {
  beforeAll(async () => {
    await createAccount(t.db, { username: 'carol', password_hash: await hashPassword('carol-pass') });
  });

  it('answers the account and sets an HttpOnly, SameSite=Lax session cookie for the whole site', async () => {
    const res = await login('Carol', 'carol-pass');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), username: 'carol', created_at: expect.any(String), role: 'consumer' });
    const cookie = sessionCookie(res);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${30 * 24 * 3600}`]));
    expect(cookie.attributes).not.toContain('Secure');
    // Only the token's hash is stored.
    expect(count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', hashSessionToken(cookie.value))).toBe(1);
    expect(count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', cookie.value)).toBe(0);
  });

  it('marks the cookie Secure behind an https proxy', async () => {
    const res = await login('carol', 'carol-pass', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(200);
    expect(sessionCookie(res).attributes).toContain('Secure');
  });

  it('says the same for a wrong password and an unknown username, and sets no cookie', async () => {
    const wrong = await login('carol', 'not-her-pass');
    const unknown = await login('nobody-here', 'carol-pass');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: ACCOUNT_MESSAGES.badCredentials });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('takes about as long for an unknown username as for a wrong password (argon2 runs either way)', async () => {
    const once = async (username: string) => {
      const start = performance.now();
      await login(username, 'wrong-password');
      return performance.now() - start;
    };
    const median = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    await login('timing-warmup', 'x');
    await createAccount(t.db, { username: 'timed', password_hash: await hashPassword('timed-pass') });
    // Interleaved, so a busy machine slows both kinds alike.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await once('timed'));
      unknown.push(await once('untimed'));
    }
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    expect(median(unknown)).toBeLessThan(median(known) * 2);
  });

  it.each([
    [{ password: 'x' }, 'Username is required.'],
    [{ username: '   ', password: 'x' }, 'Username is required.'],
    [{ username: 'carol' }, 'Password is required.'],
  ])('refuses %j with the spec message', async (body, message) => {
    const res = await call('post', '/api/v1/authentication/login', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it("answers 'Unknown method' to other methods", async () => {
    const res = await call('get', '/api/v1/authentication/login');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Unknown method' });
  });

  it('answers 409 when the request is already signed in, keeping that session', async () => {
    const first = sessionCookie(await login('carol', 'carol-pass'));
    const again = await login('carol', 'carol-pass', { cookie: first.header });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: ACCOUNT_MESSAGES.alreadyLoggedIn });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect((await call('get', '/api/v1/account', { cookie: first.header })).status).toBe(200);
  });

  it('never adopts a session token the client brings (fixation)', async () => {
    const planted = 'session=attacker-chosen-token-value';
    const res = await login('carol', 'carol-pass', { cookie: planted });
    expect(res.status).toBe(200);
    const issued = sessionCookie(res);
    expect(issued.value).not.toBe('attacker-chosen-token-value');
    expect((await call('get', '/api/v1/account', { cookie: planted })).status).toBe(401);
    expect((await call('get', '/api/v1/account', { cookie: issued.header })).status).toBe(200);
  });

  it('issues a new token at every login and deletes the expired session the browser still held', async () => {
    const carol = t.db.prepare("SELECT id FROM accounts WHERE username = 'carol'").get() as { id: number };
    const oldToken = 'expired-session-token-of-carol';
    await createSession(t.db, { token_hash: hashSessionToken(oldToken), account_id: carol.id, expires_at: '2000-01-01T00:00:00' });
    const a = sessionCookie(await login('carol', 'carol-pass', { cookie: `session=${oldToken}` }));
    const b = sessionCookie(await login('carol', 'carol-pass'));
    expect(a.value).not.toBe(b.value);
    expect(a.value).not.toBe(oldToken);
    expect(count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', hashSessionToken(oldToken))).toBe(0);
  });

  it('refuses a login posted from another site even without a session cookie (login CSRF)', async () => {
    const crossSite = await login('carol', 'carol-pass', { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error).toMatch(/CSRF/);
    const foreignOrigin = await login('carol', 'carol-pass', { headers: { Origin: 'https://evil.example' } });
    expect(foreignOrigin.status).toBe(403);
    const sameOrigin = await login('carol', 'carol-pass', { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(sameOrigin.status).toBe(200);
  });
});

describe('rate limits on login', () => {
  it('refuses an address after its attempts (429, Retry-After) while other addresses and the site keep working', async () => {
    await createAccount(t.db, { username: 'dave', password_hash: await hashPassword('dave-pass') });
    const from = nextAddress();
    const { points } = AUTH_RATE_LIMITS.loginPerAddress;
    for (let i = 0; i < points; i += 1) {
      // Different usernames: only the address limit can trip.
      expect((await login(`guess${i}`, 'wrong', { from })).status).toBe(401);
    }
    const refused = await login('dave', 'dave-pass', { from });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: RATE_LIMIT_MESSAGES.login });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(AUTH_RATE_LIMITS.loginPerAddress.seconds);
    expect((await login('dave', 'dave-pass')).status).toBe(200);
    expect((await call('get', '/api/v1/app_version', { from })).status).toBe(200);
  });

  it('refuses a username after its failures from any address; a success clears them', async () => {
    await createAccount(t.db, { username: 'erin', password_hash: await hashPassword('erin-pass') });
    const { points } = AUTH_RATE_LIMITS.loginFailuresPerUsername;
    for (let i = 0; i < points - 1; i += 1) expect((await login('erin', 'wrong')).status).toBe(401);
    expect((await login('erin', 'erin-pass')).status).toBe(200);
    for (let i = 0; i < points; i += 1) expect((await login('erin', 'wrong')).status).toBe(401);
    const refused = await login('erin', 'erin-pass');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: RATE_LIMIT_MESSAGES.login });
    // Unknown usernames are counted the same way, so a 429 tells nothing about existence.
    for (let i = 0; i < points; i += 1) await login('ghost-user', 'wrong');
    expect((await login('ghost-user', 'wrong')).status).toBe(429);
    // Other accounts are not affected.
    expect((await login('dave', 'dave-pass')).status).toBe(200);
  });

  it('uses the socket address without a trusted proxy (real loopback addresses)', async () => {
    const direct = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
    const server = http.createServer(direct);
    const base = await listen(server);
    let guess = 0;
    const post = (localAddress: string, forwardedFor: string) =>
      new Promise<number>((resolve, reject) => {
        // A new username each time: only the address limit can trip.
        const body = JSON.stringify({ username: `loopback${(guess += 1)}`, password: 'wrong' });
        const req = http.request(
          `${base}/api/v1/authentication/login`,
          {
            method: 'POST',
            localAddress,
            headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const statuses: number[] = [];
      // A spoofed X-Forwarded-For does not give a fresh address when the proxy is not trusted.
      for (let i = 0; i <= AUTH_RATE_LIMITS.loginPerAddress.points; i += 1) statuses.push(await post('127.0.0.3', `203.0.113.${i}`));
      expect(statuses.at(-1)).toBe(429);
      expect(await post('127.0.0.4', '203.0.113.1')).toBe(401);
    } finally {
      server.close();
    }
  });
});

describe('POST /api/v1/authentication/logout', () => {
  it('ends the session and clears the cookie', async () => {
    await register('leaver');
    const { header } = sessionCookie(await login('leaver', 'password1'));
    const res = await call('post', '/api/v1/authentication/logout', { cookie: header });
    expect(res.status).toBe(204);
    const cleared = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('session='));
    expect(cleared).toMatch(/^session=;.*Max-Age=0/);
    expect((await call('get', '/api/v1/account', { cookie: header })).status).toBe(401);
  });

  it('answers 204 without a session too', async () => {
    expect((await call('post', '/api/v1/authentication/logout')).status).toBe(204);
  });

  it('refuses a cross-site logout that rides on the cookie (CSRF)', async () => {
    const { header } = sessionCookie(await login('leaver', 'password1'));
    const res = await call('post', '/api/v1/authentication/logout', { cookie: header, headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect((await call('get', '/api/v1/account', { cookie: header })).status).toBe(200);
  });
});

describe('GET /api/v1/account and /api/v1/account/notifications', () => {
  const notify = (account_id: number, type: number, extra_info: Record<string, string> | null) =>
    createNotification(sqliteStore(t.db), { account_id, type, extra_info });
  it('answers the account with its unseen notification count; notifications are marked seen once read', async () => {
    const created = (await register('notified')).body as { id: number };
    const { header } = sessionCookie(await login('notified', 'password1'));
    await notify(created.id, 1, { old_role: 'consumer', new_role: 'moderator' });
    await notify(created.id, 7, null);
    const me = await call('get', '/api/v1/account', { cookie: header });
    expect(me.body).toEqual({
      props: {
        currentPage: 'account',
        account: { id: created.id, username: 'notified', created_at: expect.any(String), role: 'consumer' },
        notifications_count: 2,
      },
    });
    const first = await call('get', '/api/v1/account/notifications', { cookie: header });
    expect(first.status).toBe(200);
    expect(first.body.props.currentPage).toBe('account');
    expect(first.body.props.notifications).toEqual([
      { id: expect.any(Number), type: 7, extra_info: null, created_at: expect.any(String), isSeen: false },
      {
        id: expect.any(Number),
        type: 1,
        extra_info: { old_role: 'consumer', new_role: 'moderator' },
        created_at: expect.any(String),
        isSeen: false,
      },
    ]);
    const second = await call('get', '/api/v1/account/notifications', { cookie: header });
    expect(second.body.props.notifications.map((n: { isSeen: boolean }) => n.isSeen)).toEqual([true, true]);
    expect((await call('get', '/api/v1/account', { cookie: header })).body.props.notifications_count).toBe(0);
  });

  it("shows only the caller's own notifications", async () => {
    const other = (await register('bystander')).body as { id: number };
    await notify(other.id, 1, { old_role: 'consumer', new_role: 'moderator' });
    const { header } = sessionCookie(await register('snooper'));
    const res = await call('get', '/api/v1/account/notifications', { cookie: header });
    expect(res.body.props.notifications).toEqual([]);
    expect(count('SELECT count(*) AS n FROM notifications WHERE account_id = ? AND is_seen = 0', other.id)).toBe(1);
  });

  it('answers 401 with the spec message to guests', async () => {
    for (const path of ['/api/v1/account', '/api/v1/account/notifications']) {
      const res = await call('get', path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'You must be registered to access this page.' });
    }
  });
});

describe('POST /api/v1/account/change_password', () => {
  const change = (cookie: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call('post', '/api/v1/account/change_password', { cookie, body, headers });

  it.each([
    [{ 'new-password': 'newpass1', 'new-password-confirmation': 'newpass1' }, 'Password cannot be empty.'],
    [{ 'current-password': 'password1', 'new-password': '   ', 'new-password-confirmation': '' }, 'New password cannot be empty.'],
    [
      { 'current-password': 'password1', 'new-password': 'abcd', 'new-password-confirmation': 'abcd' },
      'New password must have at least 5 characters.',
    ],
    [
      { 'current-password': 'password1', 'new-password': 'newpass1', 'new-password-confirmation': 'newpass2' },
      'New password and confirmation do not match.',
    ],
  ])('refuses %j with the spec message', async (body, message) => {
    const { header } = sessionCookie(await register(`cp${(address += 1)}`));
    const res = await change(header, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('refuses a wrong current password and keeps the old one', async () => {
    const { header } = sessionCookie(await register('wrongcur'));
    const res = await change(header, { 'current-password': 'not-it', 'new-password': 'newpass1', 'new-password-confirmation': 'newpass1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: ACCOUNT_MESSAGES.wrongCurrentPassword });
    expect((await login('wrongcur', 'password1')).status).toBe(200);
  });

  it('changes the password, ends every session of the account and gives this browser a fresh one', async () => {
    const mine = sessionCookie(await register('changer'));
    const otherDevice = sessionCookie(await login('changer', 'password1'));
    const res = await change(mine.header, {
      'current-password': 'password1',
      'new-password': ' newpass1 ',
      'new-password-confirmation': 'newpass1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    const fresh = sessionCookie(res);
    expect(fresh.value).not.toBe(mine.value);
    expect((await call('get', '/api/v1/account', { cookie: mine.header })).status).toBe(401);
    expect((await call('get', '/api/v1/account', { cookie: otherDevice.header })).status).toBe(401);
    expect((await call('get', '/api/v1/account', { cookie: fresh.header })).status).toBe(200);
    expect((await login('changer', 'password1')).status).toBe(401);
    expect((await login('changer', 'newpass1')).status).toBe(200);
  });

  it('refuses a cross-origin POST carrying the cookie (CSRF) and changes nothing', async () => {
    const { header } = sessionCookie(await register('csrfvictim'));
    const body = { 'current-password': 'password1', 'new-password': 'hijacked1', 'new-password-confirmation': 'hijacked1' };
    const foreign: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Referer: 'https://evil.example/page' },
    ];
    for (const headers of foreign) {
      const res = await change(header, body, headers);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/CSRF/);
    }
    expect((await login('csrfvictim', 'password1')).status).toBe(200);
  });

  it('answers 401 to guests', async () => {
    const res = await call('post', '/api/v1/account/change_password', { body: {} });
    expect(res.status).toBe(401);
  });
});
