/**
 * The permission matrix of the pages: every page file of src/pages is listed in page-coverage.ts with
 * its access rule, and each is requested through the real front server as a guest and as each role.
 * Pages answer the API's statuses and messages: 401 'You must be registered to access this page.' for a
 * guest, 403 'Account is not moderator.' / 'Account is not administrator.' for a role too low.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@api/data/accounts.ts';
import { accessDeniedMessage, allows, type Access } from '@api/http/session.ts';
import { createTestSite, type TestSite } from '../helpers/front-server.ts';
import { httpRequest } from '../helpers/http.ts';
import { signIn } from '../helpers/session.ts';
import { PAGE_COVERAGE } from './page-coverage.ts';

function pageFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    return entry.name.endsWith('.astro') ? [full.split(path.sep).join('/')] : [];
  });
}

const roles = ['guest', 'consumer', 'moderator', 'administrator'] as const;
let site: TestSite;
const cookies = new Map<(typeof roles)[number], string | undefined>();

beforeAll(async () => {
  site = await createTestSite('page-permissions');
  cookies.set('guest', undefined);
  for (const role of ['consumer', 'moderator', 'administrator'] as const) cookies.set(role, (await signIn(site.db, { role })).cookie);
  await site.start();
});

afterAll(() => site?.close());

describe('page coverage', () => {
  it('lists every page file with its access rule', () => {
    const missing = pageFiles('src/pages').filter((file) => !(file in PAGE_COVERAGE));
    expect(missing, 'add these to tests/api/page-coverage.ts').toEqual([]);
    const stale = Object.keys(PAGE_COVERAGE).filter((file) => !fs.existsSync(file));
    expect(stale, 'remove these from tests/api/page-coverage.ts').toEqual([]);
  });
});

describe('page permission matrix', () => {
  const accountOf = (role: (typeof roles)[number]) =>
    role === 'guest' ? null : { id: 0, username: role, role: role as Role, created_at: '' };

  it.each(Object.entries(PAGE_COVERAGE).map(([file, page]) => ({ file, ...page })))('$url ($access)', async ({ url, access, status }) => {
    for (const role of roles) {
      const cookie = cookies.get(role);
      const answer = await httpRequest(site.base + url, { headers: cookie ? { cookie } : {} });
      const body = answer.body.toString('utf8');
      if (status) expect(answer.status, url).toBe(status);
      else expect(answer.status, `${role}: ${url} crashed`).not.toBe(500);
      if (allows(access as Access, accountOf(role))) {
        expect([401, 403], `${role} may see ${url}`).not.toContain(answer.status);
      } else {
        expect(answer.status, `${role} must not see ${url}`).toBe(role === 'guest' ? 401 : 403);
        expect(body).toContain(role === 'guest' ? accessDeniedMessage('account') : accessDeniedMessage(access as Access));
      }
    }
  });
});
