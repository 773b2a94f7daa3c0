/**
 * Fantia: the fake fantia.jp (tests/fakes/fantia.ts) answers and refuses as the real site does (real
 * HTTP with fetch), and the importer's mapping of the recorded-shape fixtures (one row per content kind).
 * The importer against the fake: fantia-import.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArchiveLister } from '../../../api/media/archives.ts';
import { post as postSchema } from '@api/importer/paysites/fantia/api.ts';
import { mapPost, photoName } from '@api/importer/paysites/fantia/map.ts';
import { parseDelta } from '@api/importer/paysites/fantia/quill.ts';
import { fantiaFixtures } from '../../fakes/fantia-fixtures.ts';
import { FAKE_FANTIA_KEY, startFakeFantia, type FakeFantia } from '../../fakes/fantia.ts';

let fake: FakeFantia;
beforeEach(async () => {
  fake = await startFakeFantia({ pageSize: 8 });
});
afterEach(() => fake.close());

const cookie = (key = FAKE_FANTIA_KEY) => ({ cookie: `_session_id=${key}` });
const get = (pathOrUrl: string, headers: Record<string, string> = {}) =>
  fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${fake.url}${pathOrUrl}`, { headers, redirect: 'manual' });
const csrfOf = (html: string) => /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? '';
/** What an importer does: read a token from a page with the session, then call the post API. */
async function postApi(id: number, key = FAKE_FANTIA_KEY, extra: Record<string, string> = {}) {
  const token = csrfOf(await (await get(`/posts/${id}`, cookie(key))).text());
  return get(`/api/v1/posts/${id}`, {
    ...cookie(key),
    'x-csrf-token': token,
    'x-requested-with': 'XMLHttpRequest',
    accept: 'application/json, text/plain, */*',
    ...extra,
  });
}
/** Parsed JSON answers, read loosely as an importer would. */
type Json = Record<string, any>;
const postJson = async (id: number) => ((await (await postApi(id)).json()) as Json).post as Json;
const follow = async (location: string) => get(location.startsWith('/') ? `${fake.url}${location}` : location);

describe('the fake Fantia', () => {
  it('checks the key on /api/v1/me and the /mypage pages', async () => {
    const me = await get('/api/v1/me', cookie());
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: 7000001, name: 'テスト支援者' });
    expect((await get('/api/v1/me', cookie('0000000000000000000000000000dead'))).status).toBe(401);
    expect((await get('/api/v1/me')).status).toBe(401);
    expect((await get('/api/v1/me/fanclubs')).status).toBe(401);
    const plans = await get('/mypage/users/plans?type=not_free&page=1', cookie('wrong'));
    expect(plans.status).toBe(302);
    expect(plans.headers.get('location')).toBe(`${fake.url}/sessions/signin`);
    expect((await fetch(`${fake.url}/mypage/users/plans`, { method: 'HEAD', headers: cookie(), redirect: 'manual' })).status).toBe(200);
  });

  it('lists the paid and the free plans the key holds, by page, in both scraped forms', async () => {
    const html = await (await get('/mypage/users/plans?type=not_free&page=1', cookie())).text();
    const links = [...html.matchAll(/class="user-avatar" href="\/fanclubs\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(links).toEqual([130541, 245001]);
    expect(html.match(/<div class="mb-5-children"><div[^>]*><a class="user-avatar" href="\/fanclubs\//g)).toHaveLength(2);
    expect(await (await get('/mypage/users/plans?type=not_free&page=2', cookie())).text()).not.toContain('user-avatar');
    const free = await (await get('/mypage/users/plans?type=free&page=1', cookie())).text();
    expect([...free.matchAll(/class="user-avatar" href="\/fanclubs\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual([130541]);
    expect(await (await get('/api/v1/me/fanclubs', cookie())).json()).toEqual({ fanclub_ids: [130541, 245001, 300777] });
  });

  it('serves the fanclub (name, icon, banner) and the timeline', async () => {
    const { fanclub } = (await (await get('/api/v1/fanclubs/130541', cookie())).json()) as Json;
    expect(fanclub).toMatchObject({ id: 130541, name: 'ゆめかわ工房', creator_name: '夢川ユメ', is_join: true });
    expect(fanclub.plans.find((p: Json) => p.id === 11).order.status).toBe('joined');
    for (const image of [fanclub.icon.original, fanclub.cover.original]) {
      const res = await get(image);
      expect(res.status).toBe(200);
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(16);
    }
    expect((await get('/api/v1/fanclubs/999', cookie())).status).toBe(404);
    expect((await get(fanclub.icon.original.replace('5c1c8f2e', 'deadbeef'))).status).toBe(404);
    const t1 = (await (await get('/api/v1/me/timelines/posts?page=1&per=24', cookie())).json()) as Json;
    const t2 = (await (await get('/api/v1/me/timelines/posts?page=2&per=24', cookie())).json()) as Json;
    expect(t1.posts).toHaveLength(24);
    expect(t1.has_next).toBe(true);
    expect(t2).toMatchObject({ has_next: false });
    expect(t2.posts).toHaveLength(4);
  });

  it('pages the fanclub post list until a page has no posts, without the deleted post', async () => {
    const ids: number[] = [];
    let pages = 0;
    for (let n = 1; n < 10; n++) {
      const res = await get(`/fanclubs/130541/posts?page=${n}`, cookie());
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(csrfOf(html)).not.toBe('');
      const found = [...html.matchAll(/class="link-block" href="\/posts\/(\d+)"/g)].map((m) => Number(m[1]));
      if (found.length === 0) break;
      pages++;
      ids.push(...found);
      expect(html.includes('rel="next"')).toBe(found.length === 8 && n < 3);
    }
    expect(pages).toBe(3);
    expect(ids).toHaveLength(22);
    expect(new Set(ids).size).toBe(22);
    expect(ids).not.toContain(2100013);
    expect(ids[0]).toBe(2100028);
    const second = await (await get('/fanclubs/130541/posts?page=2', cookie())).text();
    expect(second).toMatch(
      /<h3 class="post-title">修正版アップしました<\/h3><span class="post-date"><span class="mr-5">2024-05-12 12:00<\/span><small class="text-muted">更新<\/small>/,
    );
    expect((await get('/fanclubs/999/posts?page=1')).status).toBe(404);
  });

  it('refuses the post API without a token of the same session, without X-Requested-With, and for a dead key', async () => {
    expect((await postApi(2100002)).status).toBe(200);
    expect((await postApi(2100002, FAKE_FANTIA_KEY, { 'x-csrf-token': '' })).status).toBe(403);
    // A page fetched without the session starts another one: its token is not the key's.
    const anonymous = await get('/posts/2100002');
    expect(anonymous.headers.get('set-cookie')).toMatch(/^_session_id=[0-9a-f]{32};/);
    const foreign = csrfOf(await anonymous.text());
    expect((await postApi(2100002, FAKE_FANTIA_KEY, { 'x-csrf-token': foreign })).status).toBe(403);
    const noXhr = await postApi(2100002, FAKE_FANTIA_KEY, { 'x-requested-with': '' });
    expect(noXhr.status).toBe(422);
    expect(await noXhr.json()).toEqual({ error_text: 'システムエラー' });
    expect((await postApi(2100002, 'ffffffffffffffffffffffffffffffff')).status).toBe(403);
    expect((await postApi(2100013)).status).toBe(404);
  });

  it('answers each content kind as Fantia marks it', async () => {
    const gallery = await postJson(2100002);
    expect(gallery.posted_at).toBe('Thu, 02 May 2024 12:00:00 +0900');
    expect(gallery.tags.map((t: Json) => t.name)).toEqual(['イラスト', 'spring']);
    expect(gallery.post_contents[0]).toMatchObject({ category: 'photo_gallery', visible_status: 'visible' });
    expect(gallery.post_contents[0].post_content_photos).toHaveLength(3);
    const file = (await postJson(2100003)).post_contents[0];
    expect(file).toMatchObject({
      category: 'file',
      filename: '素材パック v2.zip',
      content_type: 'application/zip',
      download_uri: '/posts/2100003/download/3100003',
    });
    const locked = (await postJson(2100009)).post_contents;
    expect(locked[0]).toMatchObject({ visible_status: 'visible', comment: '全員に見えます' });
    expect(locked[1]).toMatchObject({ visible_status: 'uncatchable', comment: null });
    expect(locked[1].post_content_photos).toBeUndefined();
    expect(locked[1].plan.price).toBe(1500);
    const blog = (await postJson(2100006)).post_contents[0];
    const ops = JSON.parse(blog.comment).ops;
    expect(ops[1].insert.fantiaImage.original_url).toMatch(/^\/posts\/2100006\/album_image\?query=/);
    expect(ops[3]).toEqual({ insert: 'pixiv', attributes: { link: 'https://www.pixiv.net/users/1' } });
    expect((await postJson(2100007)).post_contents[0].embed_url).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect((await postJson(2100011)).post_contents[0].product).toMatchObject({ name: '画集 Vol.1', uri: '/products/900001' });
    expect((await postJson(2100014)).title).toBe('🎉 100人達成！ありがとう 🙏');
    const video = await postJson(2100004);
    expect(video).toMatchObject({ comment: null });
    expect(video.thumb.original).toMatch(/\/uploads\/post\/file\/2100004\/c3d4e5f6-making\.jpg$/);
    // Another fanclub only followed: nothing visible, no download link.
    expect((await postJson(2300002)).post_contents[0]).toMatchObject({ visible_status: 'uncatchable', filename: 'x.zip' });
    expect((await postJson(2300002)).post_contents[0].download_uri).toBeUndefined();
  });

  it('hides adult contents once the account setting is turned off through the account form', async () => {
    expect((await postJson(2100010)).post_contents[0].visible_status).toBe('visible');
    const edit = await (await get('/mypage/account/edit', cookie())).text();
    expect(edit).toMatch(/<input type="checkbox" value="adult" name="user\[rating\]" id="user_rating" checked="checked">/);
    const token = /name="authenticity_token" value="([^"]+)"/.exec(edit)![1];
    const post = (body: string) =>
      fetch(`${fake.url}/mypage/users/update_rating`, {
        method: 'POST',
        headers: { ...cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
    expect((await post('utf8=%E2%9C%93&user%5Brating%5D=general&commit=x')).status).toBe(422);
    expect(fake.adult).toBe(true);
    const changed = await post(`utf8=%E2%9C%93&authenticity_token=${encodeURIComponent(token)}&user%5Brating%5D=general&commit=x`);
    expect(changed.status).toBe(302);
    expect(fake.adult).toBe(false);
    const hidden = (await postJson(2100010)).post_contents[0];
    expect(hidden).toMatchObject({ visible_status: 'adult_only' });
    expect(hidden.post_content_photos).toBeUndefined();
    expect(await (await get('/mypage/account/edit', cookie())).text()).not.toContain('checked');
  });

  it('serves real media bytes through signed, expiring cc URLs', async () => {
    const gallery = await postJson(2100002);
    const original = gallery.post_contents[0].post_content_photos[0].url.original as string;
    expect(original).toMatch(/\/uploads\/post_content_photo\/file\/4100001\/a01ddcb7-sakura\.jpg\?Key-Pair-Id=.+&Policy=.+&Signature=.+/);
    const jpeg = Buffer.from(await (await get(original)).arrayBuffer());
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg');
    const bare = await get(original.split('?')[0]);
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('<Code>MissingKey</Code>');
    expect((await get(original.replace(/Signature=[^&]+/, 'Signature=forged'))).status).toBe(403);
    expect((await get(original.replace('/4100001/', '/4100002/'))).status).toBe(403);

    const download = async (postId: number, contentId: number) => {
      const hop = await get(`/posts/${postId}/download/${contentId}`, cookie());
      expect(hop.status).toBe(302);
      const res = await follow(hop.headers.get('location')!);
      expect(res.status).toBe(200);
      return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()), location: hop.headers.get('location')! };
    };
    const video = await download(2100004, 3100004);
    expect(video.type).toBe('video/mp4');
    expect(video.bytes.subarray(4, 8).toString()).toBe('ftyp');
    expect(video.location).toContain(encodeURIComponent('sh83-1_メイキング.mp4'));
    const audio = await download(2100005, 3100005);
    expect(audio.bytes.subarray(0, 3).toString()).toBe('ID3');
    const zip = await download(2100003, 3100003);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fantia-zip-'));
    fs.writeFileSync(path.join(dir, 'pack.zip'), zip.bytes);
    const listing = await createArchiveLister().list(path.join(dir, 'pack.zip'), 'zip');
    fs.rmSync(dir, { recursive: true });
    expect(listing.kind).toBe('listed');
    expect(listing.kind === 'listed' && listing.entries.map((e) => e.name).sort()).toEqual(['images/preview.png', 'readme.txt']);

    const ops = JSON.parse((await postJson(2100006)).post_contents[0].comment).ops;
    const album = await get(ops[1].insert.fantiaImage.original_url, cookie());
    expect(album.status).toBe(302);
    const inline = Buffer.from(await (await follow(album.headers.get('location')!)).arrayBuffer());
    expect((await sharp(inline).metadata()).format).toBe('png');
    expect((await get(`${ops[1].insert.fantiaImage.original_url}x`, cookie())).status).toBe(404);

    // A content the key's plan does not reach: the download link lands on the post's page.
    const refused = await get('/posts/2300002/download/3300002', cookie());
    expect(refused.headers.get('location')).toBe(`${fake.url}/posts/2300002`);
    // Signed URLs expire.
    fake.advanceTime(3601);
    const expired = await get(original);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('honours rateLimit, fail, expireKey, editPost, captcha and delayMs', async () => {
    fake.rateLimit(1, 7);
    const limited = await get('/api/v1/me', cookie());
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    fake.fail(1, 502);
    expect((await get('/api/v1/me', cookie())).status).toBe(502);
    expect((await get('/api/v1/me', cookie())).status).toBe(200);

    const before = await postJson(2100001);
    fake.advanceTime(60);
    fake.editPost(2100001, { comment: '書き直しました' });
    const after = await postJson(2100001);
    expect(after.comment).toBe('書き直しました');
    expect(after.converted_at > before.converted_at).toBe(true);

    fake.captcha(true);
    expect((await get('/posts/2100001', cookie())).headers.get('location')).toBe(`${fake.url}/recaptcha`);
    const wall = await (await get('/recaptcha', cookie())).text();
    expect(wall).toContain('id="recaptcha_verify"');
    const flagged = await postApi(2100001, FAKE_FANTIA_KEY, { 'x-csrf-token': csrfOf(wall) });
    expect(await flagged.json()).toEqual({ redirect: '/recaptcha' });
    fake.captcha(false);

    fake.delayMs = 150;
    const started = Date.now();
    await get('/api/v1/me', cookie());
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    fake.delayMs = 0;

    fake.expireKey();
    expect((await get('/api/v1/me', cookie())).status).toBe(401);
    expect((await get('/mypage/account/edit', cookie())).status).toBe(302);
    expect((await postApi(2100001)).status).toBe(403);
    expect(fake.requests.some((r) => r.path === '/api/v1/me' && r.status === 429 && r.headers.cookie)).toBe(true);
  });

  it('answers with the shapes of the recorded fixtures', async () => {
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
    const pairs: [number, Json][] = [
      [2100002, fantiaFixtures.gallery],
      [2100003, fantiaFixtures.file],
      [2100006, fantiaFixtures.blog],
      [2100009, fantiaFixtures.locked],
      [2100008, fantiaFixtures.textContent],
    ];
    for (const [id, fixture] of pairs) {
      const answer = (await (await postApi(id)).json()) as Json;
      const strip = (p: Json) => ({
        ...p,
        fanclub: shape({ ...p.fanclub, recent_posts: [] }),
        links: null,
        thumb: p.thumb && shape(p.thumb),
      });
      expect(shape(strip(answer.post)), String(id)).toEqual(shape(strip(fixture.post)));
    }
  });
});

describe('mapping Fantia posts (recorded-shape fixtures)', () => {
  const images = {
    fantia: (image: { original_url?: string | null }) =>
      image.original_url ? `https://cc.fantia.jp/resolved${image.original_url.split('?')[0]}.png` : undefined,
    archivable: (url: string) => new URL(url).hostname.endsWith('fantia.jp'),
  };
  const map = (fixture: { post: unknown }) => mapPost(postSchema.parse(fixture.post), '130541', images);
  const stored = (fixture: { post: unknown }) => {
    const mapped = map(fixture);
    if (mapped.locked) throw new Error('locked');
    return mapped.post;
  };
  type Row = [kind: string, fixture: { post: unknown }, expected: Record<string, unknown>];
  const rows: Row[] = [
    [
      'text only',
      fantiaFixtures.textOnly,
      {
        title: '初投稿です！',
        content: '<p>はじめまして。<br>よろしくお願いします。</p>',
        tags: ['お知らせ'],
        published: '2024-05-01T03:00:00',
        edited: null,
        embed: null,
        incomplete_rewards: null,
      },
    ],
    [
      'text content',
      fantiaFixtures.textContent,
      { content: '<p>本文はコンテンツ内にあります</p><h3>設定</h3><p>身長: 155cm<br>好きなもの: 🍓</p>' },
    ],
    [
      'gallery',
      fantiaFixtures.gallery,
      {
        title: 'Gallery: spring set 🌸',
        content: '<p>春のイラスト3枚です。</p><h3>春セット</h3><p>JPEG and PNG</p><p>桜</p><p>つくし</p>',
        tags: ['イラスト', 'spring'],
      },
    ],
    ['file', fantiaFixtures.file, { content: '<p>差分つきです。</p><h3>ZIP</h3><p>PSD同梱</p>' }],
    ['video', fantiaFixtures.video, { title: 'メイキング動画', content: '' }],
    ['audio', fantiaFixtures.audio, { content: '<p>イヤホン推奨</p><h3>音声</h3>' }],
    [
      'blog with inline image',
      fantiaFixtures.blog,
      {
        content:
          '<h3>制作日記</h3><p>今日はラフを描きました。</p><p><img src="https://cc.fantia.jp/resolved/posts/2100006/album_image.png" alt=""></p><p>参考: <a href="https://www.pixiv.net/users/1">pixiv</a></p><p><a href="https://example.com/outside.png">https://example.com/outside.png</a></p><p>おわり</p>',
      },
    ],
    [
      'embed',
      fantiaFixtures.embed,
      { embed: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', subject: 'アーカイブ', description: null } },
    ],
    [
      'partly locked',
      fantiaFixtures.locked,
      {
        content: '<p>1500円プラン向け</p><h3>お知らせ</h3><p>全員に見えます</p>',
        incomplete_rewards: 'Not archived: 1 content for a higher plan (高解像度プラン, 1500円).',
      },
    ],
    [
      'unicode title',
      fantiaFixtures.unicodeTitle,
      { title: '🎉 100人達成！ありがとう 🙏', content: '<p>記念イラストは来週！<br>🎂🎂🎂</p>', tags: ['記念', '🎉'] },
    ],
    ['edited', fantiaFixtures.edited, { published: '2024-05-12T03:00:00', edited: '2024-05-13T04:00:00' }],
  ];
  it.each(rows)('%s', (_kind, fixture, expected) => {
    expect(stored(fixture)).toMatchObject({ service: 'fantia', user: '130541', ...expected });
  });

  it('leaves out what the key cannot see: an adult post with the setting off, a deleted post, a captcha answer', () => {
    const adult = map(fantiaFixtures.adultOnly);
    expect(adult.locked).toBe(true);
    expect(adult.split.adultOnly).toHaveLength(1);
    // A deleted post is a 404 and a flagged session has no `post`: neither is a post shape.
    expect(postSchema.safeParse((fantiaFixtures.deleted.body as { post?: unknown }).post).success).toBe(false);
    expect(postSchema.safeParse((fantiaFixtures.recaptcha as { post?: unknown }).post).success).toBe(false);
  });

  it('reads a comment as a Quill delta only when it is one, and names photos by their file', () => {
    expect(parseDelta('{この投稿は準備中です}')).toBeUndefined();
    expect(parseDelta('{"ops":[{"insert":"a\\n"}]}')).toEqual([{ insert: 'a\n' }]);
    const withDelta = {
      ...fantiaFixtures.textOnly.post,
      comment:
        '{"ops":[{"insert":"Bold","attributes":{"bold":true}},{"insert":"\\nItem"},{"insert":"\\n","attributes":{"list":"bullet"}}]}',
    };
    expect(stored({ post: withDelta }).content).toBe('<p><strong>Bold</strong></p><ul><li>Item</li></ul>');
    const gallery = fantiaFixtures.gallery.post.post_contents[0] as { post_content_photos: { id: number; url: { original: string } }[] };
    expect(photoName(gallery.post_content_photos[0].url.original, 1)).toBe('a01ddcb7-sakura.jpg');
  });
});
