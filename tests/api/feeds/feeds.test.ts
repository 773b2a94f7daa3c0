/**
 * The archive's feeds through the real front server and SSR build, from a real SQLite archive: each
 * feed in both formats parsed with a feed reader's parser and checked against the database, hostile
 * titles, 404 and 410, the page store (type, 304) and the rebuild (new posts, lost tags, same bytes).
 */
import fs from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '@rowanmanning/feed-parser';
import { upsertCreator } from '@api/data/creators.ts';
import { deletePost, listCreatorPosts, listRecentPosts, upsertPost } from '@api/data/posts.ts';
import { upsertDm } from '@api/data/dms.ts';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import { addPopularity } from '@api/data/popular.ts';
import { searchPosts } from '@api/data/post-search.ts';
import { rebuildPages } from '@api/pages/rebuild.ts';
import { inProcessRenderer } from '@api/pages/render-into-store.ts';
import { FEED_CONTENT_TYPES } from '@api/feeds/render.ts';
import { creatorPostsFeed } from '@api/feeds/archive.ts';
import { readConfig } from '@api/config.ts';
import { todayUtc } from '@shared/popular.ts';
import {
  creatorDmsFeedUrl,
  creatorFeedUrl,
  popularFeedUrl,
  postUrl,
  recentPostsFeedUrl,
  tagFeedUrl,
  type FeedFormat,
} from '@shared/urls.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';

const HOSTILE = '<script>alert(1)</script> ]]> & "co"';
const IMAGE = `/ab/cd/${'abcd'.padEnd(64, '0')}.png`;
const FORMATS: FeedFormat[] = ['rss', 'atom'];

let site: TestSite;
const renderer = () => inProcessRenderer(site.renderer, site.store);

async function seed(): Promise<void> {
  const db = site.db;
  await upsertCreator(db, { service: 'patreon', id: '100', name: 'Alice' });
  await upsertCreator(db, { service: 'fanbox', id: '200', name: 'Bob' });
  await upsertCreator(db, { service: 'patreon', id: '666', name: 'Removed' });
  await addDoNotPost(db, { service: 'patreon', creator_id: '666', reason: 'Owner request' });
  await upsertPost(db, {
    service: 'patreon',
    user: '100',
    id: 'p1',
    title: 'First',
    content: '<p>Hello <b>world</b> &amp; all</p>',
    published: '2024-01-01T10:00:00',
    tags: ['cats'],
  });
  await upsertPost(db, {
    service: 'patreon',
    user: '100',
    id: 'p2',
    title: HOSTILE,
    content: '<p>Second</p>',
    published: '2024-02-01T10:00:00',
    file: { name: 'a.png', path: IMAGE },
  });
  // Untitled: the card title is the content's text.
  await upsertPost(db, {
    service: 'patreon',
    user: '100',
    id: 'p3',
    title: '',
    content: '<p>Only <i>content</i> here</p>',
    published: '2024-03-01T10:00:00',
    tags: ['cats', 'dogs'],
  });
  await upsertPost(db, {
    service: 'fanbox',
    user: '200',
    id: 'f1',
    title: 'Fanbox post',
    content: 'x',
    published: '2023-05-05T00:00:00',
    tags: ['dogs'],
  });
  await upsertDm(db, {
    service: 'patreon',
    user: '100',
    hash: 'dm1',
    content: '<p>Thanks for the support!</p>',
    published: '2024-01-05T00:00:00',
    status: 'approved',
  });
  await upsertDm(db, {
    service: 'patreon',
    user: '100',
    hash: 'dm2',
    content: 'Not reviewed yet',
    published: '2024-01-06T00:00:00',
    status: 'pending',
  });
  await addPopularity(db, [
    { day: todayUtc(), service: 'patreon', user: '100', post_id: 'p1', favorites: 1 },
    { day: todayUtc(), service: 'fanbox', user: '200', post_id: 'f1', favorites: 5 },
  ]);
}

beforeAll(async () => {
  site = await createTestSite('feeds');
  await seed();
  await site.start();
  const full = await rebuildPages(site.db, site.store, renderer(), { all: true });
  expect(full.failed).toEqual([]);
}, 60_000);

afterAll(async () => {
  await site?.close();
});

async function fetchFeed(url: string, format: FeedFormat) {
  const res = await request(site.base).get(url);
  expect(res.status, url).toBe(200);
  expect(res.headers['content-type']).toBe(FEED_CONTENT_TYPES[format]);
  const xml = res.text;
  return { xml, feed: parseFeed(xml), res };
}

const absolute = (path: string) => `${site.config.publicUrl}${path}`;

describe.each(FORMATS)('%s feeds', (format) => {
  it("a creator's posts: newest first, card titles, absolute links, dates, text summaries, thumbnails", async () => {
    const { feed, xml } = await fetchFeed(creatorFeedUrl('patreon', '100', format), format);
    const posts = await listCreatorPosts(site.db, 'patreon', '100', 0, 50);
    expect(feed.title).toContain('Alice');
    expect(feed.items.map((item) => item.url)).toEqual(posts.map((post) => absolute(postUrl('patreon', '100', post.id))));
    expect(feed.items.map((item) => item.published?.toISOString())).toEqual(
      posts.map((post) => new Date(`${post.published}Z`).toISOString()),
    );
    const [untitled, hostile, first] = feed.items;
    expect(untitled.title).toBe('Only content here');
    // The hostile title is text: the parser reads it back whole and no tag reaches the document.
    expect(hostile.title).toBe(HOSTILE);
    expect(xml).not.toContain('<script>');
    expect(first.description).toBe('Hello world & all');
    expect(hostile.media.map((media) => media.url)).toEqual([absolute(`/thumbnail/data${IMAGE}`)]);
    expect(first.media).toEqual([]);
  });

  it("a creator's DMs: only the approved ones, linking to the DMs tab", async () => {
    const { feed } = await fetchFeed(creatorDmsFeedUrl('patreon', '100', format), format);
    expect(feed.items.map((item) => item.description)).toEqual(['Thanks for the support!']);
    expect(feed.items[0].url).toBe(absolute('/patreon/user/100/dms'));
    // A paysite whose importer brings no DMs has no DMs feed.
    expect((await request(site.base).get(creatorDmsFeedUrl('fanbox', '200', format))).status).toBe(404);
  });

  it('a tag: the posts that carry it, in the tag listing order', async () => {
    const { feed } = await fetchFeed(tagFeedUrl('cats', format), format);
    const posts = (await searchPosts(site.db, { tag: 'cats', limit: 50 })).posts;
    expect(posts).toHaveLength(2);
    expect(feed.items.map((item) => item.url)).toEqual(posts.map((post) => absolute(postUrl(post.service, post.user, post.id))));
    expect((await request(site.base).get(tagFeedUrl('no-such-tag', format))).status).toBe(404);
  });

  it('the recent posts: every post, most recently added first', async () => {
    const { feed } = await fetchFeed(recentPostsFeedUrl(format), format);
    const posts = await listRecentPosts(site.db, 0, 50);
    expect(feed.items.map((item) => item.url)).toEqual(posts.map((post) => absolute(postUrl(post.service, post.user, post.id))));
  });

  it('the popular posts of a period: most favourited first', async () => {
    const { feed } = await fetchFeed(popularFeedUrl('day', format), format);
    expect(feed.items.map((item) => item.title)).toEqual(['Fanbox post', 'First']);
    expect((await request(site.base).get(`${popularFeedUrl('recent', format)}?period=year`)).status).toBe(400);
  });

  it('answers 404 for an unknown creator and 410 for a removed one', async () => {
    expect((await request(site.base).get(creatorFeedUrl('patreon', 'nobody', format))).status).toBe(404);
    const removed = await request(site.base).get(creatorFeedUrl('patreon', '666', format));
    expect(removed.status).toBe(410);
    expect(removed.headers['cache-control']).toBe('no-store');
    expect((await request(site.base).get(creatorDmsFeedUrl('patreon', '666', format))).status).toBe(410);
  });
});

describe('autodiscovery', () => {
  it.each([
    ['/patreon/user/100', creatorFeedUrl('patreon', '100', 'rss'), creatorFeedUrl('patreon', '100', 'atom')],
    ['/patreon/user/100/dms', creatorDmsFeedUrl('patreon', '100', 'rss'), creatorDmsFeedUrl('patreon', '100', 'atom')],
    ['/posts?tag=cats', tagFeedUrl('cats', 'rss'), tagFeedUrl('cats', 'atom')],
    ['/posts', recentPostsFeedUrl('rss'), recentPostsFeedUrl('atom')],
    ['/posts/popular?period=week', popularFeedUrl('week', 'rss'), popularFeedUrl('week', 'atom')],
  ])('%s names its RSS and Atom feeds in <head> and links to them', async (page, rss, atom) => {
    const html = (await request(site.base).get(page)).text;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="alternate" type="application/rss+xml"`);
    expect(head).toContain(`href="${rss.replace(/&/g, '&amp;')}"`);
    expect(head).toContain(`href="${atom.replace(/&/g, '&amp;')}"`);
    expect(html.slice(html.indexOf('</head>'))).toContain(`class="feed-links__link" href="${rss.replace(/&/g, '&amp;')}"`);
  });

  it('offers no feed for a search or for DMs a paysite cannot have', async () => {
    for (const page of ['/posts?q=hello', '/posts?tag=cats&tag=dogs', '/fanbox/user/200/dms']) {
      expect((await request(site.base).get(page)).text, page).not.toContain('rel="alternate"');
    }
  });
});

describe('feeds in the page store', () => {
  it('stores a feed under its own extension and serves it with ETag and 304', async () => {
    const key = creatorFeedUrl('patreon', '100', 'atom');
    const file = site.store.fileFor(key);
    expect(file.endsWith('/patreon/user/100/feed.atom')).toBe(true);
    expect(fs.existsSync(`${file}.br`)).toBe(true);
    const first = await request(site.base).get(key);
    expect(first.headers['content-type']).toBe(FEED_CONTENT_TYPES.atom);
    expect(first.headers.etag).toBeTruthy();
    expect(first.text).toBe(fs.readFileSync(file, 'utf8'));
    const again = await request(site.base).get(key).set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    // HTML pages keep their files, even a creator whose id looks like a feed.
    expect(site.store.fileFor('/patreon/user/100').endsWith('/patreon/user/100/index.html')).toBe(true);
    expect(site.store.fileFor('/patreon/user/feed.rss').endsWith('/patreon/user/feed%2Erss/index.html')).toBe(true);
  });

  it('keeps the popular feeds by period', () => {
    expect(site.store.fileFor(popularFeedUrl('week', 'rss')).endsWith('/posts/popular/feed.periodweek.rss')).toBe(true);
    expect(fs.existsSync(site.store.fileFor(popularFeedUrl('day', 'rss')))).toBe(true);
  });

  it('a new post reaches the stored creator and tag feeds with the rebuild', async () => {
    await upsertPost(site.db, {
      service: 'patreon',
      user: '100',
      id: 'p4',
      title: 'Brand new',
      content: 'New!',
      published: '2024-04-01T00:00:00',
      tags: ['cats'],
    });
    const summary = await rebuildPages(site.db, site.store, renderer());
    expect(summary.failed).toEqual([]);
    for (const key of [creatorFeedUrl('patreon', '100', 'rss'), tagFeedUrl('cats', 'atom'), recentPostsFeedUrl('rss')]) {
      const stored = parseFeed(fs.readFileSync(site.store.fileFor(key), 'utf8'));
      expect(stored.items[0].title, key).toBe('Brand new');
    }
  });

  it('a post that loses a tag leaves that tag feed with the rebuild', async () => {
    await upsertPost(site.db, {
      service: 'patreon',
      user: '100',
      id: 'p4',
      title: 'Brand new',
      content: 'New!',
      published: '2024-04-01T00:00:00',
      tags: ['dogs'],
    });
    expect((await rebuildPages(site.db, site.store, renderer())).failed).toEqual([]);
    const cats = parseFeed(fs.readFileSync(site.store.fileFor(tagFeedUrl('cats', 'rss')), 'utf8'));
    expect(cats.items.map((item) => item.title)).not.toContain('Brand new');
    const dogs = parseFeed(fs.readFileSync(site.store.fileFor(tagFeedUrl('dogs', 'rss')), 'utf8'));
    expect(dogs.items[0].title).toBe('Brand new');
  });

  it('a deleted post leaves the feeds of its tags with the rebuild', async () => {
    expect(await deletePost(site.db, 'patreon', '100', 'p1')).toBe(true);
    expect((await rebuildPages(site.db, site.store, renderer())).failed).toEqual([]);
    const cats = parseFeed(fs.readFileSync(site.store.fileFor(tagFeedUrl('cats', 'atom')), 'utf8'));
    expect(cats.items.map((item) => item.title)).toEqual(['Only content here']);
  });

  it('re-renders unchanged data to the same bytes', async () => {
    const keys = [creatorFeedUrl('patreon', '100', 'rss'), creatorDmsFeedUrl('patreon', '100', 'atom'), tagFeedUrl('dogs', 'atom')];
    const before = keys.map((key) => fs.readFileSync(site.store.fileFor(key)));
    const summary = await rebuildPages(site.db, site.store, renderer(), { all: true });
    expect(summary.failed).toEqual([]);
    expect(keys.map((key) => fs.readFileSync(site.store.fileFor(key)))).toEqual(before);
  });
});

describe('PUBLIC_URL', () => {
  it('is the origin of every link of a feed, and falls back to this server on localhost', async () => {
    expect(readConfig({}).publicUrl).toBe('http://localhost:4321');
    expect(readConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(readConfig({ PUBLIC_URL: 'https://archive.example.org/' }).publicUrl).toBe('https://archive.example.org');
    expect(readConfig({ PUBLIC_URL: 'javascript:alert(1)' }).publicUrl).toBe('http://localhost:4321');
    expect(readConfig({ PUBLIC_URL: 'not a url' }).publicUrl).toBe('http://localhost:4321');
    const settings = {
      ...readConfig({ PUBLIC_URL: 'https://archive.example.org', IMAGE_HOST: 'https://img.example.org' }),
      siteName: 'Trove',
    };
    const feed = parseFeed(await creatorPostsFeed(site.db, settings, { service: 'patreon', id: '100', name: 'Alice' }, 'rss'));
    expect(feed.url).toBe('https://archive.example.org/patreon/user/100');
    for (const item of feed.items) expect(item.url?.startsWith('https://archive.example.org/patreon/user/100/post/')).toBe(true);
    const thumbnails = feed.items.flatMap((item) => item.media.map((media) => media.url));
    expect(thumbnails).toEqual([`https://img.example.org/thumbnail/data${IMAGE}`]);
  });
});
