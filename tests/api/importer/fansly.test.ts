/**
 * The fake Fansly (tests/fakes/fansly.ts) answers and refuses as apiv3.fansly.com and cdn3.fansly.com
 * do, over real HTTP; the importer's mapper and signing, table-driven from the recorded-shape fixtures
 * (tests/fakes/fansly-fixtures.ts). The importer against the fake is in fansly-importer.test.ts.
 */
import sharp from 'sharp';
import { importSubmissionError } from '@shared/importer.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_FANSLY_CHECK_KEY,
  FAKE_FANSLY_SESSION_ID,
  FAKE_FANSLY_TOKEN,
  cyrb53,
  fanslyClientCheck,
  startFakeFansly,
  type FakeFansly,
} from '../../fakes/fansly.ts';
import { FANSLY_FIXTURES } from '../../fakes/fansly-fixtures.ts';
import { accountMedia, accounts, messagePage, postContainer, queryString, siteOrigin } from '@api/importer/paysites/fansly/api.ts';
import { hashtags, indexMedia, messagePlan, postPlan, profileImage, textHtml, type ItemPlan } from '@api/importer/paysites/fansly/map.ts';
import { checkKeyOf, clientCheck, cyrb53 as importerCyrb53, sessionIdOf, tokenOf } from '@api/importer/paysites/fansly/sign.ts';

let fake: FakeFansly;
let deviceId: string;

/** A GET the way the web app sends it: token, device id, client time, check digest, session id. */
async function api(path: string, opts: { omit?: string[]; set?: Record<string, string>; checkKey?: string } = {}) {
  const url = new URL(`${fake.apiUrl}${path}`);
  url.searchParams.set('ngsw-bypass', 'true');
  const headers: Record<string, string> = {
    authorization: fake.token,
    accept: 'application/json, text/plain, */*',
    origin: 'https://fansly.com',
    referer: 'https://fansly.com/',
    'fansly-client-id': deviceId,
    'fansly-client-ts': String(Date.now() + 1234),
    'fansly-client-check': fanslyClientCheck(opts.checkKey ?? fake.checkKey, url.pathname, deviceId),
    'fansly-session-id': fake.sessionId,
    ...opts.set,
  };
  for (const name of opts.omit ?? []) delete headers[name];
  const res = await fetch(url.toString().replaceAll('%2C', ','), { headers });
  return {
    status: res.status,
    headers: res.headers,
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text(),
  };
}
const ok = async (path: string) => {
  const answer = await api(path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.success).toBe(true);
  return answer.body.response;
};
const bytes = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};
const bestLocation = (item: { locations: { location: string }[] }) => item.locations[0]?.location;

beforeEach(async () => {
  fake = await startFakeFansly({ pageSize: 5 });
  const res = await fetch(`${fake.apiUrl}/device/id?ngsw-bypass=true`);
  deviceId = (await res.json()).response;
});
afterEach(() => fake.close());

describe('the fake Fansly', () => {
  it('hands out device ids without auth and checks the token the way the web app sends it', async () => {
    expect(deviceId).toMatch(/^\d{18}$/);
    expect(fake.token).toBe(FAKE_FANSLY_TOKEN);
    expect(fake.token).toMatch(/^[A-Za-z0-9]{71}$/);
    expect(importSubmissionError({ service: 'fansly', session_key: fake.token })).toBeNull();
    expect(Buffer.from(fake.token, 'base64').toString()).toMatch(new RegExp(`^${FAKE_FANSLY_SESSION_ID}:1:2:[0-9a-f]+$`));
    const me = await ok('/account/me');
    expect(me.account).toMatchObject({ id: fake.dataset.me.id, username: 'fan_account' });

    const refused = { success: false, error: { code: 401, details: 'unauthorized' } };
    expect(await api('/account/me', { omit: ['authorization'] })).toMatchObject({ status: 401, body: refused });
    expect(await api('/account/me', { set: { authorization: 'A'.repeat(71) } })).toMatchObject({ status: 401, body: refused });
    expect(await api('/account/me', { set: { authorization: `Bearer ${fake.token}` } })).toMatchObject({ status: 401, body: refused });
  });

  it('refuses a request without the signing headers, with a wrong check key, a check of another path, a stale time or an unknown device', async () => {
    expect(cyrb53('a')).toBe(7929297801672961);
    // Computed with JK's Python cyrb53 (api/fansly.py) for the same text.
    expect(fanslyClientCheck(FAKE_FANSLY_CHECK_KEY, '/api/v1/timelinenew/790000000000000100', '780000000000000001')).toBe('1c24a8d0bc93a5');
    const path = `/timelinenew/${fake.dataset.creators[0].id}?before=0&after=0&wallId=&contentSearch=`;
    expect((await api(path)).status).toBe(200);
    for (const name of ['fansly-client-check', 'fansly-client-id', 'fansly-client-ts', 'fansly-session-id']) {
      expect((await api(path, { omit: [name] })).status, name).toBe(401);
    }
    expect((await api(path, { checkKey: 'qybZy9-fyszis-bybxyf' })).status).toBe(401);
    expect(
      (await api(path, { set: { 'fansly-client-check': fanslyClientCheck(fake.checkKey, '/api/v1/account/me', deviceId) } })).status,
    ).toBe(401);
    expect((await api(path, { set: { 'fansly-client-ts': String(Date.now() - 10 * 60_000) } })).status).toBe(401);
    expect((await api(path, { set: { 'fansly-client-id': '700000000000000000' } })).status).toBe(401);
    expect((await api(path, { set: { 'fansly-session-id': '790000000000000002' } })).status).toBe(401);
    // The session id is not needed for /account/me, the first call.
    expect((await api('/account/me', { omit: ['fansly-session-id'] })).status).toBe(200);
    // The CORS preflight needs nothing.
    expect((await fetch(`${fake.apiUrl}/account/me`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('serves the check key in main.*.js, linked from the home page', async () => {
    const home = await (await fetch(`${fake.url}/`)).text();
    const main = /src="(main\..*?\.js)"/.exec(home)![1];
    const js = await (await fetch(`${fake.url}/${main}`)).text();
    const expression = /this\.checkKey_\s*=\s*(.+?),this\./.exec(js)![1];
    expect(new Function(`return ${expression}`)()).toBe(fake.checkKey);
  });

  it('lists subscriptions, follows and accounts', async () => {
    const subs = await ok('/subscriptions');
    expect(subs.stats).toMatchObject({ totalActive: 1, total: 1 });
    expect(subs.subscriptions[0]).toMatchObject({ accountId: fake.dataset.creators[0].id, status: 3, subscriptionTierName: 'Supporter' });
    const following = await ok(`/account/${fake.dataset.me.id}/following?before=0&after=0&limit=1&offset=0`);
    const next = await ok(`/account/${fake.dataset.me.id}/following?before=0&after=0&limit=1&offset=1`);
    const end = await ok(`/account/${fake.dataset.me.id}/following?before=0&after=0&limit=1&offset=2`);
    expect([...following, ...next].map((f: { accountId: string }) => f.accountId)).toEqual(fake.dataset.creators.map((c) => c.id));
    expect(end).toEqual([]);
    const accounts = await ok(`/account?ids=${fake.dataset.creators.map((c) => c.id).join(',')}`);
    expect(accounts.map((a: { displayName: string }) => a.displayName)).toEqual(['Mika ミカ 🌸', 'Noah']);
    expect(accounts[0].pinnedPosts).toHaveLength(1);
    expect(accounts[0].walls.map((w: { name: string }) => w.name)).toEqual(['Main', 'Sketches 落書き']);
    expect(await ok('/account?usernames=NOAH_SFX')).toHaveLength(1);
    expect(await ok('/account?usernames=nobody_here')).toEqual([]);
    const avatar = await bytes(bestLocation(accounts[0].avatar));
    expect((await sharp(avatar.body).metadata()).format).toBe('jpeg');
  });

  it('pages the timeline newest first with before = the last id, and ends with an empty page', async () => {
    const creator = fake.dataset.creators[0];
    const seen: string[] = [];
    let before = '0';
    const sizes: number[] = [];
    for (;;) {
      const page = await ok(`/timelinenew/${creator.id}?before=${before}&after=0&wallId=&contentSearch=`);
      sizes.push(page.posts.length);
      if (page.posts.length === 0) break;
      seen.push(...page.posts.map((p: { id: string }) => p.id));
      before = page.posts.at(-1).id;
    }
    expect(sizes).toEqual([5, 5, 5, 2, 0]);
    expect(seen).toEqual([...creator.posts].sort((a, b) => b.createdAt - a.createdAt).map((p) => p.id));
    const wall = await ok(`/timelinenew/${creator.id}?before=0&after=0&wallId=${creator.walls[1].id}&contentSearch=`);
    expect(wall.posts).toHaveLength(2);
  });

  it('resolves attachments: single media, bundles through account/media, reposts, locked and deleted media', async () => {
    const creator = fake.dataset.creators[0];
    const byContent = (text: string) => creator.posts.find((p) => p.content.startsWith(text))!;
    const gallery = byContent('Three sketches');
    const page = await ok(`/post?ids=${gallery.id}`);
    expect(page.posts[0].attachments).toEqual([{ pos: 0, contentType: 2, contentId: gallery.bundleId }]);
    const bundle = page.accountMediaBundles[0];
    expect(bundle.accountMediaIds).toHaveLength(3);
    expect(page.accountMedia).toEqual([]);
    const items = await ok(`/account/media?ids=${bundle.accountMediaIds.join(',')}`);
    expect(items).toHaveLength(3);
    for (const item of items) {
      const file = await bytes(bestLocation(item.media));
      expect(file.status).toBe(200);
      expect(await sharp(file.body).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    }

    const repost = await ok(`/post?ids=${byContent('Check out Noah').id}`);
    expect(repost.posts[0].attachments[0].contentType).toBe(8);
    expect(repost.aggregatedPosts[0].id).toBe(repost.posts[0].attachments[0].contentId);
    expect(repost.accounts.map((a: { username: string }) => a.username).sort()).toEqual(['mika_art', 'noah_sfx']);

    const locked = (await ok(`/post?ids=${byContent('Full-resolution').id}`)).accountMedia[0];
    expect(locked).toMatchObject({ access: false, price: 4990 });
    expect(locked.media.locations).toEqual([]);
    const preview = await bytes(bestLocation(locked.preview));
    expect(preview.status).toBe(200);

    const deleted = (await ok(`/post?ids=${byContent('This one was removed').id}`)).accountMedia[0];
    expect(deleted).toMatchObject({ deleted: true, access: false });
    expect(deleted.deletedAt).toEqual(expect.any(Number));
  });

  it('serves real video and audio bytes, and HLS with the CloudFront signature as query or cookies', async () => {
    const creator = fake.dataset.creators[0];
    const post = (text: string) => creator.posts.find((p) => p.content.startsWith(text))!;
    const video = (await ok(`/post?ids=${post('Timelapse').id}`)).accountMedia[0].media;
    const mp4 = await bytes(bestLocation(video));
    expect(mp4.type).toBe('video/mp4');
    expect(mp4.body.subarray(4, 8).toString()).toBe('ftyp');
    const audio = (await ok(`/post?ids=${post('Voice note').id}`)).accountMedia[0].media;
    expect(audio.mimetype).toBe('audio/mp4');
    expect((await bytes(bestLocation(audio))).body.subarray(4, 8).toString()).toBe('ftyp');

    const streamOnly = (await ok(`/post?ids=${post('Stream replay').id}`)).accountMedia[0].media;
    expect(streamOnly.locations).toEqual([]);
    const hls = streamOnly.variants.find((v: { type: number }) => v.type === 302).locations[0];
    expect(hls.locationId).toBe('102');
    const { Policy, Signature } = hls.metadata;
    const query = `?ngsw-bypass=true&Policy=${Policy}&Key-Pair-Id=${hls.metadata['Key-Pair-Id']}&Signature=${Signature}`;
    expect((await bytes(hls.location)).status).toBe(403);
    const master = (await bytes(hls.location + query)).body.toString();
    expect(master).toContain('#EXT-X-STREAM-INF');
    const rendition = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, hls.location).toString();
    const cookie = `CloudFront-Policy=${Policy}; CloudFront-Signature=${Signature}; CloudFront-Key-Pair-Id=${hls.metadata['Key-Pair-Id']}`;
    expect((await bytes(rendition)).status).toBe(403);
    const playlist = (await bytes(rendition, { headers: { cookie } })).body.toString();
    const segments = playlist.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(segments).toHaveLength(3);
    for (const name of segments) {
      const seg = await bytes(new URL(name, rendition).toString(), { headers: { cookie } });
      expect(seg.status).toBe(200);
      expect(seg.body[0]).toBe(0x47);
      expect(seg.body.length % 188).toBe(0);
    }
  });

  it('refuses a tampered, unsigned or expired file URL with CloudFront 403s', async () => {
    const item = (await ok(`/post?ids=${fake.dataset.creators[0].posts[1].id}`)).accountMedia[0];
    const url = bestLocation(item.media);
    expect((await bytes(url)).status).toBe(200);
    expect((await bytes(url.split('?')[0])).body.toString()).toContain('MissingKey');
    const tampered = await bytes(url.replace(/Signature=[^&]+/, 'Signature=AAAA'));
    expect(tampered.status).toBe(403);
    const other = bestLocation((await ok(`/post?ids=${fake.dataset.creators[0].posts[12].id}`)).accountMedia[0].media);
    expect((await bytes(url.split('?')[0] + '?' + other.split('?')[1])).status).toBe(403);
    fake.advanceClock(3601);
    expect((await bytes(url)).body.toString()).toContain('AccessDenied');
  });

  it('lists message groups and pages messages with media', async () => {
    const groups = await ok('/messaging/groups');
    expect(groups.data.map((g: { partnerUsername: string }) => g.partnerUsername)).toEqual(['mika_art', 'random_person']);
    expect(groups.aggregationData.accounts[0].displayName).toBe('Mika ミカ 🌸');
    const groupId = groups.data[0].groupId;
    const pages: number[] = [];
    const all: { id: string; senderId: string; attachments: { contentType: number; contentId: string }[]; content: string }[] = [];
    const media = new Map<string, { access: boolean; media: { locations: { location: string }[] } }>();
    let before = '';
    for (;;) {
      const page = await ok(`/message?groupId=${groupId}&limit=25${before ? `&before=${before}` : ''}`);
      pages.push(page.messages.length);
      if (page.messages.length === 0) break;
      all.push(...page.messages);
      for (const item of page.accountMedia) media.set(item.id, item);
      before = page.messages.at(-1).id;
    }
    expect(pages).toEqual([25, 5, 0]);
    const welcome = all.find((msg) => msg.content.startsWith('Welcome'))!;
    expect(welcome.senderId).toBe(fake.dataset.creators[0].id);
    const image = media.get(welcome.attachments[0].contentId)!;
    expect((await sharp((await bytes(bestLocation(image.media))).body).metadata()).format).toBe('jpeg');
    const ppv = all.find((msg) => msg.content.startsWith('Exclusive clip'))!;
    expect(media.get(ppv.attachments[0].contentId)).toMatchObject({ access: false });
    expect(all.find((msg) => msg.content.startsWith('Two more'))!.attachments[0].contentType).toBe(2);
    expect(all.some((msg) => msg.senderId === fake.dataset.me.id)).toBe(true);
  });

  it('honours rateLimit, fail, expireKey, editPost and delayMs', async () => {
    fake.rateLimit(1, 7);
    const limited = await api('/account/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await api('/account/me')).status).toBe(200);
    fake.fail(2, 502);
    expect((await api('/account/me')).status).toBe(502);
    expect((await api('/account/me')).status).toBe(502);
    expect((await api('/account/me')).status).toBe(200);

    const post = fake.dataset.creators[0].posts[1];
    fake.editPost(post.id, 'Edited text #changed');
    expect((await ok(`/post?ids=${post.id}`)).posts[0].content).toBe('Edited text #changed');

    fake.delayMs = 150;
    const start = Date.now();
    await ok('/account/me');
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
    fake.delayMs = 0;

    fake.expireKey();
    expect((await api('/account/me')).status).toBe(401);
    const logged = fake.requests.filter((r) => r.path.startsWith('/api/v1/account/me'));
    expect(logged.at(-1)).toMatchObject({ host: 'api', method: 'GET', status: 401 });
    expect(logged.at(-1)!.headers.authorization).toBe(fake.token);
  });

  it('has a fixture for each content kind in the shape the API answers', () => {
    for (const [kind, fixture] of Object.entries(FANSLY_FIXTURES)) {
      expect(fixture.source, kind).toMatch(/\S/);
      const response = fixture.response as unknown[] | { posts?: unknown[]; messages?: unknown[] };
      expect(Array.isArray(response) || Array.isArray(response.posts) || Array.isArray(response.messages), kind).toBe(true);
    }
    expect(FANSLY_FIXTURES.video.response.accountMedia[0].media.locations[0].location).toMatch(
      /^https:\/\/cdn3\.fansly\.com\/\d+\/\d+\.mp4\?Policy=/,
    );
    expect(Object.keys(FANSLY_FIXTURES)).toEqual(
      expect.arrayContaining([
        'textOnly',
        'image',
        'gallery',
        'video',
        'videoHlsOnly',
        'audio',
        'locked',
        'deleted',
        'unicode',
        'repost',
        'message',
      ]),
    );
  });
});

describe('the Fansly mapper, from the recorded shapes', () => {
  const planOf = (kind: keyof typeof FANSLY_FIXTURES): ItemPlan => {
    const fixture = FANSLY_FIXTURES[kind] as { response: unknown; accountMedia?: unknown[] };
    const page = postContainer.parse(fixture.response);
    const index = indexMedia(
      [...(page.accountMedia ?? []), ...(fixture.accountMedia ?? []).map((m) => accountMedia.parse(m))],
      page.accountMediaBundles,
    );
    return postPlan(page.posts[0], index, { aggregated: page.aggregatedPosts, accounts: page.accounts });
  };
  const summary = (plan: ItemPlan) => ({
    verdict: plan.verdict,
    tags: plan.tags,
    media: plan.media.map((m) => `${m.kind}:${m.source.kind}:${m.source.name.split('.').pop()}${m.poster ? '+poster' : ''}`),
    locked: plan.locked,
    deleted: plan.deleted,
  });

  it.each([
    ['textOnly', { verdict: 'store', tags: ['hello', 'intro'], media: [], locked: 0, deleted: 0 }],
    ['image', { verdict: 'store', tags: ['illustration'], media: ['image:file:jpeg'], locked: 0, deleted: 0 }],
    [
      'gallery',
      {
        verdict: 'store',
        tags: ['sketch', 'wip'],
        media: ['image:file:jpeg', 'image:file:jpeg', 'image:file:jpeg'],
        locked: 0,
        deleted: 0,
      },
    ],
    ['video', { verdict: 'store', tags: [], media: ['video:file:mp4+poster'], locked: 0, deleted: 0 }],
    ['videoHlsOnly', { verdict: 'store', tags: [], media: ['video:hls:mp4+poster'], locked: 0, deleted: 0 }],
    ['audio', { verdict: 'store', tags: [], media: ['audio:file:m4a'], locked: 0, deleted: 0 }],
    ['locked', { verdict: 'skip-locked', tags: [], media: [], locked: 1, deleted: 0 }],
    ['deleted', { verdict: 'skip-deleted', tags: [], media: [], locked: 0, deleted: 1 }],
    ['unicode', { verdict: 'store', tags: ['日本語', 'art'], media: ['image:file:jpeg'], locked: 0, deleted: 0 }],
    ['link', { verdict: 'store', tags: [], media: [], locked: 0, deleted: 0 }],
    ['repost', { verdict: 'store', tags: [], media: [], locked: 0, deleted: 0 }],
  ] as const)('%s', (kind, expected) => {
    const plan = planOf(kind);
    expect(summary(plan)).toEqual(expected);
    expect(plan.published).toMatch(/^2024-03-\d\dT09:00:00$/);
    expect(plan.html.startsWith('<p>')).toBe(true);
  });

  it('keeps the text as escaped HTML with its line breaks and clickable links, and no title', () => {
    expect(planOf('unicode').html).toBe(
      '<p>日本語のタイトル 🎨<br>«Ünïcödé» &amp; &lt;b&gt;not bold&lt;/b&gt;<br>Second line #日本語 #art</p>',
    );
    expect(planOf('link').html).toBe(
      '<p>Process write-up on my site: <a href="https://example.com/process">https://example.com/process</a></p>',
    );
    expect(textHtml('see https://a.example/x). ok')).toBe('<p>see <a href="https://a.example/x">https://a.example/x</a>). ok</p>');
    expect(hashtags('##Tag #tag #other_one, #2024')).toEqual(['tag', 'other_one', '2024']);
  });

  it('picks the original over smaller variants, the HLS manifest with its CloudFront policy when there is no file, and the poster', () => {
    const [image] = planOf('image').media;
    expect(image.source).toMatchObject({
      kind: 'file',
      url: expect.stringMatching(/^https:\/\/cdn3\.fansly\.com\/\d+\/\d+\.jpeg\?Policy=/),
    });
    const [hls] = planOf('videoHlsOnly').media;
    expect(hls.source.kind).toBe('hls');
    if (hls.source.kind !== 'hls') return;
    const url = new URL(hls.source.url);
    expect(url.pathname).toMatch(/\.m3u8$/);
    expect([...url.searchParams.keys()]).toEqual(['Policy', 'Key-Pair-Id', 'Signature']);
    expect(hls.source.headers.cookie).toMatch(/^CloudFront-Policy=[^;]+; CloudFront-Key-Pair-Id=[^;]+; CloudFront-Signature=\S+$/);
    expect(planOf('video').media[0].poster).toMatchObject({ kind: 'file', name: expect.stringMatching(/\.jpeg$/) });
  });

  it('turns a repost into an embed preview of the original post', () => {
    const plan = planOf('repost');
    const original = FANSLY_FIXTURES.repost.response.aggregatedPosts[0];
    expect(plan.embed).toEqual({
      url: `https://fansly.com/post/${original.id}`,
      subject: 'Repost of a post by Noah',
      description: 'Free for everyone, thanks for following!',
    });
  });

  it('stores a pinned post like any other (Fansly lists it in the account and once in the timeline)', () => {
    const [account] = accounts.parse(FANSLY_FIXTURES.account.response);
    const pinned = (FANSLY_FIXTURES.account.response[0] as { pinnedPosts: { postId: string }[] }).pinnedPosts[0].postId;
    expect(pinned).toBe(FANSLY_FIXTURES.textOnly.response.posts[0].id);
    expect(planOf('textOnly').verdict).toBe('store');
    expect(profileImage(account.avatar)).toMatch(/^https:\/\/cdn3\.fansly\.com\/\d+\/\d+\.jpeg\?/);
    expect(profileImage(account.banner)).not.toBe(profileImage(account.avatar));
  });

  it('maps DMs with media: a single image, and a bundle of two', () => {
    const page = messagePage.parse(FANSLY_FIXTURES.message.response);
    const index = indexMedia(page.accountMedia, page.accountMediaBundles);
    const plans = page.messages.map((m) => messagePlan(m, index));
    expect(plans.map((p) => [p.html.slice(0, 20), p.verdict, p.media.map((m) => m.kind)])).toEqual([
      ['<p>Two more from the', 'store', ['image', 'image']],
      ['<p>Welcome! Here is ', 'store', ['image']],
    ]);
  });
});

describe('Fansly request signing', () => {
  it('hashes, reads keys and tokens the way the web app does', () => {
    expect(importerCyrb53('a')).toBe(cyrb53('a'));
    expect(clientCheck(FAKE_FANSLY_CHECK_KEY, '/api/v1/timelinenew/790000000000000100', '780000000000000001')).toBe('1c24a8d0bc93a5');
    expect(tokenOf(FAKE_FANSLY_TOKEN)).toBe(FAKE_FANSLY_TOKEN);
    expect(tokenOf(Buffer.from(JSON.stringify({ token: FAKE_FANSLY_TOKEN })).toString('base64url'))).toBe(FAKE_FANSLY_TOKEN);
    expect(sessionIdOf(FAKE_FANSLY_TOKEN)).toBe(FAKE_FANSLY_SESSION_ID);
    expect(sessionIdOf('not-a-token')).toBeUndefined();
    expect(siteOrigin('https://apiv3.fansly.com')).toBe('https://fansly.com');
    expect(siteOrigin('http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
    expect(queryString({ ids: '1,2,3' })).toBe('ids=1,2,3&ngsw-bypass=true');
  });

  it.each([
    ['a plain string', 'this.checkKey_="qybZy9-fyszis-bybxyf",this.x=1', 'qybZy9-fyszis-bybxyf'],
    [
      'the reversed-join expression',
      'this.checkKey_=["fySzis","oybZy8"].reverse().join("-")+"-bubayf",this.cache_=new Map',
      'oybZy8-fySzis-bubayf',
    ],
    ['single quotes and spaces', "this.checkKey_ = 'a-b' + ('-' + 'c');", 'a-b-c'],
    ['a comparison, not an assignment, then the key', 'if(this.checkKey_==null){};this.checkKey_="k-e-y"', 'k-e-y'],
    ['code it will not run', 'this.checkKey_=window.atob("eA=="),this.x=1', undefined],
  ])('reads the check key from %s', (_name, script, key) => {
    expect(checkKeyOf(script)).toBe(key);
  });
});
