/**
 * Every declared route, for every role: the permission matrix, and the route-coverage list that ties
 * each route to the test file exercising it (tests/api/route-coverage.ts).
 */
import fs from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { Role } from '../../api/data/accounts.ts';
import { allows, type Access } from '../../api/http/session.ts';
import { versionBase } from '../../api/http/route.ts';
import { ROUTE_GROUPS } from '../../api/routes/index.ts';
import { readConfig } from '../../src/lib/config.ts';
import { signIn } from '../helpers/session.ts';
import { ROUTE_COVERAGE } from './route-coverage.ts';
import { tempDb, type TempDb } from './data/helpers.ts';

const declared = ROUTE_GROUPS.flatMap((group) =>
  group.routes.flatMap((route) =>
    route.versions.map((version) => ({
      name: `${route.method.toUpperCase()} ${versionBase(version)}${route.path}`,
      method: route.method,
      url: versionBase(version) + route.path.replace(/\{[^}]+\}/g, 'x'),
      access: route.access,
    })),
  ),
);

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const cookies = new Map<Role | 'guest', string | undefined>();

beforeAll(() => {
  temp = tempDb();
  const { db } = temp;
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  cookies.set('guest', undefined);
  for (const role of ['consumer', 'moderator', 'administrator'] as const) cookies.set(role, signIn(db, { role }).cookie);
});

afterAll(() => temp.cleanup());

describe('permission matrix', () => {
  const roles = ['guest', 'consumer', 'moderator', 'administrator'] as const;
  const accountOf = (role: (typeof roles)[number]) =>
    role === 'guest' ? null : { id: 0, username: role, role, created_at: '' };

  it.each(declared)('$name ($access)', async ({ method, url, access }) => {
    for (const role of roles) {
      const cookie = cookies.get(role);
      const call = request(app)[method](url);
      if (cookie) call.set('Cookie', cookie);
      const answer = await call;
      const expected = allows(access as Access, accountOf(role));
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

  it('points at test files that exist and name the route path', () => {
    for (const [name, file] of Object.entries(ROUTE_COVERAGE)) {
      expect(fs.existsSync(file), `${name}: ${file}`).toBe(true);
      const routePath = name.split(' ')[1].replace(/^\/api(\/v\d)?/, '').split('{')[0];
      expect(fs.readFileSync(file, 'utf8'), `${file} never mentions ${routePath}`).toContain(routePath);
    }
  });

  it('has no entries for routes that no longer exist', () => {
    const names = new Set(declared.map((route) => route.name));
    expect(Object.keys(ROUTE_COVERAGE).filter((name) => !names.has(name))).toEqual([]);
  });
});
