/**
 * The fake OnlyFans (tests/fakes/onlyfans.ts) signs and refuses as onlyfans.com/api2/v2 does, over
 * real HTTP, with the rules of tests/fakes/onlyfans-rules.json; the importer
 * (api/importer/paysites/onlyfans) against it, driven by the real worker over a real SQLite data folder
 * (helpers in ./onlyfans-import.ts; the mapper's table in onlyfans-map.test.ts, the signing rules in
 * onlyfans-rules.test.ts, paging, the benchmark entry and the kill -9 test in onlyfans-crash.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { importSubmissionError } from '@shared/importer.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { getCreator } from '@api/data/creators.ts';
import { getImport, getImportLogs, updateImport } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { nowIso } from '@api/data/util.ts';
import { readConfig } from '@api/config.ts';
import { isAllowedHost } from '@api/importer/fetch.ts';
import { media } from '../../fakes/kit/media.ts';
import { ONLYFANS_FIXTURES } from '../../fakes/onlyfans-fixtures.ts';
import {
  DEFAULT_ONLYFANS_RULES,
  mediaPaths,
  onlyfansSign,
  startFakeOnlyfans,
  type FakeOnlyfans,
  type OnlyfansRules,
} from '../../fakes/onlyfans.ts';
import {
  closeHarness,
  count,
  counts,
  expectNoKeyInDataDir,
  expectNoKeyInLogs,
  harness,
  queue,
  stored,
  worker,
  type Harness,
} from './onlyfans-import.ts';

let fake: FakeOnlyfans;

interface Call {
  omit?: string[];
  set?: Record<string, string>;
  cookie?: string;
  rules?: OnlyfansRules;
  signUserId?: string;
  signPath?: string;
  time?: string;
}

/** A GET signed the way the site's JS signs it. */
async function api(path: string, call: Call = {}) {
  const target = `/api2/v2${path}`;
  const time = call.time ?? String(Date.now());
  const c = fake.credential;
  const headers: Record<string, string> = {
    accept: 'application/json, text/plain, */*',
    'app-token': (call.rules ?? fake.rules).app_token,
    'user-id': c.auth_id,
    'x-bc': c['x-bc'],
    'user-agent': c.user_agent,
    referer: 'https://onlyfans.com',
    time,
    sign: onlyfansSign(call.rules ?? fake.rules, call.signPath ?? target, time, call.signUserId ?? c.auth_id),
    cookie: call.cookie ?? `sess=${c.session_key}; auth_id=${c.auth_id}`,
    ...call.set,
  };
  for (const name of call.omit ?? []) delete headers[name];
  const res = await fetch(`${fake.url}${target}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}
const ok = async (path: string) => {
  const answer = await api(path);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
const bytes = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};
const REFRESH = { error: { code: 401, message: 'Please refresh the page' } };
const DENIED = { error: { code: 401, message: 'Access denied.' } };
const luna = () => fake.dataset.creators[0];

describe('the fake OnlyFans', () => {
  beforeEach(async () => {
    fake = await startFakeOnlyfans({ pageSize: 5 });
  });
  afterEach(() => fake.close());

  it('signs as the notes worked out (test vector), from either rules shape', () => {
    const dh: OnlyfansRules = { ...DEFAULT_ONLYFANS_RULES, prefix: undefined, suffix: undefined };
    const expected = '62830:cf9f7b98b965985ddf9114cc873076864935b2c9:75e:6a67571d';
    expect(onlyfansSign(dh, '/api2/v2/users/me', '1700000000000', '123456')).toBe(expected);
    expect(onlyfansSign(DEFAULT_ONLYFANS_RULES, '/api2/v2/users/me', '1700000000000', '123456')).toBe(expected);
    const file = JSON.parse(fs.readFileSync('tests/fakes/onlyfans-rules.json', 'utf8'));
    for (const field of [
      'static_param',
      'format',
      'prefix',
      'suffix',
      'checksum_indexes',
      'checksum_constants',
      'checksum_constant',
      'app_token',
      'revision',
      'remove_headers',
    ])
      expect(file, field).toHaveProperty(field);
    expect(file.checksum_indexes).toHaveLength(32);
    expect(file.checksum_constants.reduce((a: number, b: number) => a + b, 0)).toBe(file.checksum_constant);
  });

  it('answers a correctly signed request for the session', async () => {
    const me = await ok('/users/me');
    expect(me).toMatchObject({ id: 48151623421, isAuth: true });
    expect(importSubmissionError({ service: 'onlyfans', ...fake.credential })).toBeNull();
    // Without the user-id header (the rules' remove_headers) the auth_id cookie is the signing id.
    expect((await api('/users/me', { omit: ['user-id'] })).status).toBe(200);
  });

  it('refuses a missing, wrong or stale signature with 400 "Please refresh the page"', async () => {
    const cases: [string, Call][] = [
      ['no sign', { omit: ['sign'] }],
      ['no time', { omit: ['time'] }],
      ['no app-token', { omit: ['app-token'] }],
      ['wrong app-token', { set: { 'app-token': '0'.repeat(32) } }],
      ['signed for another path', { signPath: '/api2/v2/users/4815162' }],
      ['signed without the query', { signPath: '/api2/v2/users/me' }],
      ['signed as logged out (user 0)', { signUserId: '0' }],
      ['stale time', { time: String(Date.now() - 10 * 60_000) }],
      ['time in seconds', { time: String(Math.floor(Date.now() / 1000)) }],
      [
        'other rules',
        { rules: { ...DEFAULT_ONLYFANS_RULES, static_param: 'hlH65SiFJONFFuIFbTwYvt3HpXzsg4MC', prefix: '54054', suffix: '697a0a2b' } },
      ],
    ];
    for (const [name, call] of cases) {
      const answer = await api(name === 'signed without the query' ? '/users/me?skip_users=all' : '/users/me', call);
      expect(answer.status, name).toBe(400);
      expect(answer.body, name).toEqual(REFRESH);
      expect(answer.text.length).toBe(58);
    }
    const fresh = await api('/users/me');
    expect(fresh.status).toBe(200);
    fake.advanceClock(301);
    expect((await api('/users/me', { time: String(Date.now()) })).status).toBe(400);
  });

  it('refuses a wrong, missing or expired session with 401 "Access denied."', async () => {
    const c = fake.credential;
    expect(await api('/users/me', { cookie: `auth_id=${c.auth_id}` })).toMatchObject({ status: 401, body: DENIED });
    expect(await api('/users/me', { cookie: `sess=not-the-session; auth_id=${c.auth_id}` })).toMatchObject({ status: 401, body: DENIED });
    expect(await api('/users/me', { cookie: `sess=${c.session_key}; auth_id=1234567` })).toMatchObject({ status: 401, body: DENIED });
    expect(fake.sessionAlive()).toBe(true);
    fake.expireKey();
    expect(await api('/users/me')).toMatchObject({ status: 401, body: DENIED });
  });

  it('ends the session when the x-bc or User-Agent does not match it', async () => {
    expect(await api('/users/me', { set: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0' } })).toMatchObject({
      status: 401,
      body: DENIED,
    });
    expect(fake.sessionAlive()).toBe(false);
    expect((await api('/users/me')).status).toBe(401);
    await fake.close();
    fake = await startFakeOnlyfans();
    expect((await api('/users/me', { set: { 'x-bc': 'f'.repeat(40) } })).status).toBe(401);
    expect((await api('/users/me')).status).toBe(401);
  });

  it('lists subscriptions with offset paging, and profiles by id or username', async () => {
    expect(await ok('/subscriptions/count/all')).toMatchObject({ subscriptions: { active: 1, expired: 1, all: 2 } });
    const first = await ok('/subscriptions/subscribes?offset=0&limit=1&type=all&format=infinite');
    expect(first.hasMore).toBe(true);
    const second = await ok('/subscriptions/subscribes?offset=1&limit=1&type=all&format=infinite');
    expect(second.hasMore).toBe(false);
    expect([...first.list, ...second.list].map((u: { username: string }) => u.username)).toEqual(['luna_moon', 'kai_draws']);
    const active = await ok('/subscriptions/subscribes?offset=0&type=active&sort=desc&field=expire_date&limit=50');
    expect(active.map((u: { username: string }) => u.username)).toEqual(['luna_moon']);
    const profile = await ok('/users/luna_moon');
    expect(profile).toEqual(await ok(`/users/${luna().id}`));
    expect(profile).toMatchObject({ name: 'Luna 月', subscribedBy: true, hasPinnedPosts: true });
    for (const url of [profile.avatar, profile.header, profile.avatarThumbs.c144]) {
      const file = await bytes(url);
      expect(file.status, url).toBe(200);
      expect((await sharp(file.body).metadata()).format).toBe('jpeg');
    }
    expect(await api('/users/nobody_here')).toMatchObject({ status: 404 });
  });

  it('pages posts newest first by beforePublishTime and stops, with pinned and archived apart', async () => {
    const id = luna().id;
    const pages: number[] = [];
    const seen: number[] = [];
    let query = `/users/${id}/posts?limit=5&order=publish_date_desc&skip_users=all&skip_users_dups=1&pinned=0&format=infinite`;
    for (;;) {
      const page = await ok(query);
      pages.push(page.list.length);
      seen.push(...page.list.map((p: { id: number }) => p.id));
      if (!page.hasMore) break;
      query = `/users/${id}/posts?limit=5&order=publish_date_desc&skip_users=all&skip_users_dups=1&beforePublishTime=${page.list.at(-1).postedAtPrecise}&pinned=0&counters=0&format=infinite`;
    }
    expect(pages).toEqual([5, 5, 5, 4]);
    expect(new Set(seen).size).toBe(19);
    const pinned = await ok(`/users/${id}/posts?skip_users=all&pinned=1&counters=0&format=infinite`);
    expect(pinned.list.map((p: { isPinned: boolean }) => p.isPinned)).toEqual([true]);
    expect(seen).not.toContain(pinned.list[0].id);
    const archived = await ok(`/users/${id}/posts/archived?limit=10&order=publish_date_desc&format=infinite`);
    expect(archived.list.map((p: { isArchived: boolean }) => p.isArchived)).toEqual([true]);
    const oldest = await ok(`/users/${id}/posts?limit=100&order=publish_date_asc&afterPublishTime=0&pinned=0`);
    expect(Array.isArray(oldest)).toBe(true);
    expect(oldest.map((p: { id: number }) => p.id)).toEqual([...seen].reverse());
  });

  it('serves real media behind signed URLs, and marks locked, DRM and old-shape media as OnlyFans does', async () => {
    const posts = (await ok(`/users/${luna().id}/posts?limit=100&order=publish_date_asc&pinned=0`)) as {
      rawText: string;
      media: Record<string, any>[];
      [k: string]: unknown;
    }[];
    const byText = (text: string) => posts.find((p) => p.rawText.startsWith(text))!;
    const photo = byText('Golden hour').media[0];
    const image = await bytes(photo.files.full.url);
    expect(await sharp(image.body).metadata()).toMatchObject({ format: 'jpeg', width: 96, height: 64 });
    const video = byText('Behind the scenes').media[0];
    expect((await bytes(video.files.full.url)).body.subarray(4, 8).toString()).toBe('ftyp');
    expect(video.videoSources['720']).toEqual(expect.any(String));
    const audio = await bytes(byText('A little song').media[0].files.full.url);
    expect(audio.type).toBe('audio/mpeg');
    expect(audio.body.subarray(0, 3).toString()).toBe('ID3');

    const ppv = byText('Full set');
    expect(ppv).toMatchObject({ price: 9.99, isOpened: false, canViewMedia: false });
    expect(ppv.preview).toEqual([ppv.media[0].id]);
    expect(ppv.media.map((x) => x.canView)).toEqual([true, false, false]);
    expect(ppv.media[1].files.full.url).toBeNull();

    const drm = byText('Protected premiere').media[0];
    expect(drm.files.full.url).toBeNull();
    expect(drm.files.drm.manifest.hls).toMatch(/\.m3u8$/);
    expect(drm.files.drm.signature.hls).toHaveProperty('CloudFront-Policy');

    const legacy = byText('From the archive').media;
    expect((await bytes(legacy[0].source.source)).status).toBe(200);
    expect(typeof legacy[0].preview).toBe('string');
    expect((await bytes(legacy[1].source.source)).body.subarray(4, 8).toString()).toBe('ftyp');

    const kai = await ok(`/users/${fake.dataset.creators[1].id}/posts?limit=10&order=publish_date_desc&pinned=0`);
    expect(kai[1].media.every((x: { canView: boolean }) => !x.canView)).toBe(true);

    expect((await bytes(photo.files.full.url.split('?')[0])).body.toString()).toContain('MissingKey');
    expect((await bytes(photo.files.full.url.replace(/Signature=[^&]+/, 'Signature=xyz'))).status).toBe(403);
    fake.advanceClock(3601);
    expect((await bytes(photo.files.full.url)).status).toBe(403);
  });

  it('honours rateLimit, fail, editPost, delayMs and logs requests with their signing headers', async () => {
    fake.rateLimit(1, 30);
    const limited = await api('/users/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    fake.fail(1, 504);
    expect((await api('/users/me')).status).toBe(504);
    expect((await api('/users/me')).status).toBe(200);
    const post = luna().posts[1];
    fake.editPost(post.id, 'Edited\nwith <html> & a link https://example.com/x');
    const edited = await ok(`/posts/${post.id}?skip_users=all`);
    expect(edited.rawText).toBe('Edited\nwith <html> & a link https://example.com/x');
    expect(edited.text).toBe(
      'Edited<br />with &lt;html&gt; &amp; a link <a href="https://example.com/x" target="_blank">https://example.com/x</a>',
    );
    fake.delayMs = 120;
    const start = Date.now();
    await ok('/users/me');
    expect(Date.now() - start).toBeGreaterThanOrEqual(110);
    const last = fake.requests.filter((r) => r.host === 'api').at(-1)!;
    expect(last).toMatchObject({ method: 'GET', path: '/api2/v2/users/me', status: 200 });
    expect(last.headers.sign).toMatch(/^62830:[0-9a-f]{40}:[0-9a-f]+:6a67571d$/);
  });

  it('has a fixture for each content kind', () => {
    expect(Object.keys(ONLYFANS_FIXTURES)).toEqual(
      expect.arrayContaining([
        'textOnly',
        'image',
        'gallery',
        'video',
        'audio',
        'locked',
        'drmVideo',
        'legacyMedia',
        'unicode',
        'link',
        'pinned',
        'deleted',
        'profile',
      ]),
    );
    for (const [kind, fixture] of Object.entries(ONLYFANS_FIXTURES)) expect(fixture.source, kind).toMatch(/\S/);
    expect((ONLYFANS_FIXTURES.image.post.media[0] as { files: unknown }).files).toMatchObject({
      full: { url: expect.stringMatching(/^https:\/\/cdn2\.onlyfans\.com\/files\/.+\.jpg\?Policy=/) },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The importer (api/importer/paysites/onlyfans) against the fake, over a real SQLite data folder.

describe('onlyfans import', () => {
  let h: Harness;
  beforeEach(async () => {
    fake = await startFakeOnlyfans();
    h = harness(fake);
  });
  afterEach(async () => {
    await closeHarness(h);
    await fake.close();
  });
  const post = (id: number) => getPost(h.t.db, 'onlyfans', 'luna_moon', String(id));
  const byText = (start: string) => luna().posts.find((p) => p.rawText.startsWith(start))!;
  const logsOf = (id: string) => getImportLogs(h.t.db, id);

  it('imports the active subscription: profile, pinned, timeline and archived posts with their media, signed', async () => {
    const id = await queue(h, 'full');
    expect(await worker(h).runOnce()).toBe(true);
    const job = (await getImport(h.t.db, id))!;
    expect(job).toMatchObject({ is_key_invalid: false, sub_count: 1 });
    expect(job.finished_at).not.toBeNull();
    expect(await getCreator(h.t.db, 'onlyfans', 'luna_moon')).toMatchObject({ name: 'Luna 月', public_id: null });
    expect(await getCreator(h.t.db, 'onlyfans', 'kai_draws')).toBeUndefined();
    for (const kind of ['icons', 'banners'])
      expect((await sharp(fs.readFileSync(path.join(h.t.dir, kind, 'onlyfans', 'luna_moon'))).metadata()).format).toBe('jpeg');

    // 21 posts: 19 on the timeline (two pages of 10), 1 pinned, 1 archived; the pay-per-view one is locked.
    expect(counts(h).posts).toBe(20);
    expect(await post(byText('Full set').id)).toBeUndefined();
    const timeline = fake.requests.filter((r) => r.host === 'api' && /\/posts\?.*pinned=0/.test(r.path));
    expect(timeline.map((r) => new URL(r.path, fake.url).searchParams.get('beforePublishTime'))).toEqual([null, '1707652800.000000']);
    expect(fake.requests.some((r) => r.path.includes('pinned=1'))).toBe(true);
    expect(fake.requests.some((r) => r.path.includes('/posts/archived?'))).toBe(true);

    const golden = (await post(byText('Golden hour').id))!;
    expect(golden).toMatchObject({ title: 'Golden hour #sunset #GoldenHour', published: '2024-02-03T12:00:00', edited: null });
    expect(golden.tags).toEqual(['sunset', 'GoldenHour']);
    expect(golden.file?.name).toMatch(/^96x64_[0-9a-f]{32}\.jpg$/);
    expect(await sharp(stored(h, golden.file!.path)).metadata()).toMatchObject({ format: 'jpeg', width: 96, height: 64 });
    expect((await post(byText('Three from').id))!.attachments).toHaveLength(2);

    const video = (await post(byText('Behind the scenes').id))!;
    expect(video.file?.name).toMatch(/^48x32_.+\.jpg$/); // the video's preview image as the thumbnail
    expect(video.attachments.map((a) => a.name)).toEqual([expect.stringMatching(/^320x180_[0-9a-f]{32}\.mp4$/)]);
    expect(stored(h, video.attachments[0].path).equals(media.mp4())).toBe(true);
    const audio = (await post(byText('A little song').id))!;
    expect(audio.file).toEqual({});
    expect(stored(h, audio.attachments[0].path).equals(media.mp3())).toBe(true);

    const drm = (await post(byText('Protected premiere').id))!;
    expect(drm.file?.name).toMatch(/\.jpg$/);
    expect(drm.attachments).toEqual([]);
    const legacy = (await post(byText('From the archive').id))!;
    expect([legacy.file?.name, ...legacy.attachments.map((a) => a.name)]).toEqual([
      expect.stringMatching(/^96x64_.+\.jpg$/),
      expect.stringMatching(/^320x180_.+\.mp4$/),
    ]);
    const unicode = (await post(byText('月の光').id))!;
    expect(unicode.title).toBe('月の光 🌙 こんばんは «Ünïcödé» & <not a tag>');
    expect(unicode.content).toBe('月の光 🌙<br />こんばんは «Ünïcödé» &amp; &lt;not a tag&gt;');
    expect((await post(byText('My wishlist').id))!.content).toMatch(/<a href="https:\/\/example\.com\/wishlist"[^>]*>/);
    expect(await post(byText('Read this first!').id)).toBeDefined();
    expect(await post(byText('Old post moved').id)).toBeDefined();
    expect(await post(byText('Hi everyone!').id)).toMatchObject({ title: 'Hi everyone! Text only today.', file: {}, attachments: [] });

    const logs = await logsOf(id);
    expect(logs).toContain('Found 1 active subscription. 1 expired subscription not imported (their posts are locked).');
    expect(logs).toContain('Creator Luna 月: imported 20 posts.');
    expect(logs).toContain('Creator Luna 月: skipped 1 locked post (pay-per-view not bought, or media this account cannot see).');
    expect(logs.some((l) => /^Post \d+: video \d+ skipped \(DRM-protected video, which cannot be archived\)\.$/.test(l))).toBe(true);
    expect(logs.at(-1)).toBe('Finished.');
    await expectNoKeyInLogs(h, id);
    expectNoKeyInDataDir(h);

    // Every API call signed as the site's JS signs it, with the session.
    const c = fake.credential;
    const api = fake.requests.filter((r) => r.host === 'api');
    for (const r of api) {
      expect(r.status, r.path).toBe(200);
      expect(r.headers).toMatchObject({ 'app-token': fake.rules.app_token, 'x-bc': c['x-bc'], 'user-agent': c.user_agent });
      expect(r.headers.sign).toBe(onlyfansSign(fake.rules, r.path, r.headers.time, c.auth_id));
      expect(r.headers.cookie).toBe(`sess=${c.session_key}; auth_id=${c.auth_id}`);
      expect(r.headers['user-id']).toBeUndefined(); // the rules' remove_headers
    }
    // The fake's hosts all are 127.0.0.1, so the session reaching its CDN says nothing: with the real hosts
    // only onlyfans.com gets it (the client sends credentials to the base URL's host and credentialHosts).
    const real = readConfig({}).importer.endpoints.onlyfans!;
    const credentialHosts = { baseUrl: real.baseUrl, hosts: real.credentialHosts ?? [] };
    expect(['onlyfans.com', 'cdn2.onlyfans.com', 'public.onlyfans.com'].map((host) => isAllowedHost(credentialHosts, host))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('re-imports without changes or downloads, and a changed post gets a revision', async () => {
    await queue(h, 'first');
    await worker(h).runOnce();
    const first = counts(h);
    const changes = () => count(h, "SELECT count(*) AS n FROM changes WHERE kind = 'post'");
    const before = { changes: changes(), cdn: fake.requests.filter((r) => r.host === 'cdn').length };
    await queue(h, 'again');
    await worker(h).runOnce();
    expect(counts(h)).toEqual(first);
    expect(changes()).toBe(before.changes);
    expect(fake.requests.filter((r) => r.host === 'cdn').length).toBe(before.cdn); // media already stored by name

    const golden = byText('Golden hour');
    fake.editPost(golden.id, 'Golden hour, edited #sunset');
    await queue(h, 'changed');
    await worker(h).runOnce();
    expect(await post(golden.id)).toMatchObject({ title: 'Golden hour, edited #sunset', tags: ['sunset'] });
    expect(count(h, 'SELECT count(*) AS n FROM post_revisions WHERE post_id = ?', String(golden.id))).toBe(1);
    expect(counts(h)).toEqual({ ...first, revisions: 1 });
  });

  it('fails with is_key_invalid and marks a kept key dead when OnlyFans answers 401', async () => {
    const keyId = await addAutoImportKey(h.t.db, { service: 'onlyfans', encrypted_key: Buffer.from('sealed elsewhere') });
    fake.expireKey();
    const id = await queue(h, 'expired', keyId);
    await worker(h).runOnce();
    expect(await getImport(h.t.db, id)).toMatchObject({ is_key_invalid: true });
    expect((await logsOf(id)).at(-1)).toBe('OnlyFans rejected the session key; the import failed.');
    expect((h.t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(counts(h).posts).toBe(0);
    await expectNoKeyInLogs(h, id);
  });

  it('waits out a short 429 Retry-After, and puts the import back on a 5xx, then resumes it', async () => {
    fake.rateLimit(2, 1);
    const id = await queue(h, 'limited');
    await worker(h).runOnce();
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect((await getImport(h.t.db, id))!.finished_at).not.toBeNull();

    fake.fail(1, 503);
    const again = await queue(h, 'failing');
    await worker(h).runOnce();
    expect(await getImport(h.t.db, again)).toMatchObject({ finished_at: null, retry_count: 1 });
    expect((await logsOf(again)).at(-1)).toMatch(/^OnlyFans error: OnlyFans answered 503; retrying at /);
    await updateImport(h.t.db, again, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await worker(h).runOnce();
    expect((await getImport(h.t.db, again))!.finished_at).not.toBeNull();
    expect(counts(h).posts).toBe(20);
  });

  it('skips a file OnlyFans no longer serves with a line, and keeps the post', async () => {
    await fake.close();
    fake = await startFakeOnlyfans({ urlTtlSeconds: 0 }); // the CDN's signed URLs are past their lifetime when fetched
    await closeHarness(h);
    h = harness(fake);
    const id = await queue(h, 'expired-urls');
    await worker(h).runOnce();
    expect((await getImport(h.t.db, id))!.finished_at).not.toBeNull();
    const golden = byText('Golden hour');
    const name = mediaPaths(golden.media[0]).full.split('/').pop();
    expect(await logsOf(id)).toContain(`Skipped ${name}: the paysite answered 403.`);
    expect(await post(golden.id)).toMatchObject({ file: {}, attachments: [], title: 'Golden hour #sunset #GoldenHour' });
  });
});
