/**
 * Media in Chromium against the real server and the demo archive: post-card thumbnails are real
 * WebP thumbnails (not the originals, not the placeholder), and a creator page shows its icon and
 * banner; a creator without stored images gets the default ones. The demo's videos are real: they
 * have a poster, play, and are served with their type and Range support.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { dataPaths } from '@api/config.ts';
import { e2eRow } from './e2e-db.ts';

test('post cards load WebP thumbnails generated from the stored images', async ({ page }) => {
  const thumbnails: Array<{ url: string; type: string | null; status: number }> = [];
  page.on('response', (response) => {
    if (response.url().includes('/thumbnail/data/'))
      thumbnails.push({ url: response.url(), type: response.headers()['content-type'] ?? null, status: response.status() });
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/posts');
  const first = page.locator('img.post-card__image').first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  const width = await first.evaluate((image: HTMLImageElement) => Math.max(image.naturalWidth, image.naturalHeight));
  expect(width).toBeLessThanOrEqual(600);
  expect(thumbnails.length).toBeGreaterThan(0);
  for (const answer of thumbnails) {
    expect(answer.status, answer.url).toBe(200);
    expect(answer.type, answer.url).toBe('image/webp');
  }
  // Each thumbnail seen was written to the thumbnail cache on disk.
  const hash = /\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(thumbnails[0].url)![1];
  expect(fs.existsSync(path.join(dataPaths(E2E_DATA_DIR).thumbnails, hash.slice(0, 2), hash.slice(2, 4), `${hash}.webp`))).toBe(true);
});

test('a creator page shows its icon and banner, or the defaults', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/posts');
  const href = await page.locator('a[href*="/user/"]').first().getAttribute('href');
  await page.goto(href!.split('/post/')[0]);
  for (const selector of ['img.creator-header__avatar', 'img.creator-header__banner']) {
    const image = page.locator(selector);
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  }
  const fallback = await request.get('/icons/fanbox/no-such-creator-here');
  expect(fallback.status()).toBe(200);
  expect(fallback.headers()['content-type']).toBe('image/webp');
});

/** The showcase post (scripts/seed/showcase.ts) carries the demo's two videos. */
const showcasePath = () => {
  const post = e2eRow<{ service: string; user: string; id: string }>(
    `SELECT service, "user", id FROM posts WHERE title LIKE 'Dragon keep:%'`,
  );
  return `/${post.service}/user/${post.user}/post/${post.id}`;
};

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 800 },
]) {
  test(`the showcase post's videos have posters and play at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(showcasePath());
    const videos = page.locator('.post-videos video');
    await expect(videos).toHaveCount(2);
    for (const video of await videos.all()) {
      // The poster is the video's stored poster frame, served as its thumbnail.
      const poster = await video.getAttribute('poster');
      const src = await video.getAttribute('src');
      expect(poster).toBe(`/thumbnail${src!.startsWith('/data/') ? src : `/data${src}`}`);
      const image = await page.request.get(poster!);
      expect([image.status(), image.headers()['content-type']]).toEqual([200, 'image/webp']);
      await video.scrollIntoViewIfNeeded();
      const box = await video.boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      expect(box!.width).toBeLessThanOrEqual(viewport.width);
    }
    // What every Chromium plays (VP9 in WebM); MP4 is H.264, which Chromium builds without proprietary codecs refuse.
    const playable = await videos.evaluateAll((elements: HTMLVideoElement[]) =>
      elements.map((element) => ({
        src: element.getAttribute('src')!,
        ok: element.canPlayType(element.src.endsWith('.mp4') ? 'video/mp4; codecs="avc1.42E01E"' : 'video/webm; codecs="vp9"') !== '',
      })),
    );
    expect(playable.find((entry) => entry.src.endsWith('.webm'))?.ok).toBe(true);
    for (const { src, ok } of playable) {
      if (!ok) continue;
      const video = page.locator(`.post-videos video[src="${src}"]`);
      const state = await video.evaluate(async (element: HTMLVideoElement) => {
        element.muted = true;
        await element.play();
        await new Promise<void>((resolve) => {
          const check = () => (element.currentTime > 0.3 ? resolve() : requestAnimationFrame(check));
          check();
        });
        element.pause();
        return {
          readyState: element.readyState,
          duration: element.duration,
          width: element.videoWidth,
          error: element.error?.code ?? null,
        };
      });
      expect(state.error, src).toBeNull();
      expect(state.readyState, src).toBeGreaterThanOrEqual(2);
      expect(state.duration, src).toBeGreaterThan(2);
      expect(state.width, src).toBe(320);
    }
  });
}

test('the demo videos are served as real video with their type, and Range requests work', async ({ request, page }) => {
  await page.goto(showcasePath());
  const sources = await page
    .locator('.post-videos video')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('src')!));
  expect(sources.map((src) => src.split('.').pop()).sort()).toEqual(['mp4', 'webm']);
  for (const src of sources) {
    const type = src.endsWith('.mp4') ? 'video/mp4' : 'video/webm';
    const whole = await request.get(src);
    expect([whole.status(), whole.headers()['content-type'], whole.headers()['accept-ranges']]).toEqual([200, type, 'bytes']);
    const body = await whole.body();
    expect(body.length).toBeGreaterThan(2_000);
    if (type === 'video/mp4') expect(body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    else expect(body.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    const part = await request.get(src, { headers: { Range: 'bytes=100-199' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toBe(`bytes 100-199/${body.length}`);
    expect(part.headers()['content-type']).toBe(type);
    expect((await part.body()).equals(body.subarray(100, 200))).toBe(true);
  }
});
