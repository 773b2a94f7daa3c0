/**
 * SubscribeStar: the fake .com and adult sites and their CDN (tests/fakes/subscribestar.ts) answer and
 * refuse as the real ones do (real HTTP with fetch). The importer's own tests will join this file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArchiveLister } from '../../../api/media/archives.ts';
import { subscribestarFixtures } from '../../fakes/subscribestar-fixtures.ts';
import {
  FAKE_SUBSCRIBESTAR_ADULT_KEY,
  FAKE_SUBSCRIBESTAR_KEY,
  startFakeSubscribestar,
  type FakeSubscribestar,
} from '../../fakes/subscribestar.ts';

let fake: FakeSubscribestar;
beforeEach(async () => {
  fake = await startFakeSubscribestar({ pageSize: 4 });
});
afterEach(() => fake.close());

const com = `_personalization_id=${FAKE_SUBSCRIBESTAR_KEY}`;
const adult = `_personalization_id=${FAKE_SUBSCRIBESTAR_ADULT_KEY}; 18_plus_agreement_generic=true`;
const get = (url: string, cookie?: string) => fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const postIds = (html: string) => [...html.matchAll(/<div class="post [^"]*" data-id="(\d+)"/g)].map((m) => Number(m[1]));
const moreHref = (html: string) => {
  const m = /<a class="posts-more" data-role="infinite_scroll-next_page" href="([^"]+)"/.exec(html);
  return m ? unescapeHtml(m[1]) : null;
};
const postBlock = (html: string, id: number) => {
  const start = html.indexOf(`data-id="${id}"`);
  return start < 0 ? '' : html.slice(start, html.indexOf('class="post-edit_form"', start));
};
const gallery = (block: string) =>
  JSON.parse(unescapeHtml(/data-gallery="([^"]*)"/.exec(block)![1])) as {
    id: number;
    url: string;
    original_filename: string;
    type: string;
  }[];
async function bytes(url: string) {
  const res = await get(url);
  expect(res.status, url).toBe(200);
  return { type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

/** Walks a star's pages as an importer does: the profile, then each load-more JSON. */
async function walk(root: string, first: string, cookie?: string) {
  const pages: string[] = [];
  let html = await (await get(`${root}${first}`, cookie)).text();
  pages.push(html);
  for (let href = moreHref(html); href; href = moreHref(html)) {
    const res = await get(`${root}${href}`, cookie);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    html = ((await res.json()) as { html: string }).html;
    pages.push(html);
  }
  return pages;
}

describe('the fake SubscribeStar', () => {
  it('shows the logged-in markers only to the key, per site, under the right cookie name', async () => {
    const settings = await get(`${fake.url}/profile/settings`, com);
    expect(settings.status).toBe(200);
    const html = await settings.text();
    expect(html).toContain('<div class="top_bar-user_info">');
    expect(html).toMatch(
      /<img class="top_bar-user_avatar" data-user-id="880001"[^>]*><div class="top_bar-user_name">Fake Subscriber<\/div>/,
    );
    expect(html).toMatch(/<meta name="csrf-token" content="[^"]+">/);
    for (const cookie of [
      undefined,
      '_personalization_id=wrong',
      `auth_token=${FAKE_SUBSCRIBESTAR_KEY}`,
      `_personalization_id=${FAKE_SUBSCRIBESTAR_ADULT_KEY}`,
    ]) {
      const res = await get(`${fake.url}/profile/settings`, cookie);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${fake.url}/login`);
      expect((await get(`${fake.url}/feed`, cookie)).status).toBe(302);
    }
    // No 401 anywhere: a wrong key sees the star's page as a visitor, everything paid locked.
    const visitor = await get(`${fake.url}/adastudio`, '_personalization_id=wrong');
    expect(visitor.status).toBe(200);
    const page = await visitor.text();
    expect(page).not.toContain('top_bar-user-menu_wrapper');
    const block = postBlock(page, 1320020 + 6);
    expect(block).toContain('<div class="post-body is-locked"');
    expect((await get(`${fake.adultUrl}/profile/settings`, adult)).status).toBe(200);
    expect((await get(`${fake.adultUrl}/profile/settings`, `${com}; 18_plus_agreement_generic=true`)).status).toBe(302);
  });

  it('sends the adult site through the age confirmation, whose form sets the agreement cookie', async () => {
    const gate = await get(`${fake.adultUrl}/yozakura`, `_personalization_id=${FAKE_SUBSCRIBESTAR_ADULT_KEY}`);
    expect(gate.status).toBe(302);
    expect(gate.headers.get('location')).toBe(`${fake.adultUrl}/age_confirmation_warning?return_to=%2Fyozakura`);
    expect((await get(`${fake.url}/adastudio`, com)).status).toBe(200);
    const warning = await get(gate.headers.get('location')!);
    const session = /^_subscribestar_session=([0-9a-f]+);/.exec(warning.headers.get('set-cookie') ?? '')![1];
    const form = await warning.text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(form)![1];
    expect(form).toContain('name="return_to" value="/yozakura"');
    const submit = (body: string, cookie: string) =>
      fetch(`${fake.adultUrl}/age_confirmation_warning`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
    expect((await submit('return_to=%2Fyozakura', `_subscribestar_session=${session}`)).status).toBe(422);
    const agreed = await submit(
      `authenticity_token=${encodeURIComponent(token)}&return_to=%2Fyozakura`,
      `_subscribestar_session=${session}`,
    );
    expect(agreed.status).toBe(302);
    expect(agreed.headers.get('location')).toBe(`${fake.adultUrl}/yozakura`);
    expect(agreed.headers.get('set-cookie')).toMatch(/^18_plus_agreement_generic=true;/);
    expect((await get(`${fake.adultUrl}/yozakura`, adult)).status).toBe(200);
  });

  it('pages a star with load-more JSON until no link is left, and pages the feed', async () => {
    const pages = await walk(fake.url, '/adastudio', com);
    expect(pages.map((p) => postIds(p).length)).toEqual([4, 4, 4, 4, 1]);
    const ids = pages.flatMap(postIds);
    expect(ids).toHaveLength(17);
    expect(new Set(ids).size).toBe(17);
    expect(ids).not.toContain(1320008);
    expect(ids[0]).toBe(1320026);
    expect(pages[0]).toContain('<div class="profile_main_info-name">Ada Studio</div>');
    expect(moreHref(pages[0])).toMatch(/^\/posts\?page_end_order_position=\d+&star_id=11$/);
    const byPage = await (await get(`${fake.url}/posts?slug=adastudio&page=5&sort_by=newest`, com)).json();
    expect(postIds((byPage as { html: string }).html)).toEqual([1320001]);
    const tagged = await walk(fake.url, '/adastudio?tag=sketch', com);
    expect(tagged.flatMap(postIds)).toEqual([1320002]);
    const feed = await walk(fake.url, '/feed', com);
    expect(feed.flatMap(postIds)).toEqual(ids);
    expect(feed.flatMap(postIds)).not.toContain(9090001);
    const redirected = await get(`${fake.url}/verifyme`, com);
    expect(redirected.headers.get('location')).toBe(`${fake.url}/verifyme/verify_subscriber`);
    expect((await get(`${fake.url}/nobody`, com)).status).toBe(404);
  });

  it('marks each content kind as the site does and serves real media bytes', async () => {
    const all = (await walk(fake.url, '/adastudio', com)).join('');
    const items = gallery(postBlock(all, 1320002));
    expect(items.map((i) => [i.original_filename, i.type])).toEqual([
      ['sketch one.jpg', 'image'],
      ['sketch-two.png', 'image'],
      ['timelapse.mp4', 'video'],
    ]);
    expect((await sharp((await bytes(items[0].url)).body).metadata()).format).toBe('jpeg');
    expect((await sharp((await bytes(items[1].url)).body).metadata()).format).toBe('png');
    const video = await bytes(items[2].url);
    expect(video.type).toBe('video/mp4');
    expect(video.body.subarray(4, 8).toString()).toBe('ftyp');

    const docs = postBlock(all, 1320003);
    const docLinks = [...docs.matchAll(/<a class="doc_preview-link" href="([^"]+)"[^>]*><div class="doc_preview-title">([^<]+)</g)].map(
      (m) => [unescapeHtml(m[1]), m[2]],
    );
    expect(docLinks.map((d) => d[1])).toEqual(['Ada brushes v3.zip', 'Training for freelancers - Guide.pdf']);
    expect(docLinks[0][0]).toContain('?filename=Ada%2520brushes%2520v3.zip&');
    const zip = await bytes(docLinks[0][0]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ss-zip-'));
    fs.writeFileSync(path.join(dir, 'a.zip'), zip.body);
    const listing = await createArchiveLister().list(path.join(dir, 'a.zip'), 'zip');
    fs.rmSync(dir, { recursive: true });
    expect(listing.kind).toBe('listed');
    expect((await bytes(docLinks[1][0])).body.subarray(0, 5).toString()).toBe('%PDF-');
    const audio =
      /<div class="audio_preview-data" data-upload-id="4627253" src="([^"]+)"><div class="audio_preview-title">episode 12\.mp3</.exec(
        postBlock(all, 1320004),
      )!;
    expect((await bytes(unescapeHtml(audio[1]))).body.subarray(0, 3).toString()).toBe('ID3');

    const blog = postBlock(all, 1320005);
    const attachment = JSON.parse(unescapeHtml(/data-trix-attachment="([^"]+)"/.exec(blog)![1]));
    expect(attachment).toMatchObject({ uploadId: 203890, original_filename: 'step-one.jpg' });
    expect((await sharp((await bytes(attachment.url)).body).metadata()).format).toBe('jpeg');
    const away = /<a href="(\/away\?url=[^"]+)" data-href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ"/.exec(
      postBlock(all, 1320006),
    )!;
    expect((await get(`${fake.url}${unescapeHtml(away[1])}`)).headers.get('location')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

    const locked = postBlock(all, 1320007);
    expect(locked).toContain('<div class="post-body is-locked"');
    expect(locked).toContain('<h1>Premium wallpapers</h1>');
    expect(locked).not.toContain('4K wallpapers');
    expect(locked).not.toContain('uploads-docs');
    const preview = gallery(locked)[0].url;
    expect(preview).toContain('/previews/');
    expect((await sharp((await bytes(preview)).body).metadata()).format).toBe('jpeg');
    expect(postBlock(all, 1320009)).toContain('<h1>Ünïcødé ✨ 日本語のタイトル</h1>');
    expect(postBlock(all, 1320010)).not.toContain('<h1>');
    expect(postBlock(all, 1320011)).toMatch(
      /<div class="post-date"><a href="\/posts\/1320011">Updated on [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} [ap]m<\/a>/,
    );
    const avatar = /<img data-type="avatar" data-user-id="11" alt="Ada Studio" src="([^"]+)">/.exec(all)![1];
    const cover = /<img data-type="cover" data-user-id="11" alt="Ada Studio" src="([^"]+)">/.exec(all)![1];
    expect((await sharp((await bytes(avatar)).body).metadata()).format).toBe('png');
    expect((await sharp((await bytes(cover)).body).metadata()).format).toBe('jpeg');
    expect((await get(avatar.replace('/avatar/', '/cover/'))).status).toBe(404);
    expect((await get(preview.replace('/1320007/', '/1320006/'))).status).toBe(404);

    const single = await (await get(`${fake.url}/posts/1320002`, com)).text();
    expect(single).toContain('data-post_id="1320002"');
    expect(await (await get(`${fake.url}/posts/1320007`, com)).text()).not.toContain('data-post_id');
    expect((await get(`${fake.url}/posts/1320008`, com)).status).toBe(404);
    expect(await (await get(`${fake.url}/posts/1320002/comments.json`, com)).json()).toMatchObject({
      error: null,
      html: expect.stringContaining('Love the second one &lt;3'),
    });
  });

  it('refuses CDN URLs without, with a forged or with an expired signature', async () => {
    const all = (await walk(fake.url, '/adastudio', com)).join('');
    const url = gallery(postBlock(all, 1320002))[0].url;
    const bare = await get(url.replace(/&Expires.*$/, ''));
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('<Code>MissingKey</Code>');
    expect((await get(url.replace(/Signature=[^&]+/, 'Signature=forged'))).status).toBe(403);
    expect((await get(url.replace('filename=sketch%2520one.jpg', 'filename=other.jpg'))).status).toBe(403);
    fake.advanceTime(3601);
    const expired = await get(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('serves the adult site gallery through /uploads?payload= redirects (or Rails redirect pages)', async () => {
    const html = await (await get(`${fake.adultUrl}/yozakura`, adult)).text();
    expect(postIds(html)).toEqual([2410005, 2410004, 2410003, 2410002]);
    const items = gallery(
      postBlock(((await (await get(`${fake.adultUrl}${moreHref(html)}`, adult)).json()) as { html: string }).html, 2410001),
    );
    expect(items[0].url).toMatch(/^\/uploads\?payload=/);
    const hop = await get(`${fake.adultUrl}${items[0].url}`);
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')!.startsWith(`${fake.cdnUrl}/uploads_v2/users/7021/posts/2410001/`)).toBe(true);
    expect((await sharp((await bytes(hop.headers.get('location')!)).body).metadata()).format).toBe('jpeg');
    expect((await get(`${fake.adultUrl}${items[0].url}x`)).status).toBe(404);
    expect(postBlock(html, 2410003)).toContain('is-locked');

    const pages = await startFakeSubscribestar({ htmlRedirects: true, pageSize: 10 });
    try {
      const list = (
        (await (await get(`${pages.adultUrl}/posts?page_end_order_position=9999999999&star_id=7021`, adult)).json()) as { html: string }
      ).html;
      const page = await get(`${pages.adultUrl}${gallery(postBlock(list, 2410001))[0].url}`);
      expect(page.status).toBe(200);
      const body = await page.text();
      expect(body.length).toBeLessThan(1000);
      expect(body).toMatch(/>redirected</);
      expect((await bytes(unescapeHtml(/href="([^"]+)"/.exec(body)![1]))).body.length).toBeGreaterThan(0);
    } finally {
      await pages.close();
    }
  });

  it('honours rateLimit, fail, challenge, expireKey, editPost, deletePost and delayMs', async () => {
    fake.rateLimit(1, 9);
    const limited = await get(`${fake.url}/adastudio`, com);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '9']);
    fake.fail(1, 503);
    expect((await get(`${fake.url}/adastudio`, com)).status).toBe(503);
    fake.challenge(1);
    const challenged = await get(`${fake.url}/adastudio`, com);
    expect([challenged.status, challenged.headers.get('cf-mitigated')]).toEqual([403, 'challenge']);
    expect(await challenged.text()).toContain('Just a moment...');

    fake.editPost(1320026, { body: '<div>Rewritten.</div>' });
    const edited = postBlock(await (await get(`${fake.url}/adastudio`, com)).text(), 1320026);
    expect(edited).toContain('<div>Rewritten.</div>');
    expect(edited).toContain('>Updated on ');
    fake.deletePost(1320026);
    expect(postIds(await (await get(`${fake.url}/adastudio`, com)).text())[0]).toBe(1320025);

    fake.delayMs = 120;
    const started = Date.now();
    await get(`${fake.url}/login`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    fake.delayMs = 0;

    fake.expireKey('com');
    expect((await get(`${fake.url}/profile/settings`, com)).status).toBe(302);
    expect(postBlock(await (await get(`${fake.url}/adastudio`, com)).text(), 1320025)).toContain('is-locked');
    expect((await get(`${fake.adultUrl}/profile/settings`, adult)).status).toBe(200);
    expect(fake.requests.some((r) => r.host === 'com' && r.status === 429 && r.headers.cookie === com)).toBe(true);
  });

  it('has fixtures that carry the markers the scrapers cut on', () => {
    for (const [kind, fixture] of Object.entries(subscribestarFixtures)) {
      if (kind === 'deleted') continue;
      const html = (fixture as { html: string }).html;
      expect(html.startsWith('<div class="post '), kind).toBe(true);
      expect(html, kind).toMatch(
        /<div class="post-content" data-role="post_content-text">[\s\S]*<\/div><div class="post-uploads for-youtube"/,
      );
      expect(html.indexOf('class="uploads'), kind).toBeLessThan(html.indexOf('class="post-edit_form"'));
      expect(html, kind).toMatch(/<div class="post_tags for-post">.*<div class="post-actions">/);
    }
    expect(subscribestarFixtures.locked.html).toContain('post-body is-locked');
    expect(subscribestarFixtures.visitor.html).toContain('/previews/');
    expect(subscribestarFixtures.adultGallery.html).toContain('&quot;url&quot;:&quot;/uploads?payload=');
    expect(subscribestarFixtures.embed.html).toMatch(/href="\/away\?url=[^"]+" data-href="https:\/\/www\.youtube\.com/);
  });
});
