/**
 * The Gumroad mapper, table-driven: the recorded-shape fixtures (tests/fakes/gumroad-fixtures.ts: the
 * props Gumroad's pages embed, on the real hosts) in, the stored post out (planPost says what to
 * download, buildPost makes the post from what was archived; upsertPost stores it in a real SQLite
 * file). Also the page readers (both generations of embedded props) and the cookie and host rules.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getPost, upsertPost } from '@api/data/posts.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { creatorHost, gumroadApi, sessionCookie } from '@api/importer/paysites/gumroad/api.ts';
import { buildPost, planPost, type Archived, type PostPlan } from '@api/importer/paysites/gumroad/map.ts';
import { COMPONENTS, downloadProps, findComponent, libraryProps, productProps } from '@api/importer/paysites/gumroad/pages.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { readConfig } from '@api/config.ts';
import { gumroadFixtures as fx } from '../../fakes/gumroad-fixtures.ts';
import { FAKE_GUMROAD_KEY, startFakeGumroad } from '../../fakes/gumroad.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const ALICE = '4710001234567';
let t: TempDb;
beforeEach(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'gumroad', id: ALICE, name: 'Alice Brushes' });
});
afterEach(() => t.cleanup());

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const stored = (seed: string, ext: string) => `/${sha(seed).slice(0, 2)}/${sha(seed).slice(2, 4)}/${sha(seed)}${ext}`;
/** What the importer would have archived: every planned cover, file and image (stand-in paths). */
function archivedFor(plan: PostPlan): Archived {
  return {
    covers: plan.covers.map((c) => ({ name: /\.\w+$/.test(c.name) ? c.name : `${c.name}.png`, path: stored(c.url, '.png') })),
    files: new Map(
      plan.files
        .filter((f) => f.action !== 'skip')
        .map((f) => [f.id, { name: f.name, path: stored(f.id, f.name.slice(f.name.lastIndexOf('.'))) }]),
    ),
    images: new Map(plan.images.map((url) => [url, `/data${stored(url, '.png')}`])),
  };
}
const page = (d: { token: string }) => `https://gumroad.com/d/${d.token}`;
const download = (value: unknown) => downloadProps.parse(value);
const product = (value: unknown) => productProps.parse(value).product;

/** Maps and stores one purchase; answers the stored post and the plan. */
async function store(d: unknown, p?: unknown) {
  const props = download(d);
  const info = p ? product(p) : undefined;
  const plan = planPost(props, page(props as { token: string }), info, null);
  await upsertPost(t.db, buildPost(ALICE, plan, props, info, archivedFor(plan)));
  return { post: (await getPost(t.db, 'gumroad', ALICE, props.purchase.product_permalink))!, plan };
}

const brushToken = fx.file.token;
const rows: {
  kind: string;
  download: unknown;
  product?: unknown;
  title: string;
  file?: string;
  attachments: string[];
  content?: (string | RegExp)[];
  embed?: string | null;
  skipped?: string[];
}[] = [
  {
    kind: 'text only',
    download: fx.textOnly,
    title: 'Thank-you note',
    attachments: [],
    content: ['<p>Thank you for the support — it means a lot.</p>'],
    embed: null,
  },
  {
    kind: 'gallery (product covers, main first)',
    download: fx.file,
    product: fx.gallery,
    title: 'Brush pack',
    file: 'cover-1.jpg',
    attachments: ['cover-2.png', 'Brushes v2.zip', 'Guide.pdf'],
    content: ['<p>24 brushes for <strong>Procreate</strong>.</p>', '<hr />'],
  },
  {
    kind: 'files with real names, one in a folder',
    download: fx.file,
    title: 'Brush pack',
    attachments: ['Brushes v2.zip', 'Guide.pdf'],
    content: [new RegExp(`<a href="/data${stored('pf_brush_zip', '.zip')}\\?f=Brushes%20v2\\.zip"[^>]*>Brushes v2\\.zip</a>`)],
  },
  {
    kind: 'rich text with an inline image',
    download: fx.file,
    title: 'Brush pack',
    attachments: ['Brushes v2.zip', 'Guide.pdf'],
    content: [
      '<h2>Welcome!</h2>',
      '<strong>Read me</strong>',
      /<a href="https:\/\/example\.com\/alice"[^>]*>my site<\/a>/,
      /<p><img src="\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png" loading="lazy" \/><\/p><p><em>The brushes in use<\/em><\/p>/,
    ],
  },
  {
    kind: 'embed (mediaEmbed)',
    download: fx.file,
    title: 'Brush pack',
    attachments: ['Brushes v2.zip', 'Guide.pdf'],
    content: [/<a href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ"[^>]*>Process video<\/a>/],
    embed: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  },
  {
    kind: 'video (a download, and a stream-only one from HLS) and audio',
    download: fx.video,
    title: 'Timelapse course',
    attachments: ['Lesson 1 - Sketching.mp4', 'Lesson 1 commentary.mp3', 'Lesson 2 - Inking.mp4'],
  },
  { kind: 'unicode title', download: fx.unicodeTitle, title: 'Ünïcode 日本語パック ✨', attachments: ['日本語 ファイル.png'] },
  {
    kind: "stamped with the buyer's e-mail",
    download: fx.stamped,
    title: 'Watermarked ebook',
    attachments: [],
    skipped: ["Ebook.pdf: stamped with the buyer's e-mail, not archived"],
  },
  { kind: 'a file deleted by the creator', download: fx.deletedFile, title: 'Pruned pack', attachments: ['Kept.zip'] },
];

describe('the Gumroad mapper', () => {
  it.each(rows)('$kind', async (row) => {
    const { post, plan } = await store(row.download, row.product);
    expect(post.title).toBe(row.title);
    expect(post.published).toBeNull();
    expect(post.file).toEqual(row.file ? expect.objectContaining({ name: row.file }) : {});
    expect(post.attachments.map((a) => a.name)).toEqual(row.attachments);
    for (const piece of row.content ?? []) expect(post.content).toMatch(piece);
    if (row.embed !== undefined) expect(post.embed?.url ?? null).toBe(row.embed);
    expect(plan.files.filter((f) => f.action === 'skip').map((f) => `${f.name}: ${'reason' in f ? f.reason : ''}`)).toEqual(
      row.skipped ?? [],
    );
    expect(post.content).not.toMatch(/gumroad\.com|license|buyer@example\.com/);
  });

  it('plans downloads through /r/ on the page host, HLS for a stream-only video, and covers main first', () => {
    const video = download(fx.video);
    const plan = planPost(video, page(video as { token: string }), undefined, null);
    expect(plan.files.map((f) => [f.action, 'url' in f ? f.url : ''])).toEqual([
      ['download', `https://gumroad.com/r/${video.token}/product_files?product_file_ids%5B%5D=pf_video`],
      ['download', `https://gumroad.com/r/${video.token}/product_files?product_file_ids%5B%5D=pf_audio`],
      ['hls', `https://gumroad.com/r/${video.token}/pf_stream/index.m3u8`],
    ]);
    const gallery = product(fx.gallery);
    const withCovers = planPost(download(fx.file), page({ token: brushToken! }), { ...gallery, main_cover_id: 'cov2' }, null);
    expect(withCovers.covers.map((c) => c.name)).toEqual(['cover-1.png', 'cover-2.jpg']);
    expect(withCovers.embed?.url).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    const bare = planPost(download(fx.textOnly), page(fx.textOnly), undefined, 'https://public-files.gumroad.com/abc');
    expect(bare.covers).toEqual([{ url: 'https://public-files.gumroad.com/abc', name: 'thumbnail' }]);
  });

  it('reads both generations of embedded props, and the library cards without e-mail', () => {
    const props = { results: [fx.libraryCardReactOnRails], creators: [{ id: ALICE, name: 'Alice Brushes', count: 1 }] };
    const json = JSON.stringify(props).replace(/</g, '\\u003c');
    const react = `<script type="application/json" data-component-name="LibraryPage" class="js-react-on-rails-component" data-dom-id="x">${json}</script>`;
    const inertia = `<div id="app" data-page="${JSON.stringify({ component: 'Library/Index', props, version: '1' }).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></div>`;
    const legacy = `<div data-react-class="LibraryPage" data-react-props='${JSON.stringify(props).replace(/'/g, '&#39;')}'></div>`;
    for (const html of [react, inertia, legacy]) {
      const library = libraryProps.parse(findComponent(html, COMPONENTS.library)!.props);
      expect(library.results[0].product).toMatchObject({ name: 'Brush pack', creator_id: ALICE, permalink: 'brushpk' });
      expect(JSON.stringify(library)).not.toContain('buyer@example.com');
    }
    expect(libraryProps.parse({ results: [fx.libraryCard] }).results[0].product.permalink).toBeUndefined();
    expect(findComponent('<html><body>You are being redirected.</body></html>', COMPONENTS.library)).toBeUndefined();
  });

  it('sends the cookie URL-encoded once, and gives it only to Gumroad and the creator’s own subdomain', () => {
    expect(sessionCookie(FAKE_GUMROAD_KEY)).toBe(`_gumroad_app_session=${encodeURIComponent(FAKE_GUMROAD_KEY)}`);
    expect(sessionCookie(encodeURIComponent(FAKE_GUMROAD_KEY))).toBe(sessionCookie(FAKE_GUMROAD_KEY));
    expect(creatorHost('https://alice.gumroad.com?recommended_by=library')).toBe('alice.gumroad.com');
    for (const url of [
      'https://files.gumroad.com/x',
      'https://public-files.gumroad.com/x',
      'https://evil.com',
      'https://a.b.gumroad.com',
      null,
    ])
      expect(creatorHost(url)).toBeUndefined();
  });

  it('skips locked (dead membership, revoked) and deleted (refunded) purchases at their download page', async () => {
    const fake = await startFakeGumroad();
    try {
      const config = readConfig({
        DATA_DIR: t.dir,
        TROVE_ENV: 'test',
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
        IMPORTER_GUMROAD_URL: fake.url,
      });
      const ctx = { config, key: fake.key, signal: new AbortController().signal } as ImportContext;
      const api = gumroadApi(ctx);
      const token = (permalink: string) => fake.dataset.purchases.find((p) => p.permalink === permalink)!.token;
      expect(fx.locked.status).toBe(302);
      expect(await api.downloadPage(`${fake.url}/d/${token('monthly')}`)).toEqual({ kind: 'skip', reason: 'the membership is inactive' });
      expect(await api.downloadPage(`${fake.url}/d/${token('pack12')}`)).toEqual({ kind: 'skip', reason: 'access to it was revoked' });
      expect(fx.deleted.status).toBe(404);
      expect(await api.downloadPage(`${fake.url}/d/${token('refund')}`)).toEqual({
        kind: 'skip',
        reason: 'Gumroad answered 404 (refunded or removed)',
      });
      expect((await api.downloadPage(`${fake.url}/d/${token('thanks')}`)).kind).toBe('ok');
    } finally {
      await fake.close();
    }
  });
});
