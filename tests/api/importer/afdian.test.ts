/**
 * Afdian: the fake of tests/fakes/afdian.ts (real HTTP, the web API of ifdian.net with its {ec, em, data}
 * envelope, publish_sn paging and refusals, and a CDN server for pic1/vod.afdiancdn.com), the importer's
 * mapper over the recorded-shape fixtures, and the benchmark entry. The importer against the fake:
 * afdian-import.test.ts.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { afdianFixtures } from '../../fakes/afdian-fixtures.ts';
import { FAKE_AFDIAN_KEY, startFakeAfdian, type FakeAfdian, type FakeAfdianOptions } from '../../fakes/afdian.ts';
import { readZip } from '../../fakes/kit/zip.ts';
import { AfdianAnswerError, detailOf, isOn } from '@api/importer/paysites/afdian/api.ts';
import { attachmentsOf, bodyHtml, mapPost, originalPic, postTitle } from '@api/importer/paysites/afdian/map.ts';

let fake: FakeAfdian | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
async function start(options: FakeAfdianOptions = {}) {
  fake = await startFakeAfdian(options);
  return fake;
}

type Json = Record<string, any>;
const COOKIE = { cookie: `_ga=GA1.1.1; auth_token=${FAKE_AFDIAN_KEY}` };
async function get(url: string, headers: Record<string, string> = COOKIE) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}
const bytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
};
const creator = (f: FakeAfdian, slug: string) => f.dataset.creators.find((c) => c.slug === slug)!;
const postId = (f: FakeAfdian, title: string) => f.dataset.creators.flatMap((c) => c.posts).find((p) => p.title === title)!.postId;
const detail = async (f: FakeAfdian, title: string, headers: Record<string, string> = COOKIE) =>
  (await get(`${f.url}/api/post/get-detail?post_id=${postId(f, title)}&album_id=`, headers)).body.data.post as Json;

/** Walks get-list the way KT/QW do: publish_sn of the last item, until has_more is 0. */
async function walk(f: FakeAfdian, userId: string, headers: Record<string, string> = COOKIE) {
  const pages: Json[][] = [];
  let cursor = '';
  for (;;) {
    const { body } = await get(
      `${f.url}/api/post/get-list?user_id=${userId}&type=old&publish_sn=${cursor}&per_page=10&group_id=&all=1&is_public=&plan_id=&title=&name=`,
      headers,
    );
    expect(body.ec).toBe(200);
    pages.push(body.data.list);
    if (!body.data.has_more) return pages;
    cursor = String(body.data.list[body.data.list.length - 1].publish_sn);
  }
}

describe('the fake Afdian', () => {
  it('refuses /api/my/* without the auth_token, with a wrong one and after expireKey (HTTP 401, ec 401)', async () => {
    const f = await start();
    const attempts: Record<string, string>[] = [{}, { cookie: 'auth_token=0000_1' }, { authorization: `Bearer ${FAKE_AFDIAN_KEY}` }];
    for (const headers of attempts) {
      const refused = await get(`${f.url}/api/my/profile`, headers);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ ec: 401, em: '请先登录' });
    }
    const me = await get(`${f.url}/api/my/profile`);
    expect(me.body).toMatchObject({ ec: 200, data: { user: { name: '测试粉丝', url_slug: 'testfan' } } });
    f.expireKey();
    expect((await get(`${f.url}/api/my/sponsoring?need_sponsor_info=1`)).status).toBe(401);
  });

  it('can refuse the way an HTTP 200 with ec 401 does', async () => {
    const f = await start({ refusal: 'ec' });
    const refused = await get(`${f.url}/api/my/sponsoring`, {});
    expect(refused.status).toBe(200);
    expect(refused.body.ec).toBe(401);
  });

  it('lists the sponsored creators (and the expired ones apart) and their profiles with icon and banner', async () => {
    const f = await start();
    const { body } = await get(`${f.url}/api/my/sponsoring?need_sponsor_info=1`);
    expect(body.data.sponsoring.map((s: Json) => s.user.url_slug)).toEqual(['hoshino', 'LumenAudio']);
    expect(body.data.sponsoring_expired.map((s: Json) => s.user.name)).toEqual(['旧梦']);
    expect(body.data.sponsoring[0].sale_list[0]).toMatchObject({ total_amount: '30.00', month: 1 });
    const profile = (await get(`${f.url}/api/user/get-profile-by-slug?url_slug=hoshino`)).body.data.user;
    expect(profile).toMatchObject({ name: '星野工作室', is_sponsoring: 1 });
    for (const url of [profile.avatar, profile.cover]) expect((await sharp((await bytes(url)).body).metadata()).format).toBe('jpeg');
    expect((await get(`${f.url}/api/user/get-profile?user_id=${profile.user_id}`, {})).body.data.user.is_sponsoring).toBeUndefined();
    const missing = await get(`${f.url}/api/user/get-profile-by-slug?url_slug=nobody`);
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ ec: 404 });
  });

  it('pages get-list by publish_sn, pinned post first, and stops on has_more 0', async () => {
    const f = await start({ pageSize: 5 });
    const pages = await walk(f, creator(f, 'hoshino').userId);
    expect(pages.map((p) => p.length)).toEqual([6, 5, 3]);
    expect(pages[0][0]).toMatchObject({ title: '【置顶】赞助说明', user_top: 1 });
    const ids = pages.flat().map((p) => p.post_id);
    expect(new Set(ids).size).toBe(13);
    expect(ids.filter((id) => id === pages[0][0].post_id)).toHaveLength(2);
    expect(pages.flat().some((p) => p.title === '已删除的动态')).toBe(false);
    const sns = pages
      .flat()
      .slice(1)
      .map((p) => p.publish_sn);
    expect(sns).toEqual([...sns].sort((a, b) => b - a));
  });

  it('honours per_page when no page size is forced', async () => {
    const f = await start();
    expect((await walk(f, creator(f, 'hoshino').userId)).map((p) => p.length)).toEqual([11, 3]);
  });

  it('answers has_right by the sponsored plan, and a wrong key like no key on public endpoints', async () => {
    const f = await start();
    const open = await detail(f, '四月草图合集');
    expect(open).toMatchObject({ has_right: 1, has_right_errMsg: null });
    expect(open.pics).toHaveLength(3);
    const locked = await detail(f, '高级方案专属');
    expect(locked).toMatchObject({ has_right: 0, pics: [], audio: '', video: '', content: '此内容为高级方案专属。', min_price: '60.00' });
    expect(locked.has_right_errMsg).toBeTruthy();
    const anonymous = await detail(f, '四月草图合集', { cookie: 'auth_token=wrong_1' });
    expect(anonymous).toMatchObject({ has_right: 0, pics: [] });
    expect((await detail(f, '【置顶】赞助说明', {})).has_right).toBe(1);
    const expired = (await walk(f, creator(f, 'jiumeng').userId))[0];
    expect(expired[0].has_right).toBe(0);
  });

  it('gives articles as an excerpt in the list and as HTML with an inline image in the detail; deleted posts are an ec error', async () => {
    const f = await start();
    const list = (await walk(f, creator(f, 'hoshino').userId)).flat();
    expect(list.find((p) => p.title === '上色教程：云')!.content).not.toContain('<img');
    const article = await detail(f, '上色教程：云');
    const src = /<img src="([^"]+)"/.exec(article.content)![1];
    expect((await sharp((await bytes(src)).body).metadata()).width).toBe(32);
    expect(article.content).toContain('https://www.bilibili.com/video/BV1xx411c7mD');
    const gone = await get(`${f.url}/api/post/get-detail?post_id=${postId(f, '已删除的动态')}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ ec: 404 });
  });

  it('pages comments by publish_sn', async () => {
    const f = await start({ commentPageSize: 2 });
    const first = (await get(`${f.url}/api/comment/get-list?post_id=${postId(f, '日常碎碎念')}&publish_sn=&type=old&hot=1`)).body.data;
    expect(first.list).toHaveLength(2);
    expect(first.has_more).toBe(1);
    const next = (
      await get(`${f.url}/api/comment/get-list?post_id=${postId(f, '日常碎碎念')}&publish_sn=${first.list[1].publish_sn}&type=old&hot=1`)
    ).body.data;
    expect(next.list.map((c: Json) => c.user.name)).toEqual(['小林']);
    expect(next.has_more).toBe(0);
    expect(first.list[1]).toMatchObject({ content: '谢谢～', reply_user: { name: '小林' } });
  });

  it('serves pictures, thumbnails and refuses a foreign Referer', async () => {
    const f = await start();
    const [pic] = (await detail(f, '四月草图合集')).pics;
    expect(pic).toMatch(/\/user\/[0-9a-f]{32}\/common\/[0-9a-f]{32}_w24_h16_s1\.jpeg$/);
    expect(await sharp((await bytes(pic)).body).metadata()).toMatchObject({ format: 'jpeg', width: 24, height: 16 });
    expect(await sharp((await bytes(`${pic}?imageView2/1/w/8/h/8`)).body).metadata()).toMatchObject({ width: 8, height: 8 });
    expect((await bytes(pic, { referer: 'https://evil.example/' })).status).toBe(403);
    expect((await bytes(pic, { referer: 'https://ifdian.net/p/abc' })).status).toBe(200);
  });

  it('serves signed audio, video (Range) and attachment zips; refuses unsigned, altered or expired links', async () => {
    const f = await start();
    const audio = (await detail(f, '睡前故事（音频）')).audio;
    expect(audio).toMatch(/\.mp3\?t=[0-9a-f]+&us=[0-9a-f]+&sign=[0-9a-f]{32}$/);
    const mp3 = await bytes(audio);
    expect(mp3.status).toBe(200);
    expect([...mp3.body.subarray(0, 2)]).toEqual([0xff, 0xfb]);
    expect((await bytes(audio.split('?')[0])).status).toBe(403);
    expect((await bytes(audio.replace(/us=[0-9a-f]+/, 'us=00'))).status).toBe(403);
    const video = (await detail(f, '绘画过程录屏')).video;
    expect((await bytes(video)).body.subarray(4, 8).toString()).toBe('ftyp');
    const part = await bytes(video, { range: 'bytes=10-' });
    expect(part.status).toBe(206);
    const [attachment] = (await detail(f, '设定资料下载')).attachment;
    expect(attachment.name).toBe('角色设定资料.zip');
    const zip = await bytes(attachment.url);
    expect(zip.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('角色设定资料.zip')}`);
    expect(zip.body.length).toBe(attachment.size);
    expect(readZip(zip.body).map((e) => e.name)).toEqual(['README.txt', '设定/角色A.txt']);
    f.advanceTime(3601);
    expect((await bytes(audio)).status).toBe(403);
  });

  it('honours rateLimit, fail, editPost, deletePost and delayMs, and logs requests with the cookie', async () => {
    const f = await start();
    f.rateLimit(1, 5);
    const limited = await get(`${f.url}/api/my/profile`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('5');
    f.fail(1);
    expect((await get(`${f.url}/api/my/profile`)).status).toBe(503);
    f.editPost(postId(f, '日常碎碎念'), { title: '日常碎碎念（修改）', content: '<p>改过了。</p>' });
    expect(await detail(f, '日常碎碎念（修改）')).toMatchObject({ title: '日常碎碎念（修改）', content: '<p>改过了。</p>' });
    f.deletePost(postId(f, '四月草图合集'));
    expect((await get(`${f.url}/api/post/get-detail?post_id=${postId(f, '四月草图合集')}`)).body.ec).toBe(404);
    f.delayMs = 120;
    const started = Date.now();
    await get(`${f.url}/api/my/profile`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(f.requests[0]).toMatchObject({
      method: 'GET',
      host: 'api',
      path: '/api/my/profile',
      status: 429,
      headers: { cookie: COOKIE.cookie },
    });
  });

  it('has a fixture for every content kind, in the shapes the fake serves', () => {
    const kinds = afdianFixtures.map((x) => x.kind.split(' (')[0]);
    for (const kind of ['text only', 'gallery', 'file', 'blog', 'embed', 'video', 'audio', 'locked', 'deleted', 'unicode title'])
      expect(kinds).toContain(kind);
    const locked = afdianFixtures.find((x) => x.kind.startsWith('locked'))!.body as Json;
    expect(locked.data.post).toMatchObject({ has_right: 0, audio: '', pics: [] });
    const audio = afdianFixtures.find((x) => x.kind.startsWith('audio'))!.body as Json;
    expect(audio.data.post.audio).toMatch(/^https:\/\/vod\.afdiancdn\.com\//);
  });
});

describe('the fake Afdian: albums and redirects', () => {
  it('lists albums with bought only for the key, gives a catalog, and opens a bought album post inside it', async () => {
    const f = await start();
    const lumen = creator(f, 'LumenAudio');
    const albums = (await get(`${f.url}/api/user/get-album-list?user_id=${lumen.userId}&page=1&per_page=20`)).body.data;
    expect(albums.list.map((a: Json) => [a.title, a.bought])).toEqual([
      ['Night Drive EP', 1],
      ['All the stems', 0],
    ]);
    expect((await get(`${f.url}/api/user/get-album-list?user_id=${lumen.userId}&page=1`, {})).body.data.list[0].bought).toBe(0);
    const ep = albums.list[0].album_id;
    const catalog = (await get(`${f.url}/api/user/get-album-catalog?album_id=${ep}`)).body.data.list;
    expect(catalog).toMatchObject([{ title: 'Night drive (EP track)', rank: 1, has_audio: 1 }]);
    expect(catalog[0].audio).toBeUndefined();
    const outside = await detail(f, 'Night drive (EP track)');
    expect(outside).toMatchObject({ has_right: 0, audio: '' });
    const inside = (await get(`${f.url}/api/post/get-detail?post_id=${catalog[0].post_id}&album_id=${ep}`)).body.data.post;
    expect(inside.has_right).toBe(1);
    expect(inside.audio).toMatch(/\.mp3\?t=/);
  });

  it('with attachmentRedirect, links attachments through the site (key needed) to the signed CDN link', async () => {
    const f = await start({ attachmentRedirect: true });
    const [attachment] = (await detail(f, '设定资料下载')).attachment;
    expect(attachment.url.startsWith(f.url)).toBe(true);
    const hop = await fetch(attachment.url, { headers: COOKIE, redirect: 'manual' });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toMatch(new RegExp(`^${f.cdnUrl}/.*sign=`));
    expect((await fetch(attachment.url, { redirect: 'manual' })).status).toBe(403);
  });
});

/** Each recorded fixture through the mapper: what the stored post gets (before its files are archived). */
describe('afdian mapper (recorded-shape fixtures)', () => {
  const fixture = (kind: string) => afdianFixtures.find((x) => x.kind.startsWith(kind))!.body;
  const rows: {
    kind: string;
    title?: string;
    html?: RegExp;
    main?: RegExp | null;
    attachments?: (string | RegExp)[];
    embed?: string | null;
    locked?: boolean;
  }[] = [
    {
      kind: 'text only',
      title: '日常碎碎念',
      html: /^<p>今天画了很久的背景。<\/p><p>明天继续 &amp; 加油！<\/p>$/,
      main: null,
      attachments: [],
    },
    { kind: 'gallery', title: '四月草图合集', main: /_w24_h16_s1\.jpeg$/, attachments: [/_w16_h12_s1\.jpeg$/, /_w16_h12_s1\.jpeg$/] },
    { kind: 'file', main: null, attachments: ['角色设定资料.zip'] },
    { kind: 'blog', html: /<img src="https:\/\/pic1\.afdiancdn\.com\/user\/[0-9a-f]{32}\/common\/[0-9a-f]{32}_w32_h24_s1\.jpeg"/ },
    { kind: 'embed', embed: 'https://www.bilibili.com/video/BV1xx411c7mD' },
    { kind: 'video', main: /_w32_h18_s1\.jpeg$/, attachments: ['绘画过程录屏.mp4'], embed: null },
    { kind: 'audio', main: /\.jpeg$/, attachments: ['睡前故事（音频）.mp3'] },
    { kind: 'locked', locked: true },
    { kind: 'unicode title', title: '🌸 中文标题 · 日本語 — ünïcödé', html: /emoji 🎨、שלום/ },
  ];
  for (const row of rows) {
    it(row.kind, () => {
      const mapped = mapPost(detailOf(fixture(row.kind)));
      expect(mapped.locked).toBe(row.locked ?? false);
      expect(mapped.published).toMatch(/^2025-0[45]-\d\dT\d\d:\d\d:00$/);
      if (row.title) expect(mapped.title).toBe(row.title);
      if (row.html) expect(mapped.html).toMatch(row.html);
      if (row.main === null) expect(mapped.media.main).toBeNull();
      else if (row.main) expect(mapped.media.main?.name).toMatch(row.main);
      if (row.attachments) {
        const names = mapped.media.attachments.map((a) => a.name);
        expect(names).toHaveLength(row.attachments.length);
        row.attachments.forEach((want, i) => (typeof want === 'string' ? expect(names[i]).toBe(want) : expect(names[i]).toMatch(want)));
      }
      if (row.embed !== undefined) expect(mapped.embed?.url ?? null).toBe(row.embed);
      for (const a of mapped.media.attachments) expect(a.url).toMatch(/^https:\/\/(pic1|vod)\.afdiancdn\.com\//);
    });
  }

  it('deleted: the detail is an application error, not a post', () => {
    expect(() => detailOf(fixture('deleted'))).toThrow(AfdianAnswerError);
    expect(() => detailOf(fixture('deleted'))).toThrow(/error 404 \(动态不存在\)/);
  });

  it('pinned: the list page heads with the pinned post (user_top), and its next cursor is a publish_sn', () => {
    const page = (fixture('list page') as Json).data;
    expect(isOn(page.list[0].user_top)).toBe(true);
    expect(isOn(page.has_more)).toBe(true);
    expect(String(page.list.at(-1).publish_sn)).toMatch(/^\d{14}$/);
  });

  it('reads attachments in the shapes QW accepts, strips thumbnails, titles untitled posts, and keeps plain text as paragraphs', () => {
    expect(attachmentsOf('https://vod.afdiancdn.com/a/b.zip?sign=1')).toEqual([
      { url: 'https://vod.afdiancdn.com/a/b.zip?sign=1', name: 'b.zip' },
    ]);
    expect(attachmentsOf([{ download_url: 'https://x.afdiancdn.com/f', file_name: 'a/b.psd' }, { nothing: 1 }])).toEqual([
      { url: 'https://x.afdiancdn.com/f', name: 'a_b.psd' },
    ]);
    expect(originalPic('https://pic1.afdiancdn.com/u/a.jpeg?imageView2/1/w/120/h/120')).toBe('https://pic1.afdiancdn.com/u/a.jpeg');
    expect(postTitle({ title: '', content: '<p>一二三</p>', preview_text: '' })).toBe('一二三');
    expect(bodyHtml({ content: 'line 1\nline <2>\n\npara 2' })).toBe('<p>line 1<br>line &lt;2&gt;</p><p>para 2</p>');
  });
});
