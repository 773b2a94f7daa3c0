/**
 * Boosty: the fake of tests/fakes/boosty.ts (real HTTP, api.boosty.to's paths, shapes, paging and refusals,
 * and a CDN server for images.boosty.to / cdn.boosty.to / the OK.ru video CDN). The importer's own tests
 * join this file once the Boosty importer exists.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { boostyFixtures } from '../../fakes/boosty-fixtures.ts';
import { FAKE_BOOSTY_AUTH, FAKE_BOOSTY_KEY, startFakeBoosty, type FakeBoosty, type FakeBoostyOptions } from '../../fakes/boosty.ts';
import { readZip } from '../../fakes/kit/zip.ts';
import { boosty as boostyDescriptor } from '@shared/paysites/boosty.ts';

let fake: FakeBoosty | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeBoostyOptions = {}) {
  fake = await startFakeBoosty(options);
  return fake;
}

const BEARER = { authorization: `Bearer ${FAKE_BOOSTY_AUTH.accessToken}` };
type Json = Record<string, any>;
async function get(url: string, headers: Record<string, string> = BEARER): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: Json = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}
const bytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};
const refresh = (f: FakeBoosty, form: Record<string, string>) =>
  fetch(`${f.url}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

/** Every post of a blog, walking extra.offset until isLast. */
async function walk(f: FakeBoosty, blog: string, limit: number, headers: Record<string, string> = BEARER) {
  const posts: Json[] = [];
  let offset = '';
  let pages = 0;
  for (;;) {
    const { status, body } = await get(
      `${f.url}/v1/blog/${blog}/post/?limit=${limit}&offset=${encodeURIComponent(offset)}&comments_limit=0&reply_limit=0`,
      headers,
    );
    expect(status).toBe(200);
    pages++;
    posts.push(...body.data);
    if (body.extra.isLast) {
      expect(body.extra.offset).toBe('');
      return { posts, pages };
    }
    expect(typeof body.extra.offset).toBe('string');
    offset = body.extra.offset;
  }
}

const findPost = (f: FakeBoosty, title: string) => f.dataset.blogs.flatMap((b) => b.posts).find((p) => p.title === title)!;

describe('the fake Boosty', () => {
  it('takes the auth cookie as the key: its accessToken is the bearer token of /v1/user/current', async () => {
    const f = await start();
    const auth = JSON.parse(decodeURIComponent(FAKE_BOOSTY_KEY));
    expect(auth).toEqual(FAKE_BOOSTY_AUTH);
    const me = await get(`${f.url}/v1/user/current`, { authorization: `Bearer ${auth.accessToken}` });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(f.dataset.user.id);
  });

  it('refuses a wrong, malformed or expired token with 401 everywhere, and a missing one on /v1/user/*', async () => {
    const f = await start();
    for (const authorization of ['Bearer not-a-token', `Token ${FAKE_BOOSTY_AUTH.accessToken}`, 'Bearer ']) {
      const wrong = await get(`${f.url}/v1/blog/mariya-art/post/`, { authorization });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: 'unauthorized', error_description: 'Unauthorized' });
    }
    expect((await get(`${f.url}/v1/user/subscriptions`, {})).status).toBe(401);
    expect((await get(`${f.url}/v1/user/current`, {})).status).toBe(401);
    const stale = await startFakeBoosty({ auth: { ...FAKE_BOOSTY_AUTH, expiresAt: Date.now() - 1000 } });
    try {
      expect((await get(`${stale.url}/v1/user/current`)).status).toBe(401);
    } finally {
      await stale.close();
    }
  });

  it('serves public data without a token: paid posts locked, free ones open, no signedQuery', async () => {
    const f = await start();
    const { posts } = await walk(f, 'mariya-art', 50, {});
    const welcome = posts.find((p) => p.title === 'Добро пожаловать! 📌')!;
    expect(welcome.hasAccess).toBe(true);
    expect(welcome.signedQuery).toBe('');
    const paid = posts.find((p) => p.title === 'Скетчи недели')!;
    expect(paid).toMatchObject({ hasAccess: false, data: [], signedQuery: '' });
  });

  it('pages the subscriptions by numeric offset, with free follows only when with_follow=true', async () => {
    const f = await start({ subscriptionPageSize: 1 });
    const first = await get(`${f.url}/v1/user/subscriptions?limit=30&with_follow=true&offset=0`);
    expect(first.body).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(first.body.data[0].blog.blogUrl).toBe('mariya-art');
    const second = await get(`${f.url}/v1/user/subscriptions?limit=30&with_follow=true&offset=1`);
    expect(second.body.data[0]).toMatchObject({ name: 'Follower', price: 0, blog: { blogUrl: 'synthwave-lab', owner: { id: 144002 } } });
    expect((await get(`${f.url}/v1/user/subscriptions?limit=30&with_follow=true&offset=2`)).body.data).toEqual([]);
    const paidOnly = await get(`${f.url}/v1/user/subscriptions?limit=30&with_follow=false&offset=0`);
    expect(paidOnly.body.total).toBe(1);
  });

  it('pages a blog newest first (pinned first) by the opaque offset and stops on isLast', async () => {
    const f = await start({ pageSize: 4 });
    const { posts, pages } = await walk(f, 'mariya-art', 20);
    expect(pages).toBe(4);
    expect(posts).toHaveLength(15);
    expect(new Set(posts.map((p) => p.id)).size).toBe(15);
    expect(posts[0]).toMatchObject({ title: 'Добро пожаловать! 📌', isPinned: true });
    const times = posts.slice(1).map((p) => p.publishTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(posts.some((p) => p.title === 'Удалённый пост')).toBe(false);
    const allowed = await walk(f, 'mariya-art', 20);
    expect(allowed.posts.find((p) => p.title === 'Только для меценатов')).toMatchObject({ hasAccess: false, data: [], price: 500 });
    const onlyAllowed = await get(`${f.url}/v1/blog/mariya-art/post/?limit=50&only_allowed=true&is_only_allowed=true`);
    expect(onlyAllowed.body.data.some((p: Json) => !p.hasAccess)).toBe(false);
    expect((await get(`${f.url}/v1/blog/mariya-art/post/?offset=garbage`)).status).toBe(400);
  });

  it('answers a post with its blocks, 404 for a deleted or foreign post or unknown blog, 400 for a malformed name', async () => {
    const f = await start();
    const text = findPost(f, 'Заметки о цвете');
    const one = await get(`${f.url}/v1/blog/mariya-art/post/${text.id}?comments_limit=2&reply_limit=1`);
    expect(one.status).toBe(200);
    expect(one.body.int_id).toBe(text.intId);
    expect(one.body.data[0]).toEqual({ type: 'text', content: JSON.stringify(['Тёплое и холодное', 'header-one', []]), modificator: '' });
    expect(one.body.data[1]).toEqual({ type: 'text', content: '', modificator: 'BLOCK_END' });
    expect(one.body.comments.data).toHaveLength(2);
    expect(one.body.comments.data[0].replies.data).toHaveLength(1);
    const comments = await get(`${f.url}/v1/blog/mariya-art/post/${text.id}/comment/?limit=2`);
    expect(comments.body.extra).toEqual({ isFirst: true, isLast: false });
    const rest = await get(`${f.url}/v1/blog/mariya-art/post/${text.id}/comment/?limit=2&offset=${comments.body.data[1].intId}`);
    expect(rest.body.data.map((c: Json) => c.intId)).toEqual([9004]);
    expect(rest.body.extra.isLast).toBe(true);
    expect((await get(`${f.url}/v1/blog/mariya-art/post/${findPost(f, 'Удалённый пост').id}`)).status).toBe(404);
    expect((await get(`${f.url}/v1/blog/synthwave-lab/post/${text.id}`)).status).toBe(404);
    expect((await get(`${f.url}/v1/blog/nobody/post/`)).body).toEqual({ error: 'blog_not_found', error_description: 'Blog not found' });
    expect((await get(`${f.url}/v1/blog/${encodeURIComponent('me@example.com')}`)).status).toBe(400);
    const blog = await get(`${f.url}/v1/blog/mariya-art`);
    expect(blog.body).toMatchObject({ blogUrl: 'mariya-art', owner: { id: 144001, name: 'Мария Иванова 🎨' } });
  });

  it('serves images without a signature and decodable avatar and cover', async () => {
    const f = await start();
    const post = (await get(`${f.url}/v1/blog/mariya-art/post/${findPost(f, 'Скетчи недели').id}`)).body;
    const images = post.data.filter((b: Json) => b.type === 'image');
    expect(images).toHaveLength(3);
    for (const image of images) {
      const got = await bytes(image.url);
      expect(got.status).toBe(200);
      expect(await sharp(got.body).metadata()).toMatchObject({ format: 'png', width: image.width, height: image.height });
    }
    const blog = (await get(`${f.url}/v1/blog/mariya-art`)).body;
    expect((await sharp((await bytes(blog.owner.avatarUrl)).body).metadata()).format).toBe('jpeg');
    expect((await sharp((await bytes(blog.coverUrl)).body).metadata()).width).toBe(96);
  });

  it('serves files and audio only with the post signedQuery, refuses altered or stale ones', async () => {
    const f = await start();
    const post = (await get(`${f.url}/v1/blog/mariya-art/post/${findPost(f, 'Исходники PSD').id}`)).body;
    const [zip, png] = post.data.filter((b: Json) => b.type === 'file');
    expect(zip.title).toBe('Исходники_скетчей.zip');
    expect(png.title).toBe('24.12.12-109 копия.png');
    expect((await bytes(zip.url)).status).toBe(403);
    const signed = await bytes(zip.url + post.signedQuery);
    expect(signed.status).toBe(200);
    expect(signed.body.length).toBe(zip.size);
    expect(readZip(signed.body).map((e) => e.name)).toEqual(['readme.txt', 'Слои/слой-1.txt']);
    expect((await sharp((await bytes(png.url + post.signedQuery)).body).metadata()).format).toBe('png');
    expect((await bytes(zip.url + post.signedQuery.replace(/sign=[0-9a-f]+/, 'sign=deadbeef'))).status).toBe(403);
    const other = (await get(`${f.url}/v1/blog/mariya-art/post/${findPost(f, 'Подкаст #1').id}`)).body;
    expect((await bytes(zip.url + other.signedQuery)).status).toBe(403);
    const audio = other.data.find((b: Json) => b.type === 'audio_file');
    const mp3 = await bytes(audio.url + other.signedQuery);
    expect(mp3.type).toBe('audio/mpeg');
    expect([...mp3.body.subarray(0, 2)]).toEqual([0xff, 0xfb]);
    f.advanceTime(25 * 3600);
    expect((await bytes(zip.url + post.signedQuery)).status).toBe(401);
  });

  it('serves the OK video as signed MP4 (Range too) and an HLS playlist; unsigned or altered is 403', async () => {
    const f = await start();
    const post = (await get(`${f.url}/v1/blog/mariya-art/post/${findPost(f, 'Таймлапс: закат').id}`)).body;
    const video = post.data.find((b: Json) => b.type === 'ok_video');
    const urls = Object.fromEntries(video.playerUrls.map((u: Json) => [u.type, u.url]));
    expect(urls.full_hd).toBe('');
    const mp4 = await bytes(urls.low);
    expect(mp4.status).toBe(200);
    expect(mp4.body.subarray(4, 8).toString()).toBe('ftyp');
    const part = await bytes(urls.low, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(100);
    const hls = await fetch(urls.hls);
    const playlist = await hls.text();
    expect(playlist.startsWith('#EXTM3U')).toBe(true);
    const segments = playlist.split('\n').filter((l) => l.startsWith('http'));
    expect(segments).toHaveLength(3);
    // MPEG-TS: sync byte 0x47 every 188 bytes.
    const ts = (await bytes(segments[0])).body;
    expect([ts[0], ts[188]]).toEqual([0x47, 0x47]);
    expect((await bytes(segments[0].replace(/sig=[^&]+/, 'sig=bad'))).status).toBe(403);
    expect((await bytes(urls.low.replace(/sig=[^&]+/, 'sig=bad'))).status).toBe(403);
    expect((await sharp((await bytes(video.preview)).body).metadata()).format).toBe('webp');
  });

  it('refreshes an expired access token with the refresh token, rotates it, and refuses a used, wrong or revoked one', async () => {
    const f = await start();
    f.expireAccessToken();
    expect((await get(`${f.url}/v1/user/current`)).status).toBe(401);
    const ok = await refresh(f, {
      device_id: 'd-1',
      device_os: 'web',
      grant_type: 'refresh_token',
      refresh_token: FAKE_BOOSTY_AUTH.refreshToken,
    });
    expect(ok.status).toBe(200);
    const tokens = await ok.json();
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token']);
    expect(tokens.expires_in).toBe(3600);
    expect((await get(`${f.url}/v1/user/current`, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    const reused = await refresh(f, {
      device_id: 'd-1',
      device_os: 'web',
      grant_type: 'refresh_token',
      refresh_token: FAKE_BOOSTY_AUTH.refreshToken,
    });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(f, { device_os: 'web', grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
    expect((await refresh(f, { device_id: 'd-1', grant_type: 'password', refresh_token: tokens.refresh_token })).status).toBe(400);
    f.advanceTime(3601);
    expect((await get(`${f.url}/v1/user/current`, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    f.expireKey();
    expect(
      (await refresh(f, { device_id: 'd-1', device_os: 'web', grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status,
    ).toBe(400);
  });

  it('binds the refresh to a device id when told to', async () => {
    const f = await start({ deviceId: 'browser-client-id' });
    const form = { device_os: 'web', grant_type: 'refresh_token', refresh_token: FAKE_BOOSTY_AUTH.refreshToken };
    expect((await refresh(f, { ...form, device_id: 'another' })).status).toBe(400);
    expect((await refresh(f, { ...form, device_id: 'browser-client-id' })).status).toBe(200);
  });

  it('honours rateLimit, fail, expireKey, editPost, deletePost and delayMs, and logs requests', async () => {
    const f = await start();
    f.rateLimit(1, 7);
    const limited = await get(`${f.url}/v1/user/current`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    f.fail(1, 502);
    expect((await get(`${f.url}/v1/user/current`)).status).toBe(502);
    expect((await get(`${f.url}/v1/user/current`)).status).toBe(200);
    const target = findPost(f, 'Заметки о цвете');
    const before = (await get(`${f.url}/v1/blog/mariya-art/post/${target.id}`)).body;
    f.advanceTime(60);
    f.editPost(target.id, { title: 'Заметки о цвете (обновлено)', data: [{ kind: 'p', runs: ['Новый текст.'] }] });
    const after = (await get(`${f.url}/v1/blog/mariya-art/post/${target.id}`)).body;
    expect(after.title).toBe('Заметки о цвете (обновлено)');
    expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
    expect(JSON.parse(after.data[0].content)[0]).toBe('Новый текст.');
    f.deletePost(target.id);
    expect((await get(`${f.url}/v1/blog/mariya-art/post/${target.id}`)).status).toBe(404);
    f.delayMs = 150;
    const started = Date.now();
    await get(`${f.url}/v1/user/current`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    f.expireKey();
    expect((await get(`${f.url}/v1/user/current`)).status).toBe(401);
    expect(f.requests.find((r) => r.path === '/v1/user/current')).toMatchObject({
      method: 'GET',
      host: 'api',
      status: 429,
      headers: { authorization: BEARER.authorization },
    });
  });

  it('has a fixture for every content kind, in the shapes the fake serves', () => {
    const kinds = boostyFixtures.map((x) => x.kind.split(' (')[0]);
    for (const kind of [
      'text only',
      'gallery',
      'files with real names',
      'blog post with an inline image and an inline link',
      'embed',
      'video',
      'audio',
      'locked',
      'deleted',
      'unicode title and body, tags',
    ]) {
      expect(kinds).toContain(kind);
    }
    for (const x of boostyFixtures) expect(x.source.length).toBeGreaterThan(10);
    const locked = boostyFixtures.find((x) => x.kind.startsWith('locked'))!.body as Json;
    expect(locked).toMatchObject({ hasAccess: false, data: [], signedQuery: '' });
    const video = boostyFixtures.find((x) => x.kind.startsWith('video'))!.body as Json;
    expect(video.data.find((b: Json) => b.type === 'ok_video').playerUrls.find((u: Json) => u.type === 'low').url).toMatch(
      /^https:\/\/vd123\.okcdn\.ru\//,
    );
  });
});

describe('the fake Boosty key', () => {
  it('passes the key rules of the importer form (tokens of 64 hex characters), encoded and decoded', () => {
    const [field] = boostyDescriptor.keyFields;
    // The form keeps the decoded JSON: that is what the importer gets.
    expect(field.check(FAKE_BOOSTY_KEY)).toBe(decodeURIComponent(FAKE_BOOSTY_KEY));
    expect(field.check(decodeURIComponent(FAKE_BOOSTY_KEY))).toBe(decodeURIComponent(FAKE_BOOSTY_KEY));
  });
});
