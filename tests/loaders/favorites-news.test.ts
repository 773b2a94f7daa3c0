/**
 * The page /account/favorites/new's loader on a real database: signed-in only, opening it records the
 * visit (so the sidebar count goes to 0) while it still shows the posts since the visit before, its
 * paging keeps that "since", and a refused request (guest, bad since) records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { countNewPosts, lastNewsVisit, recordNewsVisit } from '@api/data/favorites-news.ts';
import { newsBaseline } from '@api/feeds/favorites.ts';
import { nowIso } from '@api/data/util.ts';
import { readConfig } from '@api/config.ts';
import { loadFavoritesNews } from '@site/loaders/favorites-news.ts';
import { signIn, type TestSession } from '../helpers/session.ts';
import { tempDb, type TempDb } from '../api/data/helpers.ts';

let t: TempDb;
let ann: TestSession;
const deps = () => ({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }) });
const as = (session: TestSession | null) =>
  new Request('http://trove.test/account/favorites/new', { headers: session ? { cookie: session.cookie } : {} });
const load = (session: TestSession | null, query = '', now?: Date) =>
  loadFavoritesNews(deps(), as(session), new URLSearchParams(query), now);
const daysAgo = (days: number) => nowIso(new Date(Date.now() - days * 86_400_000));
const newCount = async (session: TestSession) => countNewPosts(t.db, session.account.id, await newsBaseline(t.db, session.account.id));

beforeAll(async () => {
  t = tempDb();
  ann = await signIn(t.db, { username: 'ann' });
  await upsertCreator(t.db, { service: 'patreon', id: '1', name: 'One' });
  await addFavoriteCreator(t.db, ann.account.id, 'patreon', '1');
  for (let n = 0; n < 52; n += 1) await upsertPost(t.db, { service: 'patreon', user: '1', id: `p${n}`, added: daysAgo(3 - n / 100) });
});
afterAll(() => t.cleanup());

describe('loadFavoritesNews', () => {
  it('refuses guests and records no visit for them or for a bad since', async () => {
    expect(await load(null)).toMatchObject({ kind: 'denied', status: 401 });
    expect(await load(ann, 'since=2026-13-01')).toMatchObject({
      kind: 'bad-request',
      message: 'Invalid since: 2026-13-01 is not a date of the calendar.',
    });
    expect(await load(ann, 'since=31.01.2026')).toMatchObject({
      kind: 'bad-request',
      message: 'Invalid since: expected a date as YYYY-MM-DD.',
    });
    expect(await lastNewsVisit(t.db, ann.account.id)).toBeNull();
  });

  it('shows the posts since the last visit, records this visit, and the count goes to 0', async () => {
    const previous = daysAgo(4);
    await recordNewsVisit(t.db, ann.account.id, previous);
    expect(await newCount(ann)).toBe(52);
    const now = new Date();
    const page = await load(ann, '', now);
    expect(page.kind).toBe('ok');
    if (page.kind !== 'ok') return;
    expect(page.data.since).toBe(previous);
    expect(page.data.sinceLastVisit).toBe(true);
    expect(page.data.posts).toHaveLength(50);
    expect(page.data.pagination.total_count).toBe(52);
    // The next page keeps this page's since, not the visit just recorded.
    expect(page.data.baseUrl).toBe(`/account/favorites/new?since=${encodeURIComponent(page.data.since)}`);
    expect(await lastNewsVisit(t.db, ann.account.id)).toBe(nowIso(now));
    expect(await newCount(ann)).toBe(0);
    // Opening it again right away: nothing new since the visit just made.
    const again = await load(ann);
    expect(again.kind === 'ok' && again.data.posts).toEqual([]);
  });

  it('pages with the since of the first page', async () => {
    const first = await load(ann, 'since=2020-01-01');
    expect(first.kind === 'ok' && first.data.baseUrl).toBe('/account/favorites/new?since=2020-01-01T00%3A00%3A00');
    const second = await load(ann, 'since=2020-01-01T00:00:00&o=50');
    expect(second.kind === 'ok' && second.data.posts.map((p) => p.id)).toEqual(['p1', 'p0']);
    expect(second.kind === 'ok' && second.data.sinceLastVisit).toBe(false);
  });
});
