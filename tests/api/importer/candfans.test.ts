/**
 * The fake CandFans (tests/fakes/candfans.ts) answers and refuses as candfans.jp (Laravel + Sanctum)
 * does, over real HTTP, with image.candfans.jp and video.candfans.jp beside it. The importer's own
 * tests are in candfans-import.test.ts; the mapper's table-driven tests from the recorded-shape
 * fixtures are at the end of this file.
 */
import { paragraphsHtml } from '@api/importer/text.ts';
import sharp from 'sharp';
import { importSubmissionError } from '@shared/importer.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANDFANS_FIXTURES } from '../../fakes/candfans-fixtures.ts';
import { FAKE_CANDFANS_KEY, SESSION_COOKIE, startFakeCandfans, type FakeCandfans } from '../../fakes/candfans.ts';
import { timelinePost } from '@api/importer/paysites/candfans/api.ts';
import { candfansTime, hashtags, postInput, postMedia, visibility } from '@api/importer/paysites/candfans/map.ts';

let fake: FakeCandfans;

/** A browser-like client: a cookie jar fed by Set-Cookie, a candfans.jp Referer, X-XSRF-TOKEN from the jar. */
function client(key: string | null = fake.key) {
  const jar = new Map<string, string>(key ? [[SESSION_COOKIE, key]] : []);
  const call = async (path: string, opts: { method?: string; referer?: string | null; origin?: string; xsrf?: string | null } = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Mozilla/5.0 Test' };
    if (opts.referer !== null) headers.referer = opts.referer ?? 'https://candfans.jp/';
    if (opts.origin) headers.origin = opts.origin;
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = opts.xsrf === undefined ? (jar.has('XSRF-TOKEN') ? decodeURIComponent(jar.get('XSRF-TOKEN')!) : undefined) : opts.xsrf;
    if (xsrf) headers['x-xsrf-token'] = xsrf;
    const res = await fetch(`${fake.url}${path}`, { method: opts.method ?? 'GET', headers });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  return { jar, call, handshake: () => call('/api/sanctum/csrf-cookie') };
}
async function signedIn() {
  const c = client();
  expect((await c.handshake()).status).toBe(204);
  return c;
}
const bytes = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};
const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const sakura = () => fake.dataset.creators[0];

beforeEach(async () => {
  fake = await startFakeCandfans();
});
afterEach(() => fake.close());

describe('the fake CandFans', () => {
  it('takes a Laravel encrypted session cookie as the key', () => {
    expect(fake.key).toBe(FAKE_CANDFANS_KEY);
    expect(fake.key.startsWith('eyJpdiI6')).toBe(true);
    expect(importSubmissionError({ service: 'candfans', session_key: fake.key })).toBeNull();
    const json = JSON.parse(Buffer.from(decodeURIComponent(fake.key), 'base64').toString());
    expect(Object.keys(json)).toEqual(['iv', 'value', 'mac', 'tag']);
    expect(json.mac).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does the XSRF handshake: csrf-cookie sets XSRF-TOKEN, calls send it back as X-XSRF-TOKEN', async () => {
    const c = client();
    const hello = await c.handshake();
    expect(hello.status).toBe(204);
    expect(hello.body).toBeNull();
    expect(c.jar.get('XSRF-TOKEN')).toMatch(/^eyJpdiI6/);
    // Laravel re-encrypts the session cookie on every answer: a new value for the same session.
    expect(c.jar.get(SESSION_COOKIE)).not.toBe(fake.key);
    const mine = await c.call('/api/user/get-user-mine');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: 'SUCCESS', data: { users: [{ id: fake.dataset.me.id }], plans: [] } });
    expect(mine.headers.get('x-ratelimit-limit')).toBe('300');
    // The original key still opens the session.
    const again = client();
    await again.handshake();
    expect((await again.call('/api/user/get-user-mine')).status).toBe(200);
  });

  it('refuses a missing, tampered or expired session, or a request that is not from candfans.jp, with 401', async () => {
    const nobody = client(null);
    await nobody.handshake();
    expect(await nobody.call('/api/user/get-user-mine')).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    const json = JSON.parse(Buffer.from(decodeURIComponent(fake.key), 'base64').toString());
    const tampered = encodeURIComponent(Buffer.from(JSON.stringify({ ...json, mac: '0'.repeat(64) })).toString('base64'));
    const forged = client(tampered);
    await forged.handshake();
    expect(await forged.call('/api/user/get-user-mine')).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    const c = await signedIn();
    expect(await c.call('/api/user/get-user-mine', { referer: null })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect(await c.call('/api/user/get-user-mine', { referer: 'https://evil.example/' })).toMatchObject({ status: 401 });
    expect((await c.call('/api/user/get-user-mine', { referer: null, origin: 'https://r18.candfans.jp' })).status).toBe(200);
    fake.expireKey();
    expect(await c.call('/api/user/get-user-mine')).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });

  it('refuses a missing or foreign X-XSRF-TOKEN with 419 (on GETs too by default, on PUT always)', async () => {
    const c = client();
    expect(await c.call('/api/user/get-user-mine')).toMatchObject({ status: 419, body: { message: 'CSRF token mismatch.' } });
    const guest = client(null);
    await guest.handshake();
    const foreign = decodeURIComponent(guest.jar.get('XSRF-TOKEN')!);
    expect((await c.call('/api/user/get-user-mine', { xsrf: foreign })).status).toBe(419);
    expect((await c.call('/api/user/get-user-mine', { xsrf: 'not-a-token' })).status).toBe(419);
    // The 419 sets XSRF-TOKEN, so the next call passes.
    expect((await c.call('/api/user/get-user-mine')).status).toBe(200);
    expect((await c.call(`/api/user/put-follow/${fake.dataset.creators[1].id}`, { method: 'PUT' })).body).toMatchObject({
      status: 'SUCCESS',
      message: 'フォローしました。',
    });

    await fake.close();
    fake = await startFakeCandfans({ xsrf: 'unsafe' });
    const plain = client();
    expect((await plain.call('/api/user/get-user-mine')).status).toBe(200);
    expect((await plain.call(`/api/user/put-follow/${fake.dataset.creators[1].id}`, { method: 'PUT', xsrf: null })).status).toBe(419);
  });

  it('serves the public profile without a session, the follow list by page and the joined plans', async () => {
    const anonymous = await fetch(`${fake.url}/api/user/get-users?user_code=sakura_cf`);
    const profile = await anonymous.json();
    expect(profile.data.user).toMatchObject({ id: sakura().id, user_code: 'sakura_cf', username: 'さくら Sakura', is_follow: false });
    expect(profile.data.plans.map((p: { plan_name: string }) => p.plan_name)).toEqual(['ライト', 'プレミアム']);
    for (const path of [profile.data.user.profile_img, profile.data.user.profile_cover_img]) {
      expect((await sharp((await bytes(`${fake.imageUrl}${path}`)).body).metadata()).format).toBe('jpeg');
    }
    expect((await fetch(`${fake.url}/api/user/get-users?user_code=nobody`)).status).toBe(404);

    const c = await signedIn();
    const sizes: number[] = [];
    for (let page = 1; ; page++) {
      const answer = await c.call(`/api/user/get-follow/${fake.dataset.me.id}?page=${page}`);
      sizes.push(answer.body.data.length);
      if (answer.body.data.length === 0) break;
    }
    expect(sizes).toEqual([10, 1, 0]);
    const plans = await c.call('/api/user/get-entry-plans');
    expect(plans.body.data).toMatchObject([{ user_code: 'sakura_cf', plan_id: 501 }]);
  });

  it('pages the timeline by page and record, filters by post_type and month, and stops with an empty page', async () => {
    const c = await signedIn();
    const id = sakura().id;
    const sizes: number[] = [];
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const answer = await c.call(`/api/contents/get-timeline?user_id=${id}&sort_order=new&record=6&page=${page}`);
      sizes.push(answer.body.data.length);
      if (answer.body.data.length === 0) break;
      seen.push(...answer.body.data.map((p: { post_id: number }) => p.post_id));
    }
    expect(sizes).toEqual([6, 6, 6, 2, 0]);
    expect(seen).toEqual([...sakura().posts].sort((a, b) => b.date.localeCompare(a.date)).map((p) => p.id));
    const limited = await c.call(`/api/contents/get-timeline?user_id=${id}&post_type[0]=1&sort_order=old&record=50&page=1`);
    expect(limited.body.data.every((p: { post_type: number }) => p.post_type === 1)).toBe(true);
    expect(limited.body.data[0].post_date < limited.body.data.at(-1).post_date).toBe(true);
    expect((await c.call(`/api/v3/timeline/content-length?user_id=${id}&post_type[]=1`)).body).toEqual({
      content_length: limited.body.data.length,
    });
    expect((await c.call(`/api/contents/get-timeline-month?user_id=${id}`)).body.data).toEqual([{ column_name: '2024年02月' }]);
    expect((await c.call(`/api/contents/get-timeline?user_id=${id}&month=2024-03&page=1`)).body.data).toEqual([]);
  });

  it('serves images, audio and HLS video (master, rendition, real segments) and marks locked posts', async () => {
    const c = await signedIn();
    const posts = (await c.call(`/api/contents/get-timeline?user_id=${sakura().id}&record=50&page=1`)).body.data as Record<string, any>[];
    const byTitle = (title: string) => posts.find((p) => p.title === title)!;
    const gallery = byTitle('撮影オフショット');
    expect(gallery).toMatchObject({ contents_type: 1, can_browsing: 1, image_count: 3, attachment_length: 3 });
    for (const a of gallery.attachments)
      expect(await sharp((await bytes(a.default)).body).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect((await bytes(`${fake.imageUrl}${gallery.contents_path2}`)).status).toBe(200);
    expect((await bytes(`${fake.imageUrl}${gallery.thumbnail_file}`)).status).toBe(200);

    const audio = byTitle('ボイスメッセージ');
    expect(audio.contents_type).toBe(3);
    expect((await bytes(audio.attachments[0].default)).body.subarray(0, 3).toString()).toBe('ID3');

    const video = byTitle('メイキング動画');
    expect(video.contents_path1).toMatch(/_high\.m3u8$/);
    const masterUrl = video.attachments[0].default as string;
    const master = (await bytes(masterUrl)).body.toString();
    expect(master).toContain('#EXT-X-STREAM-INF');
    const first = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, masterUrl).toString();
    expect(first).toBe(`${fake.videoUrl}${video.contents_path1}`);
    const playlist = (await bytes(first)).body.toString();
    const segments = playlist.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(segments).toHaveLength(3);
    for (const s of segments) {
      const seg = await bytes(new URL(s, first).toString());
      expect(seg.type).toBe('video/mp2t');
      expect(seg.body[0]).toBe(0x47);
    }
    expect((await bytes(video.attachments[0].low)).status).toBe(200);

    const locked = byTitle('プレミアム限定');
    expect(locked).toMatchObject({ can_browsing: 0, contents_path1: '', attachments: [], contents_text: '' });
    expect(locked.plans[0]).toMatchObject({ plan_id: 502, is_joined_plan: false });
    expect(byTitle('単品販売の動画')).toMatchObject({ post_type: 2, price: 1500, can_browsing: 0 });
    expect(byTitle('バックナンバー')).toMatchObject({ post_type: 3, can_browsing: 0 });
    expect(byTitle('絵文字とUnicode ✨ «Ünïcödé»').contents_text).toBe('改行も\nあります & <b>タグではない</b>');

    const detail = await c.call(`/api/contents/get-timeline/${gallery.post_id}`);
    const att = detail.body.data.post.post_attachments;
    expect(att).toHaveLength(3);
    expect((await bytes(`${fake.imageUrl}/user/${sakura().id}/post/${gallery.post_id}/${att[0].default_path}`)).status).toBe(200);
    expect((await bytes(`${fake.imageUrl}/user/1/post/2/nothing.jpg`)).status).toBe(403);
  });

  it('honours rateLimit, its own throttle, fail, editPost and delayMs, and logs requests', async () => {
    const c = await signedIn();
    fake.rateLimit(1, 12);
    const limited = await c.call('/api/user/get-user-mine');
    expect(limited).toMatchObject({ status: 429, body: { message: 'Too Many Attempts.' } });
    expect(limited.headers.get('retry-after')).toBe('12');
    fake.fail(1, 503);
    expect(await c.call('/api/user/get-user-mine')).toMatchObject({ status: 503, body: { message: 'Server Error' } });
    const post = sakura().posts[0];
    fake.editPost(post.id, { title: '改題', text: '本文を直しました' });
    const edited = await c.call(`/api/contents/get-timeline/${post.id}`);
    expect(edited.body.data.post).toMatchObject({ title: '改題', contents_text: '本文を直しました' });
    fake.delayMs = 120;
    const start = Date.now();
    await c.call('/api/user/get-user-mine');
    expect(Date.now() - start).toBeGreaterThanOrEqual(110);
    const last = fake.requests.filter((r) => r.host === 'api').at(-1)!;
    expect(last).toMatchObject({ method: 'GET', path: '/api/user/get-user-mine', status: 200 });
    expect(last.headers['x-xsrf-token']).toMatch(/^eyJpdiI6/);

    await fake.close();
    fake = await startFakeCandfans({ perMinute: 3 });
    const t = client();
    await t.handshake();
    expect((await t.call('/api/user/get-user-mine')).headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await t.call('/api/user/get-user-mine')).headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await t.call('/api/user/get-user-mine');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('has a fixture for each content kind', () => {
    expect(Object.keys(CANDFANS_FIXTURES)).toEqual(
      expect.arrayContaining([
        'textOnly',
        'image',
        'gallery',
        'video',
        'audio',
        'locked',
        'soldSeparately',
        'backNumber',
        'unicode',
        'link',
        'detail',
        'profile',
      ]),
    );
    for (const [kind, fixture] of Object.entries(CANDFANS_FIXTURES)) {
      expect(fixture.source, kind).toMatch(/\S/);
      expect(fixture.answer.status, kind).toBe('SUCCESS');
    }
    expect(CANDFANS_FIXTURES.video.answer.data[0].attachments[0].default).toMatch(
      /^https:\/\/video\.candfans\.jp\/user\/\d+\/post\/\d+\/.+\.m3u8$/,
    );
  });
});

describe('mapping CandFans posts (recorded-shape fixtures)', () => {
  const IMG = 'https://image.candfans.jp';
  const file = (name: string) => ({ name, path: `/aa/bb/${name}`, hash: name });
  type Row = {
    kind: keyof typeof CANDFANS_FIXTURES;
    seen: string;
    media: string[];
    thumbnail: boolean;
    title: string;
    content: string;
    tags: string[];
  };
  const rows: Row[] = [
    {
      kind: 'textOnly',
      seen: 'visible',
      media: [],
      thumbnail: false,
      title: 'はじめまして',
      content: '<p>CandFansはじめました！よろしくお願いします。</p>',
      tags: [],
    },
    { kind: 'image', seen: 'visible', media: ['.jpg'], thumbnail: true, title: '一枚だけ', content: '<p>お気に入りの一枚</p>', tags: [] },
    {
      kind: 'gallery',
      seen: 'visible',
      media: ['.jpg', '.jpg', '.jpg'],
      thumbnail: true,
      title: '撮影オフショット',
      content: '<p>今日の撮影のオフショットです📸 #撮影 #オフショット</p>',
      tags: ['撮影', 'オフショット'],
    },
    {
      kind: 'video',
      seen: 'visible',
      media: ['.m3u8 (hls)'],
      thumbnail: true,
      title: 'メイキング動画',
      content: '<p>撮影の裏側を動画で。<br>#メイキング #撮影</p>',
      tags: ['メイキング', '撮影'],
    },
    {
      kind: 'audio',
      seen: 'visible',
      media: ['.mp3'],
      thumbnail: true,
      title: 'ボイスメッセージ',
      content: '<p>おやすみボイスです🌙</p>',
      tags: [],
    },
    { kind: 'locked', seen: 'plan', media: [], thumbnail: true, title: 'プレミアム限定', content: '', tags: [] },
    { kind: 'soldSeparately', seen: 'single', media: [], thumbnail: true, title: '単品販売の動画', content: '', tags: [] },
    { kind: 'backNumber', seen: 'backNumber', media: [], thumbnail: true, title: 'バックナンバー', content: '', tags: [] },
    {
      kind: 'unicode',
      seen: 'visible',
      media: ['.jpg'],
      thumbnail: true,
      title: '絵文字とUnicode ✨ «Ünïcödé»',
      content: '<p>改行も<br>あります &amp; &lt;b&gt;タグではない&lt;/b&gt;</p>',
      tags: [],
    },
    {
      kind: 'link',
      seen: 'visible',
      media: [],
      thumbnail: false,
      title: 'お知らせ',
      content: '<p>ウィッシュリストはこちら https://example.com/wishlist</p>',
      tags: [],
    },
    {
      kind: 'expiring',
      seen: 'visible',
      media: ['.jpg'],
      thumbnail: true,
      title: '期間限定公開',
      content: '<p>月末まで公開です。</p>',
      tags: [],
    },
  ];
  it.each(rows)('$kind', (row) => {
    const answer = CANDFANS_FIXTURES[row.kind].answer as { data: unknown[] };
    const post = timelinePost.parse(answer.data[0]);
    expect(visibility(post)).toBe(row.seen);
    const media = postMedia(post, IMG);
    expect(media.items.map((m) => `.${m.name.split('.').pop()}${m.hls ? ' (hls)' : ''}`)).toEqual(row.media);
    for (const m of media.items) expect(m.url).toMatch(/^https:\/\/(image|video)\.candfans\.jp\/user\/\d+\/post\/\d+\//);
    expect(media.thumbnail !== undefined).toBe(row.thumbnail);
    if (media.thumbnail) expect(media.thumbnail).toMatch(/^https:\/\/image\.candfans\.jp\/user\/\d+\/post\/\d+\/thumbnail\.jpg$/);
    const archived = { thumbnail: media.thumbnail ? file('thumbnail.jpg') : undefined, files: media.items.map((m) => file(m.name)) };
    const stored = postInput(post, String(post.user_id), paragraphsHtml(post.contents_text), archived);
    expect(stored).toMatchObject({ service: 'candfans', id: String(post.post_id), title: row.title, content: row.content, tags: row.tags });
    expect(stored.published).toBe(candfansTime(post.post_date));
    expect(stored.file).toEqual(archived.thumbnail ?? null);
    expect(stored.attachments).toEqual(archived.files);
  });

  it('reads post_date as Japan time, and falls back to the image paths without attachments', () => {
    expect(candfansTime('2024-02-10 22:17:15')).toBe('2024-02-10T13:17:15');
    expect(candfansTime('')).toBeNull();
    expect(hashtags('＃全角 and #half_width, not a#tag, (#括弧)')).toEqual(['全角', 'half_width', '括弧']);
    const gallery = timelinePost.parse(CANDFANS_FIXTURES.gallery.answer.data[0]);
    const older = { ...gallery, attachments: undefined };
    expect(postMedia(older, IMG).items.map((m) => m.url)).toEqual(
      [gallery.contents_path1, gallery.contents_path2, gallery.contents_path3].map((p) => `${IMG}${p}`),
    );
    // Without a thumbnail, an image post's first image is its file.
    const bare = postInput({ ...older, thumbnail_file: '' }, '1', '', { files: [file('a.jpg'), file('b.jpg')] });
    expect([bare.file, bare.attachments]).toEqual([file('a.jpg'), [file('b.jpg')]]);
  });
});
