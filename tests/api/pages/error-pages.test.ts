/**
 * Every error page is the one generic error view (src/components/ErrorView.astro): the status, a
 * heading, the message, where the error came from (the client's request for 4xx, the server for 5xx),
 * and the page, status, method and URL. Real front server, real SQLite, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';

let site: TestSite;

beforeAll(async () => {
  site = await createTestSite('error-pages');
  await upsertCreator(site.db, { service: 'fanbox', id: '123', name: 'Alpha' });
  await site.start();
});

afterAll(() => site?.close());

/** The text of an element's content, tags dropped and spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

async function errorPage(path: string) {
  const answer = await httpRequest(site.base + path);
  const html = answer.body.toString('utf8');
  const view =
    /<section class="error-view"[\s\S]*?<\/section>\s*(?:<p class="button-row">[\s\S]*?<\/p>\s*)?<\/section>/.exec(html)?.[0] ?? '';
  const details = /<section class="error-details"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  const rows = Object.fromEntries(
    [...details.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]),
  );
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  return {
    status: answer.status,
    html,
    view,
    text: textOf(view),
    origin: textOf(/<p class="error-details__origin">[\s\S]*?<\/p>/.exec(details)?.[0] ?? ''),
    rows,
    title,
  };
}

const CLIENT = "The error came from the client's request";

describe('error pages', () => {
  it.each([
    ['/posts?o=13', 400, 'Bad request', 'Offset 13 is not a multiple of 50.'],
    ['/posts?q=a', 400, 'Bad request', 'Search query must be at least 2 characters long.'],
    ['/dms?o=7', 400, 'Bad request', 'Offset 7 is not a multiple of 50.'],
    ['/artists?sort_by=zzz', 400, 'Bad request', 'Invalid sort field value'],
    ['/artists/updated?o=3', 400, 'Bad request', 'Offset 3 is not a multiple of 50.'],
    ['/posts/popular?period=year', 400, 'Bad request', null],
    ['/shares?o=1', 400, 'Bad request', 'Offset 1 is not a multiple of 50.'],
    ['/fanbox/user/123?o=5', 400, 'Bad request', 'Offset 5 is not a multiple of 50.'],
    ['/patreon/user/123/fancards', 400, 'Bad request', 'Service must be "fanbox".'],
    ['/file/', 400, 'Bad request', 'File hash is required.'],
    ['/file/not-a-hash', 400, 'Bad request', 'Invalid hash!'],
    ['/account', 401, 'Login required', 'You must be registered to access this page.'],
    ['/no/such/page', 404, 'Not found', 'The page you are looking for does not exist.'],
    ['/fanbox/user/999', 404, 'Not found', 'The page you are looking for does not exist.'],
    [`/file/${'0'.repeat(64)}`, 404, 'Not found', 'Archive file not found.'],
    ['/importer/status/doesnotexist', 404, 'Not found', 'Your import could not be found.'],
  ])('%s is a %i with the generic view', async (path, status, heading, message) => {
    const page = await errorPage(path);
    expect(page.status).toBe(status);
    expect(page.view, 'the generic error view').not.toBe('');
    expect(page.view).toContain(`<p class="error-view__status">${status}</p>`);
    expect(page.view).toContain(`<h1 id="error-heading">${heading}</h1>`);
    expect(page.title).toMatch(new RegExp(`^${heading} \\| `));
    if (message) expect(page.text).toContain(message);
    expect(page.view).toMatch(/<p class="error-view__message error" role="alert">[^<]+<\/p>/);
    expect(page.origin.startsWith(CLIENT), page.origin).toBe(true);
    expect(page.rows).toEqual({ Page: path, Status: String(status), Method: 'GET', URL: path });
  });

  it('keeps what helps next: the search box on a bad search, the login link for a guest, the file links', async () => {
    const search = await errorPage('/posts?q=a&tag=x');
    expect(search.view).toMatch(/<form[^>]*action="\/posts"/);
    expect(search.view).toContain('value="a"');
    const guest = await errorPage('/account');
    expect(guest.view).toContain('href="/authentication/login?location=%2Faccount"');
    expect(guest.origin).toContain('this page needs you to be logged in');
    const file = await errorPage(`/file/${'0'.repeat(64)}`);
    expect(file.text).toContain('Find Posts');
    expect(file.view.match(/data-go-back/g)).toHaveLength(1);
  });

  it('a page that fails on the server is a 500 that says the error came from the server', async () => {
    site.db.exec('ALTER TABLE posts RENAME TO posts_hidden');
    try {
      const page = await errorPage('/posts?o=50');
      expect(page.status).toBe(500);
      expect(page.view).toContain('<h1 id="error-heading">Something went wrong on our side</h1>');
      expect(page.origin).toMatch(/^The error came from the server\. If it keeps happening, please report it/);
      expect(page.rows).toMatchObject({ Page: '/posts?o=50', Status: '500', Method: 'GET', URL: '/posts?o=50', Server: 'page renderer' });
      // The database's message is not shown to visitors.
      expect(page.html).not.toContain('no such table');
    } finally {
      site.db.exec('ALTER TABLE posts_hidden RENAME TO posts');
    }
  });
});
