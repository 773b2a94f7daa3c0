/**
 * Gumroad: the fake app.gumroad.com, seller hosts and file hosts (tests/fakes/gumroad.ts) answer and
 * refuse as the real ones do (real HTTP with fetch). The importer's own tests will join this file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArchiveLister } from '../../../api/media/archives.ts';
import { gumroadFixtures } from '../../fakes/gumroad-fixtures.ts';
import { FAKE_GUMROAD_KEY, INERTIA_VERSION, startFakeGumroad, type FakeGumroad } from '../../fakes/gumroad.ts';

let fake: FakeGumroad;
beforeEach(async () => {
  fake = await startFakeGumroad();
});
afterEach(() => fake.close());

/** Parsed JSON answers, read loosely as an importer would. */
type Json = Record<string, any>;
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url.startsWith('http') ? url : `${fake.url}${url}`, { headers, redirect: 'manual' });
const auth = () => ({ cookie: fake.cookie });
const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const pageOf = (html: string) =>
  JSON.parse(unescapeHtml(/<div id="app" data-page="([^"]*)">/.exec(html)![1])) as { component: string; props: Json; version: string };
const props = async (url: string, headers = auth()) => {
  const res = await get(url, headers);
  expect(res.status, url).toBe(200);
  return pageOf(await res.text()).props;
};
async function bytes(url: string) {
  const res = await get(url);
  expect(res.status, url).toBe(200);
  return { type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}
async function listZip(body: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gumroad-zip-'));
  fs.writeFileSync(path.join(dir, 'a.zip'), body);
  const listing = await createArchiveLister().list(path.join(dir, 'a.zip'), 'zip');
  fs.rmSync(dir, { recursive: true });
  return listing;
}
const tokenOf = (permalink: string) => fake.dataset.purchases.find((p) => p.permalink === permalink)!.token;
/** /r/... as the importer follows it: the 302 to the signed file URL, then the file. */
async function fetchFile(downloadUrl: string, headers = auth()) {
  const hop = await get(downloadUrl, headers);
  expect(hop.status).toBe(302);
  return bytes(hop.headers.get('location')!);
}

describe('the fake Gumroad', () => {
  it('takes the URL-encoded _gumroad_app_session and sends anyone else to the login page', async () => {
    const page = pageOf(await (await get('/library', auth())).text());
    expect(page).toMatchObject({ component: 'Library/Index', version: INERTIA_VERSION });
    for (const cookie of [`_gumroad_app_session=${FAKE_GUMROAD_KEY}`, '_gumroad_app_session=wrong', '']) {
      const res = await get('/library', cookie ? { cookie } : {});
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${fake.url}/login?next=%2Flibrary`);
      expect(await res.text()).toContain('You are being <a href=');
    }
    const json = await get('/library', { ...auth(), accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ success: false, error: 'Not found' });
  });

  it('pages the library 15 at a time in the 2026 shape, with its filters', async () => {
    const first = await props('/library');
    expect(first.results).toHaveLength(15);
    expect(first.pagination).toEqual({ page: 1, pages: 2, from: 1, to: 15, count: 19 });
    expect(Object.keys(first.results[0].product).sort()).toEqual(['creator', 'name', 'native_type', 'thumbnail_url']);
    expect(Object.keys(first.results[0].purchase).sort()).toEqual(['download_url', 'id', 'is_archived', 'variants']);
    const second = await props('/library?page=2');
    expect(second.pagination).toEqual({ page: 2, pages: 2, from: 16, to: 19, count: 19 });
    const ids = [...first.results, ...second.results].map((r: Json) => r.purchase.id);
    expect(new Set(ids).size).toBe(19);
    expect(ids).not.toContain('pur_monthly');
    expect(ids).not.toContain('pur_refund');
    expect(ids).not.toContain('pur_oldie');
    expect((await props('/library?page=99')).pagination.page).toBe(2);
    expect((await props('/library?page=garbage')).pagination.page).toBe(1);
    expect(first.creators).toEqual([
      { id: '4710001234567', name: 'Alice Brushes', count: 6 },
      { id: '4710009876543', name: 'Bob Sounds', count: 13 },
    ]);
    const alice = await props('/library?creators=4710001234567');
    expect(alice.results.map((r: Json) => r.product.name)).toEqual([
      'Pruned pack',
      'Watermarked ebook',
      'Ünïcode 日本語パック ✨',
      'Thank-you note',
      'Timelapse course',
      'Brush pack',
    ]);
    expect(alice.results[0].product.creator).toEqual({
      name: 'Alice Brushes',
      profile_url: `${fake.creatorUrl('alicebrushes')}?recommended_by=library`,
      avatar_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{28}$/),
    });
    expect((await props('/library?show_archived_only=true')).results.map((r: Json) => r.purchase.id)).toEqual(['pur_oldie']);
    expect((await props('/library?sort=purchase_date')).results[0].purchase.id).toBe('pur_pack12');
    expect((await props('/library?query=SYNTH')).results.map((r: Json) => r.product.name)).toEqual(['Synth presets']);
  });

  it('answers the Inertia protocol, and the 2025 react_on_rails generation', async () => {
    const inertia = await get('/library?page=2', {
      ...auth(),
      'x-inertia': 'true',
      'x-inertia-version': INERTIA_VERSION,
      accept: 'text/html, application/xhtml+xml',
    });
    expect(inertia.headers.get('x-inertia')).toBe('true');
    expect(((await inertia.json()) as Json).props.pagination.page).toBe(2);
    const stale = await get('/library', { ...auth(), 'x-inertia': 'true', 'x-inertia-version': 'old' });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('x-inertia-location')).toBe(`${fake.url}/library`);

    const old = await startFakeGumroad({ generation: 'react_on_rails' });
    try {
      const html = await (await fetch(`${old.url}/library`, { headers: { cookie: old.cookie } })).text();
      const script =
        /<script type="application\/json" class="js-react-on-rails-component" data-component-name="LibraryPage" data-dom-id="([^"]+)">([\s\S]*?)<\/script><div id="\1"><\/div>/.exec(
          html,
        )!;
      const library = JSON.parse(script[2]);
      expect(library.results).toHaveLength(19);
      expect(library.results[0].product).toMatchObject({
        creator_id: expect.any(String),
        permalink: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(library.results[0].purchase.email).toBe('buyer@example.com');
      const download = await (
        await fetch(library.results.find((r: Json) => r.product.permalink === 'brushpk').purchase.download_url, {
          headers: { cookie: old.cookie },
        })
      ).text();
      expect(download).toContain('data-component-name="DownloadPageWithContent"');
    } finally {
      await old.close();
    }
  });

  it('serves each content kind on the download and product pages, with real bytes behind signed URLs', async () => {
    const library = await props('/library?creators=4710001234567');
    const brush = await props(library.results.find((r: Json) => r.product.name === 'Brush pack').purchase.download_url);
    expect(brush.purchase).toMatchObject({ product_permalink: 'brushpk', product_name: 'Brush pack', email: 'buyer@example.com' });
    const [zip, folder] = brush.content.content_items;
    expect([zip.file_name, zip.extension, folder.type, folder.name, folder.children[0].file_name]).toEqual([
      'Brushes v2',
      'ZIP',
      'folder',
      'Extras',
      'Guide',
    ]);
    const zipFile = await fetchFile(zip.download_url);
    expect(zipFile.body.length).toBe(zip.file_size);
    expect(zipFile.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''Brushes%20v2.zip");
    const listing = await listZip(zipFile.body);
    expect(listing.kind === 'listed' && listing.entries.map((e) => e.name).sort()).toEqual(['images/preview.png', 'readme.txt']);
    expect((await fetchFile(folder.children[0].download_url)).body.subarray(0, 5).toString()).toBe('%PDF-');
    const json = (await (await get(`${zip.download_url.replace('/product_files?', '/product_files.json?')}`, auth())).json()) as Json;
    expect(json.files[0]).toMatchObject({ filename: 'Brushes v2.zip', url: expect.stringContaining('verify=') });
    const all = await get(`/zip/${brush.token}`, auth());
    expect((await listZip((await bytes(all.headers.get('location')!)).body)).kind).toBe('listed');
    expect((await get(`/zip/${tokenOf('thanks')}`, auth())).status).toBe(404);

    const doc = brush.content.rich_content_pages[0].description.content;
    expect(doc.map((n: Json) => n.type)).toEqual(['heading', 'paragraph', 'image', 'fileEmbed', 'mediaEmbed']);
    expect(doc[1].content[3].marks[0]).toEqual({ type: 'link', attrs: { href: 'https://example.com/alice', target: '_blank' } });
    expect((await sharp((await bytes(doc[2].attrs.src)).body).metadata()).format).toBe('png');
    expect(doc[3].attrs.id).toBe(zip.id);
    expect(doc[4].attrs.url).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

    const course = await props(`/d/${tokenOf('tlcourse')}`);
    const [video, audio] = course.content.content_items;
    const mp4 = await fetchFile(video.download_url);
    expect([mp4.type, mp4.body.subarray(4, 8).toString()]).toEqual(['video/mp4', 'ftyp']);
    const playlist = await (await get(`/r/${course.token}/${video.id}/index.m3u8`, auth())).text();
    expect(playlist.startsWith('#EXTM3U\n')).toBe(true);
    const segment = playlist.split('\n').find((l) => l.startsWith('http'))!;
    expect(segment).toMatch(/Expires=\d+&Signature=.+&Key-Pair-Id=/);
    const ts = await bytes(segment);
    expect([ts.type, ts.body[0], playlist.match(/^http/gm)?.length]).toEqual(['video/mp2t', 0x47, 3]);
    const streamOnly = course.content.content_items[2];
    expect([streamOnly.file_name, streamOnly.download_url, streamOnly.stream_url]).toEqual([
      'Lesson 2 - Inking',
      null,
      `/s/${course.token}/pf_stream`,
    ]);
    expect((await get(`/r/${course.token}/product_files?product_file_ids%5B%5D=pf_stream`, auth())).status).toBe(404);
    expect(video.stream_url).toBe(`/s/${course.token}/${video.id}`);
    expect((await fetchFile(audio.download_url)).body.subarray(0, 3).toString()).toBe('ID3');

    expect((await props(`/d/${tokenOf('thanks')}`)).content).toMatchObject({ content_items: [], rich_content_pages: [{ title: 'Note' }] });
    const unicode = await props(`/d/${tokenOf('unicode')}`);
    expect([unicode.purchase.product_name, unicode.content.content_items[0].file_name]).toEqual([
      'Ünïcode 日本語パック ✨',
      '日本語 ファイル',
    ]);
    expect((await props(`/d/${tokenOf('pruned')}`)).content.content_items.map((i: Json) => i.file_name)).toEqual(['Kept']);

    const moved = await get('/l/brushpk');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, `${fake.creatorUrl('alicebrushes')}/l/brushpk`]);
    const productPage = await props(moved.headers.get('location')!);
    expect(productPage.product).toMatchObject({ name: 'Brush pack', main_cover_id: 'cov1', seller: { name: 'Alice Brushes' } });
    expect(productPage.purchase.content_url).toContain(`/d/${tokenOf('brushpk')}`);
    const covers = productPage.product.covers;
    expect(covers.map((c: Json) => c.type)).toEqual(['image', 'image', 'oembed']);
    expect((await sharp((await bytes(covers[0].original_url)).body).metadata()).format).toBe('jpeg');
    expect((await sharp((await bytes(covers[1].url)).body).metadata()).format).toBe('png');
    expect((await (await get(`${fake.creatorUrl('alicebrushes')}/l/brushpk.json`)).json()) as Json).toMatchObject({
      id: 'brushpk',
      name: 'Brush pack',
    });
    const bob = await props(fake.creatorUrl('bobsounds'));
    expect(bob.creator_profile.avatar_url).toBe(`${fake.cdnUrl}/assets/gumroad-default-avatar-5.png`);
    expect((await sharp((await bytes(bob.creator_profile.avatar_url)).body).metadata()).format).toBe('png');
    expect((await get(`${fake.cdnUrl}/assets/other.png`)).status).toBe(404);
    expect((await get(`${fake.cdnUrl}/${'0'.repeat(28)}`)).status).toBe(404);
  });

  it('refuses downloads without the key until the e-mail is confirmed, and as each purchase state says', async () => {
    const token = tokenOf('brushpk');
    const away = await get(`/d/${token}`);
    expect(away.headers.get('location')).toBe(`${fake.url}/confirm?id=${token}&destination=download_page`);
    expect((await get(`/r/${token}/product_files?product_file_ids%5B%5D=pf_brush_zip`)).status).toBe(302);
    const confirm = await get(away.headers.get('location')!);
    const session = /^_gumroad_app_session=([^;]+);/.exec(confirm.headers.get('set-cookie')!)![1];
    const html = await confirm.text();
    expect(pageOf(html).props).toMatchObject({
      content_unavailability_reason_code: 'email_confirmation_required',
      confirmation_info: { id: token },
    });
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(html)![1];
    const post = (body: string) =>
      fetch(`${fake.url}/confirm-redirect`, {
        method: 'POST',
        headers: { cookie: `_gumroad_app_session=${session}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
    expect((await post(`id=${token}&email=buyer%40example.com`)).status).toBe(422);
    const wrong = await post(`authenticity_token=${encodeURIComponent(csrf)}&id=${token}&destination=download_page&email=x%40y.z`);
    expect(wrong.headers.get('location')).toContain('/confirm?id=');
    const ok = await post(
      `utf8=%E2%9C%93&authenticity_token=${encodeURIComponent(csrf)}&id=${token}&destination=download_page&email=buyer%40example.com`,
    );
    expect(ok.headers.get('location')).toBe(`${fake.url}/d/${token}`);
    const confirmed = /^(confirmed_redirect=[^;]+);/.exec(ok.headers.get('set-cookie')!)![1];
    expect((await props(`/d/${token}`, { cookie: confirmed })).token).toBe(token);

    expect((await get(`/d/${tokenOf('pack12')}`, auth())).headers.get('location')).toBe(`${fake.url}/r/${tokenOf('pack12')}/expired`);
    expect((await get(`/d/${tokenOf('monthly')}`, auth())).headers.get('location')).toBe(
      `${fake.url}/r/${tokenOf('monthly')}/membership_inactive`,
    );
    expect((await get(`/d/${tokenOf('refund')}`, auth())).status).toBe(404);
    expect((await get('/d/nosuchtoken', auth())).status).toBe(404);

    const stamped = `/r/${tokenOf('stamped')}/product_files?product_file_ids%5B%5D=pf_stamped`;
    expect((await get(stamped, auth())).headers.get('location')).toBe(`${fake.url}/d/${tokenOf('stamped')}`);
    expect((await fetchFile(stamped)).body.subarray(0, 5).toString()).toBe('%PDF-');

    const signed = (await get(`/r/${token}/product_files?product_file_ids%5B%5D=pf_brush_zip`, auth())).headers.get('location')!;
    expect((await get(signed.split('?')[0])).status).toBe(403);
    expect((await get(signed.replace(/verify=\d+-/, 'verify=9999999999-'))).status).toBe(403);
    expect((await get(signed.replace('Brushes%20v2.zip', 'Other.zip'))).status).toBe(403);
    fake.advanceTime(601);
    const expired = await get(signed);
    expect([expired.status, await expired.text()]).toEqual([403, 'Access denied']);
  });

  it('honours rateLimit, fail, expireKey, editPost and delayMs', async () => {
    fake.rateLimit(1);
    const limited = await get('/library', auth());
    expect([limited.status, limited.headers.get('retry-after'), await limited.text()]).toEqual([429, null, 'Retry later\n']);
    fake.rateLimit(1, 30);
    expect((await get('/library', auth())).headers.get('retry-after')).toBe('30');
    fake.fail(1, 502);
    expect((await get('/library', auth())).status).toBe(502);

    fake.editPost('brushpk', { descriptionHtml: '<p>New description.</p>', pageText: 'Rewritten welcome.' });
    const first = (await props('/library')).results[0];
    expect(first.product.name).toBe('Brush pack');
    const brush = await props(`/d/${tokenOf('brushpk')}`);
    expect(brush.content.rich_content_pages[0].description.content[0].content[0].text).toBe('Rewritten welcome.');
    expect((await props(`${fake.creatorUrl('alicebrushes')}/l/brushpk`)).product.description_html).toBe('<p>New description.</p>');

    fake.delayMs = 120;
    const started = Date.now();
    await get('/login');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    fake.delayMs = 0;

    fake.expireKey();
    expect((await get('/library', auth())).status).toBe(302);
    expect((await get(`/d/${tokenOf('brushpk')}`, auth())).headers.get('location')).toContain('/confirm?id=');
    expect(fake.requests.some((r) => r.host === 'app' && r.path === '/library' && r.status === 429)).toBe(true);
  });

  it('answers with the shapes of the fixtures', async () => {
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.length
          ? [shape(value[0])]
          : []
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .map(([k, v]) => [k, shape(v)])
                .sort(),
            )
          : value === null
            ? null
            : typeof value;
    const library = await props('/library?creators=4710001234567');
    expect(shape(library.results.find((r: Json) => r.product.name === 'Brush pack'))).toEqual(shape(gumroadFixtures.libraryCard));
    for (const [permalink, fixture] of [
      ['brushpk', gumroadFixtures.file],
      ['tlcourse', gumroadFixtures.video],
      ['thanks', gumroadFixtures.textOnly],
      ['unicode', gumroadFixtures.unicodeTitle],
    ] as const) {
      expect(shape(await props(`/d/${tokenOf(permalink)}`)), permalink).toEqual(shape(fixture));
    }
    expect(shape(await props(`${fake.creatorUrl('alicebrushes')}/l/brushpk`))).toEqual(shape(gumroadFixtures.gallery));
    expect(gumroadFixtures.libraryCard.purchase.download_url).toMatch(/^https:\/\/gumroad\.com\/d\//);
    expect(gumroadFixtures.embed).toMatchObject({ type: 'mediaEmbed' });
  });
});
