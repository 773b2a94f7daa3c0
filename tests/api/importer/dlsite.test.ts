/**
 * DLsite: the fake of tests/fakes/dlsite.ts (real HTTP: the .dlsite.com hosts folded onto one origin with
 * the store-session -> Play-session exchange, the Play library API, the download redirects to the file
 * server, the store's public JSON and pages; img.dlsite.jp on a second server). The importer's mappers from
 * the recorded-shape fixtures: dlsite-map.test.ts; the importer against the fake: dlsite-import.test.ts.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { dlsiteFixtures } from '../../fakes/dlsite-fixtures.ts';
import { FAKE_DLSITE_KEY, FAKE_DLSITE_LOGIN, startFakeDlsite, type FakeDlsite, type FakeDlsiteOptions } from '../../fakes/dlsite.ts';
import { readZip } from '../../fakes/kit/zip.ts';

let fake: FakeDlsite | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
async function start(options: FakeDlsiteOptions = {}) {
  fake = await startFakeDlsite(options);
  return fake;
}

type Json = Record<string, any>;

/** A cookie jar that follows nothing by itself, as dm-api's client (redirect policy none). */
class Browser {
  jar = new Map<string, string>();
  constructor(sid: string | null = FAKE_DLSITE_KEY) {
    if (sid) this.jar.set('__DLsite_SID', sid);
  }
  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      this.jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
  /** Follows 3xx by hand (at most 8), keeping cookies; returns the last answer and the hops. */
  async follow(url: string) {
    const hops: string[] = [];
    let res = await this.fetch(url);
    while (res.status >= 300 && res.status < 400 && hops.length < 8) {
      const next = new URL(res.headers.get('location')!, url).toString();
      hops.push(next);
      url = next;
      res = await this.fetch(next);
    }
    return { res, hops };
  }
  /** The exchange of dm-api/dlsite_deck: skip_register -> OAuth -> callback -> finish. */
  async exchange(f: FakeDlsite) {
    const { res, hops } = await this.follow(`${f.url}/home/login/=/skip_register/1`);
    return { status: res.status, hops, ok: res.status === 200 && (await res.text()).includes('ログイン中です') };
  }
  async json(url: string, init?: RequestInit) {
    const res = await this.fetch(url, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  async bytes(url: string, headers: Record<string, string> = {}) {
    const res = await this.fetch(url, { headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }
}

async function loggedIn(f: FakeDlsite) {
  const b = new Browser();
  expect((await b.exchange(f)).ok).toBe(true);
  return b;
}
const worksOf = (b: Browser, f: FakeDlsite, ids: string[]) =>
  b.json(`${f.url}/api/v3/content/works`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ids) });
/** Resolves a work's download through Play and the store, following to the file (or the last answer). */
async function download(b: Browser, f: FakeDlsite, workno: string) {
  const resolved = await b.fetch(`${f.url}/api/v3/download?workno=${workno}`);
  return { resolved, location: resolved.headers.get('location') };
}

describe('the fake DLsite', () => {
  it('turns the store session (__DLsite_SID) into a Play session through the OAuth redirects; Play refuses without it', async () => {
    const f = await start();
    const b = new Browser();
    expect((await b.json(`${f.url}/api/v3/content/count`)).status).toBe(401);
    const { hops, ok } = await b.exchange(f);
    expect(ok).toBe(true);
    expect(hops.map((h) => new URL(h).pathname)).toEqual(['/oauth/authorize', '/login/callback', '/home/login/finish']);
    expect(b.jar.has('play_session')).toBe(true);
    const count = await b.json(`${f.url}/api/v3/content/count`);
    expect(count).toMatchObject({ status: 200, body: { user: 10, production: 0, page_limit: 50, concurrency: 500 } });
    const stranger = new Browser('not-a-session');
    expect((await stranger.exchange(f)).ok).toBe(false);
    expect((await stranger.json(`${f.url}/api/v3/content/sales`)).body).toEqual({ message: 'Unauthenticated.' });
  });

  it('expires Play sessions (knob and lifetime) while the key still makes new ones; expireKey ends both', async () => {
    const f = await start({ playSessionTtlSeconds: 60 });
    const b = await loggedIn(f);
    f.expirePlaySession();
    expect((await b.json(`${f.url}/api/v3/content/count`)).status).toBe(401);
    expect((await b.exchange(f)).ok).toBe(true);
    f.advanceTime(61);
    expect((await b.json(`${f.url}/api/v3/content/count`)).status).toBe(401);
    expect((await b.exchange(f)).ok).toBe(true);
    f.expireKey();
    expect((await b.json(`${f.url}/api/v3/content/count`)).status).toBe(401);
    expect((await b.exchange(f)).ok).toBe(false);
    const page = await b.fetch(`${f.url}/home/download/=/product_id/RJ01000001.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('logs in with a password only with the form token (419 without), and says so on a wrong password', async () => {
    const f = await start();
    const b = new Browser(null);
    const form = await b.fetch(`${f.url}/login?user=self`);
    const token = /name="_token" value="([^"]+)"/.exec(await form.text())![1];
    expect(b.jar.get('XSRF-TOKEN')).toBe(token);
    const post = (fields: Record<string, string>, who = b) =>
      who.fetch(`${f.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    expect((await post({ login_id: FAKE_DLSITE_LOGIN.loginId, password: FAKE_DLSITE_LOGIN.password })).status).toBe(419);
    expect(
      (await post({ _token: token, login_id: FAKE_DLSITE_LOGIN.loginId, password: FAKE_DLSITE_LOGIN.password }, new Browser(null))).status,
    ).toBe(419);
    expect(await (await post({ _token: token, login_id: FAKE_DLSITE_LOGIN.loginId, password: 'wrong' })).text()).toContain(
      'ログインIDかパスワードが間違っています。',
    );
    const ok = await post({ _token: token, login_id: FAKE_DLSITE_LOGIN.loginId, password: FAKE_DLSITE_LOGIN.password });
    expect(ok.status).toBe(302);
    expect(b.jar.get('__DLsite_SID')).toMatch(/^[0-9a-f]{40}$/);
    expect((await b.exchange(f)).ok).toBe(true);
  });

  it('lists the library: sales (with last=), works in batches of page_limit, withdrawn works missing', async () => {
    const f = await start({ pageLimit: 3 });
    const b = await loggedIn(f);
    const sales = (await b.json(`${f.url}/api/v3/content/sales?last=0`)).body as Json[];
    expect(sales).toHaveLength(10);
    expect(sales[0]).toEqual({ workno: 'RJ01000009', sales_date: '2022-02-01T00:00:00.000000Z' });
    const ids = sales.map((s) => s.workno);
    const works: Json[] = [];
    for (let i = 0; i < ids.length; i += 3) {
      const batch = await worksOf(b, f, ids.slice(i, i + 3));
      expect(batch.status).toBe(200);
      works.push(...batch.body.works);
    }
    expect(works).toHaveLength(9);
    expect(works.some((w) => w.workno === 'RJ01000009')).toBe(false);
    const voice = works.find((w) => w.workno === 'RJ01000001')!;
    expect(voice).toMatchObject({
      name: { ja_JP: '夏の終わりのASMR ～耳かきと子守唄～' },
      maker: { id: 'RG01000001' },
      work_type: 'SOU',
      age_category: 'r18',
      upgrade_date: '2024-08-01T03:00:00Z',
    });
    expect(voice.tags).toContainEqual({ class: 'voice_by', name: '声優X' });
    expect((await sharp((await b.bytes(voice.work_files.main)).body).metadata()).format).toBe('jpeg');
    const tooMany = await worksOf(b, f, ids.slice(0, 4));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.page_limit).toBe(3);
    const since = Math.floor(Date.parse('2024-07-01T00:00:00Z') / 1000);
    expect((await b.json(`${f.url}/api/v3/content/sales?last=${since}`)).body.map((s: Json) => s.workno)).toEqual([
      'RJ01000001',
      'RJ01000007',
      'RJ01000011',
    ]);
    f.buy('RJ01000010');
    expect((await b.json(`${f.url}/api/v3/content/count?last=${Math.floor(Date.now() / 1000) - 5}`)).body.user).toBe(1);
  });

  it('downloads a direct work: Play 302, store 302 to the file server with its cookie, the zip with its name and Range', async () => {
    const f = await start();
    const b = await loggedIn(f);
    const { location } = await download(b, f, 'RJ01000001');
    expect(new URL(location!).pathname).toBe('/home/download/=/product_id/RJ01000001.html');
    const store = await b.fetch(location!);
    expect(store.status).toBe(302);
    const file = store.headers.get('location')!;
    expect(new URL(file).pathname).toMatch(/^\/get\/=\/type\/work\/domain\/doujin\/dir\/RJ01001000\/file\/RJ01000001\.zip\/_\/\d{14}$/);
    expect((await fetch(file)).status).toBe(403);
    const zip = await b.bytes(file);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="RJ01000001.zip"');
    const names = readZip(zip.body).map((e) => e.name);
    expect(names).toContain('RJ01000001/音声/01_はじめに.mp3');
    expect(
      readZip(zip.body)
        .find((e) => e.name.endsWith('01_はじめに.mp3'))!
        .data.subarray(0, 2),
    ).toEqual(Buffer.from([0xff, 0xfb]));
    const part = await b.bytes(file, { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${zip.body.length}`);
    expect((await b.bytes(file, { range: `bytes=${zip.body.length}-` })).status).toBe(416);
    expect((await b.bytes(file.replace('RJ01000001.zip', 'RJ01000006.zip'))).status).toBe(403);
  });

  it('resolves split and serial works and refuses the single URL of a split one with Location: Array', async () => {
    const f = await start();
    const b = await loggedIn(f);
    const split = await download(b, f, 'RJ01000002');
    expect(new URL(split.location!).pathname).toBe('/home/download/split/=/product_id/RJ01000002.html');
    const page = await (await b.fetch(split.location!)).text();
    const parts = [...page.matchAll(/href="([^"]+\/number\/(\d+)\/product_id\/RJ01000002\.html)"/g)].map((m) => m[1]);
    expect(parts).toHaveLength(2);
    const single = await b.fetch(`${f.url}/home/download/=/product_id/RJ01000002.html`);
    expect(single.headers.get('location')).toBe('Array');
    const bytes: Buffer[] = [];
    for (const part of parts) {
      const { res } = await b.follow(part);
      expect(res.headers.get('content-disposition')).toMatch(/RJ01000002\.zip\.00\d/);
      bytes.push(Buffer.from(await res.arrayBuffer()));
    }
    expect(readZip(Buffer.concat(bytes)).map((e) => e.name)).toContain('本編/001.jpg');
    expect((await b.fetch(`${f.url}/home/download/=/number/3/product_id/RJ01000002.html`)).status).toBe(404);
    const serial = await download(b, f, 'VJ01000003');
    const serialPage = await (await b.fetch(serial.location!)).text();
    expect(serialPage).toContain('<h2>シリアル番号</h2>');
    expect(serialPage).toContain('ABCD-1234-EFGH-5678');
    const { res } = await b.follow(/href="([^"]+\/download\/=\/product_id\/VJ01000003\.html)"/.exec(serialPage)![1]);
    expect(readZip(Buffer.from(await res.arrayBuffer())).map((e) => e.name)).toContain('readme.txt');
    expect((await b.fetch(`${f.url}/home/serial/=/product_id/RJ01000001.html`)).status).toBe(302);
  });

  it('answers 404 for a browser-only, withdrawn or unbought work, and serves the browser-only one in Play', async () => {
    const f = await start();
    const b = await loggedIn(f);
    for (const workno of ['RJ01000004', 'RJ01000009', 'RJ01000010']) expect((await download(b, f, workno)).resolved.status).toBe(404);
    expect((await b.bytes(`${f.url}/maniax/download/=/product_id/RJ01000010.html`)).status).toBe(404);
    const signed = (await b.json(`${f.url}/api/v3/download/sign/cookie?workno=RJ01000004`)).body;
    expect(signed.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0900$/);
    expect((await fetch(`${signed.url}ziptree.json`)).status).toBe(403);
    const viewer = new Browser(null);
    for (const [k, v] of Object.entries(signed.cookies as Record<string, string>)) viewer.jar.set(k, v);
    const tree = (await viewer.json(`${signed.url}ziptree.json`)).body;
    expect(tree.tree[0].children.map((c: Json) => c.name)).toEqual(['001.jpg', '002.jpg', '003.jpg']);
    const optimized = tree.playfile[tree.tree[0].children[0].hashname].image.optimized;
    expect(await sharp((await viewer.bytes(`${signed.url}optimized/${optimized.name}`)).body).metadata()).toMatchObject({
      format: 'jpeg',
      width: 30,
    });
    viewer.jar.set('CloudFront-Signature', 'forged');
    expect(await (await viewer.fetch(`${signed.url}ziptree.json`)).text()).toContain('<Code>AccessDenied</Code>');
  });

  it('serves the public store: product.json with real file names, ajax info, the work page (age gate), the circle, images', async () => {
    const f = await start();
    const [product] = (await (await fetch(`${f.url}/maniax/api/=/product.json?workno=RJ01000002`)).json()) as Json[];
    expect(product).toMatchObject({
      workno: 'RJ01000002',
      maker_id: 'RG01000002',
      circle_id: 'RG01000002',
      age_category: 1,
      is_split_content: true,
      content_count: 2,
    });
    expect(product.contents.map((c: Json) => c.file_name)).toEqual(['RJ01000002.zip.001', 'RJ01000002.zip.002']);
    expect(product.image_main.url.startsWith('//')).toBe(true);
    expect(await sharp(Buffer.from(await (await fetch(`http:${product.image_main.url}`)).arrayBuffer())).metadata()).toMatchObject({
      format: 'jpeg',
      width: 56,
    });
    expect(await (await fetch(`${f.url}/home/api/=/product.json?workno=RJ01000009`)).json()).toEqual([]);
    expect(Object.keys(await (await fetch(`${f.url}/maniax/product/info/ajax?product_id=RJ01000007`)).json())).toEqual(['RJ01000007']);
    const gate = await (await fetch(`${f.url}/maniax/work/=/product_id/RJ01000001.html`)).text();
    expect(gate).toContain('年齢認証');
    const page = await (await fetch(`${f.url}/maniax/work/=/product_id/RJ01000001.html`, { headers: { cookie: 'adultchecked=1' } })).text();
    expect(page).toContain('<h1 id="work_name">夏の終わりのASMR ～耳かきと子守唄～</h1>');
    expect(page).toMatch(
      /<div itemprop="description"[^>]*><p>夏の終わりに[\s\S]*<img src="\/\/127\.0\.0\.1:\d+\/modpub\/images2\/work\/doujin\/RJ01001000\/RJ01000001_img_smp1\.jpg"/,
    );
    expect(page).toContain('<th>最終更新日</th>');
    expect(await (await fetch(`${f.url}/home/work/=/product_id/RJ01000004.html`)).text()).toContain('icon_WBO');
    expect(await (await fetch(`${f.url}/maniax/circle/profile/=/maker_id/RG01000002.html`)).text()).toContain(
      '<strong class="prof_maker_name">Pixel Lab ✦</strong>',
    );
  });

  it('honours rateLimit, fail, editPost (a version up) and delayMs, and logs requests by host', async () => {
    const f = await start();
    const b = await loggedIn(f);
    f.rateLimit(1, 30);
    const limited = await b.json(`${f.url}/api/v3/content/count`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    f.fail(1, 500);
    expect((await b.fetch(`${f.url}/api/v3/content/count`)).status).toBe(500);
    await f.editPost('RJ01000006', { introS: '更新しました。' });
    const [work] = (await worksOf(b, f, ['RJ01000006'])).body.works;
    expect(Date.parse(work.upgrade_date)).toBeGreaterThan(Date.now() - 60_000);
    const { res } = await b.follow((await download(b, f, 'RJ01000006')).location!);
    const readme = readZip(Buffer.from(await res.arrayBuffer())).find((e) => e.name === 'readme.txt')!;
    expect(readme.data.toString()).toContain('version 2');
    expect((await (await fetch(`${f.url}/maniax/api/=/product.json?workno=RJ01000006`)).json())[0].intro_s).toBe('更新しました。');
    f.delayMs = 120;
    const started = Date.now();
    await b.fetch(`${f.url}/api/v3/content/count`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    const hosts = new Set(f.requests.map((r) => r.host));
    for (const host of ['www', 'login', 'play', 'download']) expect(hosts).toContain(host);
    expect(f.requests.find((r) => r.path === '/api/v3/content/count')!.headers.cookie).toContain('play_session=');
  });

  it('has a fixture for every content kind, in the shapes the fake serves', async () => {
    const fixtures = await dlsiteFixtures();
    const kinds = fixtures.map((x) => x.kind.split(' (')[0]);
    for (const kind of ['text only', 'gallery', 'file', 'blog with inline image', 'embed', 'video', 'audio', 'locked', 'deleted'])
      expect(kinds).toContain(kind);
    expect(fixtures.some((x) => /unicode title/.test(x.kind))).toBe(true);
    const deleted = fixtures.find((x) => x.kind.startsWith('deleted'))!;
    expect(deleted).toMatchObject({ play: null, product: null, download: { status: 404 } });
    expect((fixtures.find((x) => x.kind.startsWith('file'))!.play as Json).work_files.main).toMatch(/^https:\/\/img\.dlsite\.jp\/modpub\//);
  });
});
