/**
 * Every declared route, for every role: the permission matrix, and the route-coverage list that ties
 * each route to the test file exercising it (tests/api/route-coverage.ts).
 */
import fs from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import type { Account, Role } from '@api/data/accounts.ts';
import { allows, type Access } from '@api/http/session.ts';
import { versionBase } from '@api/http/route.ts';
import { ROUTE_GROUPS } from '@api/routes/index.ts';
import { readConfig } from '@api/config.ts';
import { signIn } from '../helpers/session.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator, addFavoritePost } from '@api/data/favorites.ts';
import { createNotification } from '@api/data/notifications.ts';
import { sqliteStore } from '@api/data/store.ts';
import { createLinkRequest } from '@api/data/links.ts';
import { ROUTE_COVERAGE } from './route-coverage.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { rowsDigest, tempDb, type TempDb } from './data/helpers.ts';

const declared = ROUTE_GROUPS.flatMap((group) =>
  group.routes.flatMap((route) =>
    route.versions.map((version) => ({
      name: `${route.method.toUpperCase()} ${versionBase(version)}${route.path}`,
      method: route.method,
      // Real targets (seeded below), so that a refused call would have something to change.
      url: versionBase(version) + route.path.replace('{service}', 'patreon').replace(/\{[^}]+\}/g, '1'),
      access: route.access,
    })),
  ),
);

/**
 * A digest of every table's rows, to prove a refused call changed nothing. Sessions are left out (a
 * refused call may clean an expired one), and so are rate-limit counters (a refusal may count).
 */
function databaseDigest(db: TempDb['db']): string {
  return rowsDigest(db, (name) => /fts|^posts_words/.test(name) || name === 'sessions' || name.startsWith('rate_limit'));
}

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const cookies = new Map<Role | 'guest', string | undefined>();
const signedIn = new Map<Role | 'guest', Account>();

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  cookies.set('guest', undefined);
  const accounts: Account[] = [];
  for (const role of ['consumer', 'moderator', 'administrator'] as const) {
    const session = await signIn(db, { role });
    cookies.set(role, session.cookie);
    signedIn.set(role, session.account);
    accounts.push(session.account);
  }
  // Something for every refused call to change: creators 1 and 2 with post 1, the consumer's
  // favourites and notification, a pending link request (id 1).
  await upsertCreator(db, { service: 'patreon', id: '1', name: 'One' });
  await upsertCreator(db, { service: 'patreon', id: '2', name: 'Two' });
  await upsertPost(db, { service: 'patreon', user: '1', id: '1', title: 'Post one' });
  await addFavoriteCreator(db, accounts[0].id, 'patreon', '1');
  await createNotification(sqliteStore(db), {
    account_id: accounts[0].id,
    type: 1,
    extra_info: { old_role: 'consumer', new_role: 'consumer' },
  });
  await createLinkRequest(db, {
    from_service: 'patreon',
    from_id: '1',
    to_service: 'patreon',
    to_id: '2',
    reason: 'same artist',
    requester_id: accounts[0].id,
  });
});

afterAll(() => temp.cleanup());

describe("another account's resources", () => {
  it("are neither shown nor changed: favourites and notifications stay their owner's", async () => {
    const owner = await signIn(temp.db, { username: 'owner' });
    const other = await signIn(temp.db, { username: 'other' });
    await addFavoriteCreator(temp.db, owner.account.id, 'patreon', '2');
    await addFavoritePost(temp.db, owner.account.id, 'patreon', '1', '1');
    await createNotification(sqliteStore(temp.db), {
      account_id: owner.account.id,
      type: 1,
      extra_info: { old_role: 'consumer', new_role: 'moderator' },
    });
    const as = (session: typeof owner, method: 'get' | 'delete', url: string) => request(app)[method](url).set('Cookie', session.cookie);

    expect((await as(other, 'get', '/api/v1/account/favorites?type=artist')).body).toEqual([]);
    expect((await as(other, 'get', '/api/v1/account/favorites?type=post')).body).toEqual([]);
    expect((await as(other, 'get', '/api/v1/account/notifications')).body.props.notifications).toEqual([]);
    expect((await as(other, 'get', '/api/v1/account')).body.props.notifications_count).toBe(0);
    // Removing "the" favourite as another account removes nothing of the owner's.
    const before = databaseDigest(temp.db);
    expect((await as(other, 'delete', '/api/v1/favorites/creator/patreon/2')).status).toBe(200);
    expect((await as(other, 'delete', '/api/v1/favorites/post/patreon/1/1')).status).toBe(200);
    expect(databaseDigest(temp.db)).toBe(before);
    expect((await as(owner, 'get', '/api/v1/account/favorites?type=artist')).body.map((c: { id: string }) => c.id)).toEqual(['2']);
    expect((await as(owner, 'get', '/api/v1/account/notifications')).body.props.notifications).toHaveLength(1);
  });
});

describe('permission matrix', () => {
  const roles = ['guest', 'consumer', 'moderator', 'administrator'] as const;
  const accountOf = (role: (typeof roles)[number]) => (role === 'guest' ? null : { id: 0, username: role, role, created_at: '' });

  it.each(declared)('$name ($access)', async ({ method, url, access }) => {
    for (const role of roles) {
      // A fresh session of the role's account for every call: logout ends the session it is sent with.
      const account = signedIn.get(role);
      const cookie = account ? (await signIn(temp.db, { account })).cookie : undefined;
      const expected = allows(access as Access, accountOf(role));
      const before = expected ? undefined : databaseDigest(temp.db);
      const call = request(app)[method](url);
      if (cookie) call.set('Cookie', cookie);
      const answer = await call;
      if (before !== undefined) expect(databaseDigest(temp.db), `${role}: refused ${method} ${url} changed the database`).toBe(before);
      if (expected) {
        expect([401, 403], `${role} may call ${method} ${url}`).not.toContain(answer.status);
      } else {
        expect(answer.status, `${role} must not call ${method} ${url}`).toBe(role === 'guest' ? 401 : 403);
      }
      expect(answer.status, `${role}: ${method} ${url} crashed`).not.toBe(500);
    }
  });
});

describe('route coverage', () => {
  it('lists every declared route with the test file that exercises it', () => {
    const missing = declared.map((route) => route.name).filter((name) => !(name in ROUTE_COVERAGE));
    expect(missing, 'add these to tests/api/route-coverage.ts').toEqual([]);
  });

  it('points at test files that exist and name the whole route path', () => {
    for (const [name, file] of Object.entries(ROUTE_COVERAGE)) {
      expect(fs.existsSync(file), `${name}: ${file}`).toBe(true);
      const text = fs.readFileSync(file, 'utf8');
      expect(namesRoute(text, name.split(' ')[1]), `${file} never names ${name}`).toBe(true);
    }
  });

  it('does not count a route as named by a path that only shares its first segment', () => {
    const route = '/api/v1/{service}/user/{id}/posts';
    expect(namesRoute("get('/patreon/user/100/posts')", route)).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a test file that builds the path
    expect(namesRoute('get(`/${service}/user/${id}/posts?o=50`)', route)).toBe(true);
    expect(namesRoute("get('/patreon/user/100/post/1')", route)).toBe(false);
    expect(namesRoute("get('/patreon/user/100/posts/extra')", route)).toBe(false);
    expect(namesRoute("get('/')", route)).toBe(false);
  });

  it('has no entries for routes that no longer exist', () => {
    const names = new Set(declared.map((route) => route.name));
    expect(Object.keys(ROUTE_COVERAGE).filter((name) => !names.has(name))).toEqual([]);
  });
});

/**
 * Whether a test file names a declared route: a literal path in it matches the route's path (each
 * `{param}` one segment, literal or `${...}`), or it calls the site's path builder for that route.
 */
function namesRoute(text: string, routePath: string): boolean {
  const path = routePath.replace(/^\/api(\/v\d)?/, '');
  const segment = String.raw`(?:\$\{[^}]+\}|[^/'"\x60\s?{}]+)`;
  const pattern = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? segment : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  if (new RegExp(`['"\x60](?:/api(?:/v\\d)?)?${pattern}(?=['"\x60?#])`).test(text)) return true;
  return Object.entries(apiPaths).some(([builder, made]) => made.template === path && text.includes(`apiPaths.${builder}(`));
}
