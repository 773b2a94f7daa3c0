/**
 * The SubscribeStar mapper, table-driven over the recorded-shape fixtures (tests/fakes/subscribestar-fixtures.ts:
 * one "load more" answer per content kind, on the real hosts): fixture in, stored post out (written with
 * upsertPost into a real SQLite file and read back), plus the page readers, dates, key cookie and hosts.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { getPost, upsertPost } from '@api/data/posts.ts';
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import { isAllowedHost } from '@api/importer/fetch.ts';
import { KeyRejectedError } from '@api/importer/errors.ts';
import { keyCookie } from '@api/importer/paysites/subscribestar/api.ts';
import { subscribestarEndpoints } from '@api/importer/paysites/subscribestar/endpoints.ts';
import { findAll, innerHtml, parseHtml, textOf } from '@api/importer/paysites/subscribestar/html.ts';
import {
  nextPage,
  parsePosts,
  parseProfile,
  parseSsDate,
  toPostInput,
  uploadName,
  type SsPostData,
} from '@api/importer/paysites/subscribestar/map.ts';
import { subscribestarFixtures as F } from '../../fakes/subscribestar-fixtures.ts';
import { demoDataset, moreLink, profileHeader } from '../../fakes/subscribestar-data.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const COM = 'https://www.subscribestar.com';
const ADULT = 'https://subscribestar.adult';
const archivePath = (seed: string) => {
  const hash = createHash('sha256').update(seed).digest('hex');
  return { hash, path: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.bin` };
};

/** What the importer does after downloading: every upload archived, inline images pointed at the archive. */
async function stored(t: TempDb, slug: string, data: SsPostData) {
  const archived = data.uploads.map((upload) => ({ upload, file: { name: uploadName(upload), ...archivePath(upload.url) } }));
  const body = data.body.replace(
    /<img([^>]*?) src="[^"]*"/g,
    (_, before: string) => `<img${before} src="/data${archivePath('inline').path}"`,
  );
  await upsertCreator(t.db, { service: 'subscribestar', id: slug, name: slug });
  await upsertPost(t.db, toPostInput(slug, data, archived, sanitizePostHtml(body)));
  return (await getPost(t.db, 'subscribestar', slug, data.id))!;
}

interface Row {
  kind: keyof typeof F;
  root?: string;
  /** Nothing stored: no post in the answer, or one above the key's tier. */
  skipped?: 'absent' | 'locked';
  title?: string;
  content?: string | RegExp;
  published?: string | null;
  edited?: string | null;
  file?: string | null;
  attachments?: string[];
  tags?: string[];
  embed?: string | null;
}

const ROWS: Row[] = [
  {
    kind: 'textOnly',
    title: 'Hello patrons',
    content: '<div>Thanks for joining! <strong>Bold</strong> and <em>italic</em>.</div><ul><li>one</li><li>two</li></ul>',
    published: '2024-09-01T20:46:00',
    edited: null,
    file: null,
    attachments: [],
    tags: ['news'],
  },
  {
    kind: 'gallery',
    title: 'Sketch gallery',
    content: '<div>Three sketches and a timelapse.</div>',
    file: 'sketch one.jpg',
    attachments: ['sketch-two.png', 'timelapse.mp4'],
    tags: ['sketch', 'timelapse'],
  },
  { kind: 'video', file: 'sketch one.jpg', attachments: ['sketch-two.png', 'timelapse.mp4'] },
  { kind: 'file', file: null, attachments: ['Ada brushes v3.zip', 'Training for freelancers - Guide.pdf'], tags: [] },
  { kind: 'audio', title: 'Podcast #12', file: null, attachments: ['episode 12.mp3'] },
  {
    kind: 'blog',
    title: 'Process blog',
    content:
      /^<div>Step one:<\/div><figure><img src="\/data\/[0-9a-f/]+\.bin" width="16" height="12" loading="lazy" \/><figcaption>step-one\.jpg<\/figcaption><\/figure><div>Then colours\.<\/div>$/,
    file: null,
    attachments: [],
  },
  {
    kind: 'embed',
    content:
      '<div>Watch on <a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener noreferrer nofollow" target="_blank">YouTube</a>.</div>',
    embed: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  },
  { kind: 'locked', skipped: 'locked' },
  { kind: 'visitor', skipped: 'locked' },
  { kind: 'deleted', skipped: 'absent' },
  {
    kind: 'unicodeTitle',
    title: 'Ünïcødé ✨ 日本語のタイトル',
    content: '<div>Emoji 🎨 and <strong>日本語</strong>.</div>',
    tags: ['日本語', 'ünï'],
    embed: null,
  },
  { kind: 'untitled', title: '', content: '<div>A quick note without a title.</div>' },
  { kind: 'edited', title: 'Fixed typo', published: '2024-09-12T21:46:00', edited: '2024-09-12T21:46:00' },
  { kind: 'adultGallery', root: ADULT, title: '夜桜 gallery', file: '夜桜-1.jpg', attachments: ['clip.mp4'] },
];

describe('subscribestar mapper: fixture in, stored post out', () => {
  let t: TempDb;
  beforeEach(() => {
    t = tempDb();
  });
  afterEach(() => t.cleanup());

  it.each(ROWS)('$kind', async (row) => {
    const posts = parsePosts(F[row.kind].html, row.root ?? COM);
    if (row.skipped === 'absent') return expect(posts).toEqual([]);
    expect(posts).toHaveLength(1);
    const [data] = posts;
    expect(data.slug).toBe(row.root === ADULT ? 'yozakura' : 'adastudio');
    if (row.skipped === 'locked') {
      expect(data.locked).toBe(true);
      expect(data.uploads).toEqual([]);
      return;
    }
    expect(data.locked).toBe(false);
    const post = await stored(t, data.slug!, data);
    if (row.title !== undefined) expect(post.title).toBe(row.title);
    if (typeof row.content === 'string') expect(post.content).toBe(row.content);
    if (row.content instanceof RegExp) expect(post.content).toMatch(row.content);
    if (row.published !== undefined) expect(post.published).toBe(row.published);
    if (row.edited !== undefined) expect(post.edited).toBe(row.edited);
    if (row.file !== undefined) expect((post.file as { name?: string }).name ?? null).toBe(row.file);
    if (row.attachments) expect(post.attachments.map((a) => a.name)).toEqual(row.attachments);
    if (row.tags) expect(post.tags).toEqual(row.tags);
    if (row.embed !== undefined) expect(post.embed?.url ?? null).toBe(row.embed);
    expect(post.content).not.toMatch(/subscribestar\.(com|adult)|cloudfront|\/away\?/);
  });

  it('reads upload URLs as the page gives them: signed CDN URLs, adult /uploads?payload= links, no previews', () => {
    const [gallery] = parsePosts(F.gallery.html, COM);
    expect(gallery.uploads.map((u) => [u.kind, u.id])).toEqual([
      ['image', '203881'],
      ['image', '203882'],
      ['video', '203883'],
    ]);
    expect(gallery.uploads[0].url).toMatch(
      /^https:\/\/d3ts7pb9ldoin4\.cloudfront\.net\/uploads_v2\/users\/11\/posts\/1320002\/.+\.jpg\?filename=sketch%2520one\.jpg&Expires=/,
    );
    const [adult] = parsePosts(F.adultGallery.html, ADULT);
    expect(adult.uploads[0].url).toMatch(/^\/uploads\?payload=/);
    const [visitor] = parsePosts(F.visitor.html, COM);
    expect(visitor.previews).toBe(3);
    expect(uploadName({ id: '1', url: 'https://x.cloudfront.net/a/b.zip?filename=Ada%2520brushes.zip', name: '', kind: 'doc' })).toBe(
      'Ada brushes.zip',
    );
  });
});

describe('subscribestar page readers', () => {
  it('reads dates in English, 12-hour clock, with "Updated on", as UTC; others are unreadable', () => {
    expect(parseSsDate('Sep 30, 2024 08:46 pm')).toEqual({ date: '2024-09-30T20:46:00', updated: false });
    expect(parseSsDate('Updated on September 3, 2024 12:05 AM')).toEqual({ date: '2024-09-03T00:05:00', updated: true });
    expect(parseSsDate('Dec 01, 2023 12:00 pm').date).toBe('2023-12-01T12:00:00');
    expect(parseSsDate('30. září 2024 08:46 odpoledne')).toEqual({ date: null, updated: false });
  });

  it('reads the profile header, the load-more link (entities decoded) and the last page', () => {
    const c = demoDataset().creators[0];
    const view = { root: COM, cdn: 'https://d3ts7pb9ldoin4.cloudfront.net', tier: 5, sign: () => '', payload: () => '' };
    const page = `${profileHeader(view, c)}<div class="posts">${F.textOnly.html}${moreLink('/posts?page_end_order_position=1725223560&star_id=11')}</div>`;
    expect(page).toContain('&amp;star_id=11');
    expect(nextPage(page)).toBe('/posts?page_end_order_position=1725223560&star_id=11');
    expect(parseProfile(page)).toEqual({
      name: 'Ada Studio',
      starId: '11',
      avatar: expect.stringMatching(/\/uploads\/users\/11\/avatar\/.+\.png$/),
      cover: expect.stringMatching(/\/uploads\/users\/11\/cover\/.+\.jpg$/),
    });
    expect(nextPage(F.textOnly.html)).toBeNull();
  });

  it('reads forgiving HTML: unclosed and void elements, comments, raw text, entities', () => {
    const doc = parseHtml(
      '<div class="a"><p>one<br>two<!-- <div class="b"> --><script>if (a < b) {}</script><span title="x &amp; y">ü&#x2728;&nbsp;</div><div class="b">z</div>',
    );
    const [a] = findAll(doc.root, { classes: ['a'] });
    expect(innerHtml(doc, a)).toContain('<p>one<br>two');
    expect(findAll(doc.root, { classes: ['b'] })).toHaveLength(1);
    expect(findAll(doc.root, { tag: 'span' })[0].attrs.title).toBe('x & y');
    expect(textOf(doc, findAll(doc.root, { tag: 'span' })[0])).toBe('ü✨');
  });

  it('sends a bare key as _personalization_id, a copied Cookie header as it is, and refuses what no cookie can be', () => {
    expect(keyCookie(' abc--123 ')).toBe('_personalization_id=abc--123');
    expect(keyCookie('Cookie: _personalization_id=abc; _subscribestar_session=def;')).toBe(
      '_personalization_id=abc; _subscribestar_session=def',
    );
    expect(keyCookie('cookies_accepted=true; _personalization_id=abc')).toBe('cookies_accepted=true; _personalization_id=abc');
    expect(keyCookie('abc==--def')).toBe('_personalization_id=abc==--def');
    expect(() => keyCookie('abc\r\nX-Evil: 1')).toThrow(KeyRejectedError);
    expect(() => keyCookie('ключ')).toThrow(KeyRejectedError);
  });

  it('sends the key to the two sites only, never to an upload host', () => {
    const credential = { baseUrl: subscribestarEndpoints.url.default, hosts: [...subscribestarEndpoints.credentialHosts] };
    const allowed = { baseUrl: subscribestarEndpoints.url.default, hosts: [...subscribestarEndpoints.hosts] };
    for (const host of ['www.subscribestar.com', 'subscribestar.art', 'subscribestar.adult'])
      expect(isAllowedHost(credential, host)).toBe(true);
    for (const host of ['d3ts7pb9ldoin4.cloudfront.net', 'ss-uploads-prod.b-cdn.net']) {
      expect(isAllowedHost(allowed, host), host).toBe(true);
      expect(isAllowedHost(credential, host), host).toBe(false);
    }
    expect(isAllowedHost(allowed, 'evil.example')).toBe(false);
  });
});
