/**
 * A fake DLsite for the importer tests: two real node:http servers on 127.0.0.1 (facts:
 * /work/research/dlsite.md). The main server folds the .dlsite.com hosts onto one origin (their paths do not
 * collide, and one origin shares the cookies the way `.dlsite.com` cookies are shared):
 *   login.dlsite.com     GET /login?user=self (form + XSRF-TOKEN cookie), POST /login (_token, login_id, password:
 *                        302 + __DLsite_SID; 419 Page Expired without a matching _token; the wrong-password text),
 *                        GET /oauth/authorize (the OAuth hop of the Play session exchange)
 *   www.dlsite.com       GET /home/login/=/skip_register/1 -> 302 /oauth/authorize -> 302 /login/callback?code=
 *                        (play: sets play_session) -> 302 /home/login/finish (200): the store session (the key,
 *                        cookie __DLsite_SID) turned into a Play session, as dm-api and dlsite_deck do it;
 *                        GET /{site}/api/=/product.json?workno= and /{site}/product/info/ajax?product_id= (public),
 *                        /{site}/work/=/product_id/{W}.html (age gate for r18 without adultchecked=1),
 *                        /{site}/circle/profile/=/maker_id/{M}.html,
 *                        /{any}/download/=/[number/{N}/]product_id/{W}.html -> 302 to the file server with a
 *                        download_token cookie (a split work without /number/ answers 302 "Location: Array"; a
 *                        part past the last is 404; a dead session gets 200 text/html, the login page),
 *                        /home/download/split/=/product_id/{W}.html (one link per part),
 *                        /home/serial/=/product_id/{W}.html (direct link + シリアル番号 table; 302 when none)
 *   play.dlsite.com      GET /api/v3/content/count[?last=], /api/v3/content/sales[?last=], POST /api/v3/content/works
 *                        (JSON array of at most page_limit worknos; more is 400 with the limit in the body; a
 *                        withdrawn work is simply missing), GET /api/v3/download?workno= (302 to the direct,
 *                        split or serial URL; 404 when not owned, browser-only or withdrawn); 401 without a live
 *                        play_session cookie
 *   download.dlsite.com  GET /get/=/type/work/domain/{d}/dir/{bucket}/file/{name}/_/{stamp}: the archive with
 *                        Content-Disposition and Range (206/416); 403 without the download_token of that file
 *   play.dl.dlsite.com   GET /api/v3/download/sign/cookie?workno= -> {url, cookies (CloudFront-*), expires};
 *                        {url}ziptree.json and {url}optimized/{name} need those cookies (CloudFront's 403 XML)
 * The CDN server stands for img.dlsite.jp (/modpub/images2/work/..., /resize/images2/work/...: real JPEGs).
 *
 * Choices where the sources are silent: the OAuth hops' paths and parameters, the Play cookie's name
 * `play_session` (named by dlsite_deck) and its lifetime (`playSessionTtlSeconds`, 3600), the file-server
 * cookie's name `download_token` (a JWT, as one shell client calls it) and its Path=/get/; bodies of 401
 * ({"message":"Unauthenticated."}) and of the batch error, and 429 ("Too Many Attempts." with Retry-After:
 * no client has seen one) follow Laravel, which login.dlsite.com's XSRF-TOKEN/_token pair suggests; cookies
 * carry no Secure flag so they flow over the fake's http; not-owned downloads answer 404; split parts are
 * pieces of one zip; __DLsite_SID alone suffices for the exchange (open question in the notes).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { FAKE_DLSITE_KEY, FAKE_DLSITE_LOGIN, demoDataset, type DlsiteDataset, type DlsiteWork } from './dlsite-data.ts';
import { ajaxInfo, archiveBytes, bucketOf, domainOf, downloadPath, filesOf, playWork, productJson, salesItem } from './dlsite-render.ts';
import {
  ageGatePage,
  circlePage,
  homePage,
  loginPage,
  notFoundPage,
  pageExpired,
  serialPage,
  splitPage,
  workPage,
} from './dlsite-pages.ts';
import { image } from './kit/media.ts';
import {
  Clock,
  Faults,
  cookiesOf,
  logInto,
  readBody,
  redirect,
  send,
  sendBytes,
  sendJson,
  startHost,
  type FakeRequestLog,
} from './kit/server.ts';
import { CLOUDFRONT_ERRORS, cfDecode, cfEncode, sameText } from './kit/signing.ts';

export * from './dlsite-data.ts';
export * from './dlsite-render.ts';

export interface FakeDlsiteOptions {
  /** The accepted store session, cookie __DLsite_SID (default FAKE_DLSITE_KEY). */
  key?: string;
  /** The account of the login form (default FAKE_DLSITE_LOGIN). */
  login?: { loginId: string; password: string };
  dataset?: DlsiteDataset;
  /** content/count's page_limit: most worknos one content/works request may ask for (default 50). */
  pageLimit?: number;
  playSessionTtlSeconds?: number;
  port?: number;
  cdnPort?: number;
}

export interface FakeDlsite {
  /** www / play / login / download / play.dl .dlsite.com */
  url: string;
  /** img.dlsite.jp */
  cdnUrl: string;
  dataset: DlsiteDataset;
  requests: FakeRequestLog[];
  rateLimit(n: number, retryAfterSeconds: number): void;
  fail(n: number, status?: number): void;
  /** The store session ends (logout): the key, every Play session and download token are refused. */
  expireKey(): void;
  /** Only the short-lived Play sessions end; the exchange makes a new one. */
  expirePlaySession(): void;
  advanceTime(seconds: number): void;
  /** A version up: new title/intro/description, upgrade_date now, the archive rebuilt (its readme changes). */
  editPost(workno: string, changes?: Partial<Pick<DlsiteWork, 'name' | 'introS' | 'description'>>): Promise<void>;
  /** The key buys a work now (it appears in content/sales?last=). */
  buy(workno: string): void;
  delayMs: number;
  close(): Promise<void>;
}

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const hostOf = (url: URL) => {
  const p = url.pathname;
  if (p.startsWith('/api/v3/download/sign/') || p.startsWith('/content/')) return 'play.dl';
  if (p.startsWith('/api/') || p.startsWith('/login/callback')) return 'play';
  if (p === '/login' || p.startsWith('/oauth/')) return 'login';
  if (p.startsWith('/get/')) return 'download';
  return 'www';
};

export async function startFakeDlsite(options: FakeDlsiteOptions = {}): Promise<FakeDlsite> {
  const dataset = options.dataset ?? demoDataset();
  const account = options.login ?? FAKE_DLSITE_LOGIN;
  const pageLimit = options.pageLimit ?? 50;
  const playTtl = options.playSessionTtlSeconds ?? 3600;
  const secret = randomBytes(16).toString('hex');
  const faults = new Faults();
  const clock = new Clock();
  const now = clock.now;
  const requests: FakeRequestLog[] = [];
  const storeSessions = new Set([options.key ?? FAKE_DLSITE_KEY]);
  const playSessions = new Map<string, number>();
  const codes = new Map<string, string>();
  const xsrf = new Set<string>();
  const archives = new Map<string, Buffer>();
  const sizes = new Map<string, number>();
  const build = async (w: DlsiteWork) => {
    for (const [name, bytes] of await archiveBytes(w)) {
      archives.set(name, bytes);
      sizes.set(name, bytes.length);
    }
  };
  for (const w of dataset.works) await build(w);
  let origin = '';
  let img = '';

  const workBy = (workno: string | null) => dataset.works.find((w) => w.workno === workno);
  const makerOf = (w: DlsiteWork) => dataset.makers.find((m) => m.id === w.makerId)!;
  const owned = (w: DlsiteWork | undefined): w is DlsiteWork => !!w && w.salesDate !== undefined && !w.gone;
  const storeOk = (req: http.IncomingMessage) => {
    const sid = cookiesOf(req).get('__DLsite_SID');
    return sid !== undefined && [...storeSessions].some((s) => sameText(s, sid));
  };
  const playOk = (req: http.IncomingMessage) => {
    const session = cookiesOf(req).get('play_session');
    return session !== undefined && (playSessions.get(session) ?? 0) > now();
  };
  const sign = (payload: object) => {
    const body = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
    return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
  };
  const verify = (token: string | undefined): Record<string, any> | null => {
    const [h, p, s] = (token ?? '').split('.');
    if (!s || !sameText(s, createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url'))) return null;
    return JSON.parse(Buffer.from(p, 'base64url').toString());
  };
  const html = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) =>
    send(res, status, body, 'text/html; charset=UTF-8', headers);
  /** The form keeps the session's token (as Laravel does) and issues one for a new visitor. */
  const loginForm = (req: http.IncomingMessage, res: http.ServerResponse, failed = false) => {
    const current = cookiesOf(req).get('XSRF-TOKEN');
    const token = current && xsrf.has(current) ? current : randomBytes(20).toString('base64url');
    xsrf.add(token);
    html(res, 200, loginPage(token, failed), { 'set-cookie': [`XSRF-TOKEN=${token}; Path=/; SameSite=Lax`] });
  };

  const auth = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> => {
    const p = url.pathname;
    if (p === '/login' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const token = form.get('_token') ?? '';
      if (!xsrf.has(token) || cookiesOf(req).get('XSRF-TOKEN') !== token) return (html(res, 419, pageExpired()), true);
      if (form.get('login_id') !== account.loginId || form.get('password') !== account.password) return (loginForm(req, res, true), true);
      const sid = randomBytes(20).toString('hex');
      storeSessions.add(sid);
      return (
        redirect(res, `${origin}/home/`, { 'set-cookie': [`__DLsite_SID=${sid}; Path=/; HttpOnly`, 'loginchecked=1; Path=/'] }), true
      );
    }
    if (p === '/login') return (loginForm(req, res), true);
    if (p === '/home/login/=/skip_register/1' || p === '/oauth/authorize') {
      if (!storeOk(req)) return (redirect(res, `${origin}/login?user=self`), true);
      if (p.startsWith('/home/')) {
        const state = randomBytes(8).toString('hex');
        return (
          redirect(
            res,
            `${origin}/oauth/authorize?response_type=code&client_id=dlsite-play&redirect_uri=${encodeURIComponent(`${origin}/login/callback`)}&state=${state}`,
          ),
          true
        );
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, cookiesOf(req).get('__DLsite_SID')!);
      return (redirect(res, `${origin}/login/callback?code=${code}&state=${url.searchParams.get('state') ?? ''}`), true);
    }
    if (p === '/login/callback') {
      const code = url.searchParams.get('code') ?? '';
      const sid = codes.get(code);
      codes.delete(code);
      if (!sid || !storeSessions.has(sid)) return (redirect(res, `${origin}/login?user=self`), true);
      const session = randomBytes(24).toString('hex');
      playSessions.set(session, now() + playTtl * 1000);
      return (
        redirect(res, `${origin}/home/login/finish`, { 'set-cookie': [`play_session=${session}; Path=/; HttpOnly; SameSite=Lax`] }), true
      );
    }
    if (p === '/home/login/finish')
      return (storeOk(req) ? html(res, 200, homePage(true)) : redirect(res, `${origin}/login?user=self`), true);
    return false;
  };

  const play = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const q = url.searchParams;
    if (!playOk(req)) return sendJson(res, 401, UNAUTHENTICATED);
    const last = Number(q.get('last') ?? 0) * 1000;
    const library = dataset.works
      .filter((w) => w.salesDate !== undefined && Date.parse(w.salesDate) >= last)
      .sort((a, b) => a.salesDate!.localeCompare(b.salesDate!));
    switch (url.pathname) {
      case '/api/v3/content/count':
        return sendJson(res, 200, { user: library.length, production: 0, page_limit: pageLimit, concurrency: 500 });
      case '/api/v3/content/sales':
        return sendJson(res, 200, library.map(salesItem));
      case '/api/v3/content/works': {
        if (req.method !== 'POST') return sendJson(res, 405, { message: 'The GET method is not supported for this route.' });
        let ids: unknown;
        try {
          ids = JSON.parse(await readBody(req));
        } catch {
          ids = null;
        }
        if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
          return sendJson(res, 400, { message: 'The given data was invalid.' });
        if (ids.length > pageLimit)
          return sendJson(res, 400, { message: `The number of worknos may not be greater than ${pageLimit}.`, page_limit: pageLimit });
        const works = [...new Set(ids)].map(workBy).filter(owned);
        return sendJson(res, 200, {
          works: works.map((w) =>
            playWork(
              w,
              makerOf(w),
              img,
              filesOf(w).reduce((s, n) => s + (sizes.get(n) ?? 0), 0),
            ),
          ),
        });
      }
      case '/api/v3/download': {
        const w = workBy(q.get('workno'));
        if (!owned(w) || w.delivery.kind === 'browser') return sendJson(res, 404, { message: 'Not Found' });
        return redirect(res, origin + downloadPath(w));
      }
      case '/api/v3/download/sign/cookie': {
        const w = workBy(q.get('workno'));
        if (!owned(w) || !w.playPages) return sendJson(res, 404, { message: 'Not Found' });
        const base = `${origin}/content/work/${domainOf(w)}/${bucketOf(w.workno)}/${w.workno}/`;
        const expires = Math.floor(now() / 1000) + 3600;
        const policy = JSON.stringify({ Statement: [{ Resource: `${base}*`, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }] });
        const cookies = {
          'CloudFront-Policy': cfEncode(policy),
          'CloudFront-Signature': cfEncode(createHmac('sha256', secret).update(policy).digest()),
          'CloudFront-Key-Pair-Id': 'APKAFAKEDLSITEPLAY',
        };
        const jstExpiry = new Date(expires * 1000 + 9 * 3600_000).toISOString().slice(0, 19) + '+0900';
        return sendJson(res, 200, { url: base, cookies, expires: jstExpiry });
      }
    }
    return sendJson(res, 404, { message: 'Not Found' });
  };

  const playContent = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    // Checked as this fake always has: the cookies only, and any Key-Pair-Id.
    const denied = (why: 'missing' | 'bad') => send(res, 403, CLOUDFRONT_ERRORS[why], 'text/xml');
    const jar = cookiesOf(req);
    if (!jar.get('CloudFront-Key-Pair-Id') || !jar.get('CloudFront-Policy') || !jar.get('CloudFront-Signature')) return denied('missing');
    const policy = cfDecode(jar.get('CloudFront-Policy')!).toString();
    if (!sameText(jar.get('CloudFront-Signature')!, cfEncode(createHmac('sha256', secret).update(policy).digest()))) return denied('bad');
    const statement = JSON.parse(policy).Statement[0];
    if (
      !(origin + url.pathname).startsWith(statement.Resource.slice(0, -1)) ||
      statement.Condition.DateLessThan['AWS:EpochTime'] * 1000 < now()
    )
      return denied('bad');
    const m = /^\/content\/work\/[a-z]+\/[A-Z]{2}\d+\/([A-Z]{2}\d+)\/(ziptree\.json|optimized\/(.+))$/.exec(url.pathname);
    const w = workBy(m?.[1] ?? null);
    if (!m || !w?.playPages) return denied('bad');
    const pages = Array.from({ length: w.playPages }, (_, i) => ({
      name: `${String(i + 1).padStart(3, '0')}.jpg`,
      hash: createHmac('md5', w.workno).update(String(i)).digest('hex'),
    }));
    if (m[3]) {
      if (!pages.some((p) => `${p.hash}.jpg` === m[3])) return denied('bad');
      return sendBytes(req, res, await image(`${w.workno}:play:${m[3]}`, { format: 'jpeg', width: 30, height: 40 }), 'image/jpeg');
    }
    return sendJson(res, 200, {
      hash: createHmac('md5', secret).update(w.workno).digest('hex'),
      workno: w.workno,
      version: 1,
      revision: 1,
      updated_at: '2024-02-11 08:00:00',
      tree: [
        {
          type: 'folder',
          name: '本編',
          path: '本編',
          children: pages.map((p) => ({ type: 'file', name: p.name, hashname: `${p.hash}.jpg`, path: `本編/${p.name}` })),
        },
      ],
      playfile: Object.fromEntries(
        pages.map((p) => [
          `${p.hash}.jpg`,
          {
            type: 'image',
            length: 4096,
            image: { optimized: { name: `${p.hash}.jpg`, length: 2048, crypt: false, width: 30, height: 40 }, files: {} },
          },
        ]),
      ),
    });
  };

  const store = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const p = url.pathname;
    const q = url.searchParams;
    let m = /^\/[a-z]+\/api\/=\/product\.json$/.exec(p);
    if (m) {
      const w = workBy(q.get('workno'));
      return sendJson(res, 200, w && !w.gone ? [productJson(w, makerOf(w), img, sizes)] : []);
    }
    if (/^\/[a-z]+\/product\/info\/ajax$/.test(p)) {
      const w = workBy(q.get('product_id'));
      return sendJson(res, 200, w && !w.gone ? ajaxInfo(w, img, origin) : {});
    }
    m = /^\/([a-z]+)\/(?:work|announce)\/=\/product_id\/([A-Z]{2}\d+)\.html$/.exec(p);
    if (m) {
      const w = workBy(m[2]);
      if (!w || w.gone) return html(res, 404, notFoundPage());
      if (w.age === 'r18' && cookiesOf(req).get('adultchecked') !== '1') return html(res, 200, ageGatePage(w));
      return html(res, 200, workPage(w, makerOf(w), img, origin));
    }
    m = /^\/[a-z]+\/circle\/profile\/=\/maker_id\/([A-Z]{2}\d+)\.html$/.exec(p);
    if (m) {
      const maker = dataset.makers.find((x) => x.id === m![1]);
      return maker
        ? html(
            res,
            200,
            circlePage(
              maker,
              dataset.works.filter((w) => w.makerId === maker.id && !w.gone),
              origin,
            ),
          )
        : html(res, 404, notFoundPage());
    }
    const split = /^\/home\/download\/split\/=\/product_id\/([A-Z]{2}\d+)\.html$/.exec(p);
    const serial = /^\/home\/serial\/=\/product_id\/([A-Z]{2}\d+)\.html$/.exec(p);
    const download = /^\/[a-z]+\/download\/=\/(?:number\/(\d+)\/)?product_id\/([A-Z]{2}\d+)\.html$/.exec(p);
    if (!split && !serial && !download) return p === '/home/' ? html(res, 200, homePage(storeOk(req))) : html(res, 404, notFoundPage());
    if (!storeOk(req)) return html(res, 200, loginPage('expired'));
    const w = workBy((split ?? serial ?? download)![split || serial ? 1 : 2]);
    if (!owned(w) || w.delivery.kind === 'browser') return html(res, 404, notFoundPage());
    if (split)
      return w.delivery.kind === 'split'
        ? html(res, 200, splitPage(w, origin))
        : redirect(res, `${origin}/home/download/=/product_id/${w.workno}.html`);
    if (serial)
      return w.delivery.kind === 'serial' ? html(res, 200, serialPage(w, origin, w.delivery.serial)) : redirect(res, `${origin}/home/`);
    const files = filesOf(w);
    const number = download![1] ? Number(download![1]) : null;
    if (number === null && files.length > 1) return redirect(res, 'Array');
    const name = files[(number ?? 1) - 1];
    if (!name) return html(res, 404, notFoundPage());
    const path = `/get/=/type/work/domain/${domainOf(w)}/dir/${bucketOf(w.workno)}/file/${encodeURIComponent(name)}`;
    const stamp = (w.upgradeDate ?? w.registDate).replace(/\D/g, '').slice(0, 14);
    const token = sign({ path, sid: cookiesOf(req).get('__DLsite_SID'), exp: Math.floor(now() / 1000) + 600 });
    return redirect(res, `${origin}${path}/_/${stamp}`, { 'set-cookie': [`download_token=${token}; Path=/get/; HttpOnly`] });
  };

  const fileServer = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const m = /^(\/get\/=\/type\/work\/domain\/[a-z]+\/dir\/[A-Z]{2}\d+\/file\/([^/]+))\/_\/\d+$/.exec(url.pathname);
    const claims = verify(cookiesOf(req).get('download_token'));
    if (!m || !claims || claims.path !== m[1] || claims.exp * 1000 < now() || !storeSessions.has(claims.sid))
      return html(res, 403, '<html><body><h1>403 Forbidden</h1></body></html>');
    const name = decodeURIComponent(m[2]);
    const bytes = archives.get(name);
    if (!bytes) return html(res, 404, notFoundPage());
    const type = name.endsWith('.zip') ? 'application/zip' : 'application/octet-stream';
    return sendBytes(req, res, bytes, type, { 'content-disposition': `attachment; filename="${name}"` });
  };

  const fake = { delayMs: 0 } as FakeDlsite;
  const main = await startHost({
    port: options.port,
    log: logInto(requests, hostOf, ['cookie', 'content-type', 'range', 'referer', 'user-agent']),
    delay: () => fake.delayMs,
    handler: async (req, res, url) => {
      const p = url.pathname;
      if (p.startsWith('/api/') || /^\/[a-z]+\/(api\/|product\/info\/)/.test(p)) {
        const fault = faults.take();
        if (fault?.kind === 'limit')
          return sendJson(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': String(fault.retryAfter) });
        if (fault) return html(res, fault.status, `<html><body><h1>${fault.status}</h1></body></html>`);
      }
      if (await auth(req, res, url)) return;
      if (p.startsWith('/api/v3/')) return play(req, res, url);
      if (p.startsWith('/content/')) return playContent(req, res, url);
      if (p.startsWith('/get/')) return fileServer(req, res, url);
      return store(req, res, url);
    },
  });
  origin = main.origin;
  const cdn = await startHost({
    port: options.cdnPort,
    log: logInto(requests, 'img', ['referer']),
    delay: () => fake.delayMs,
    handler: async (req, res, url) => {
      const m = /^\/(?:modpub|resize)\/images2\/work\/[a-z]+\/[A-Z]{2}\d+\/([A-Z]{2}\d+)_img_(main|sam|smp\d+)(_240x240)?\.jpg$/.exec(
        url.pathname,
      );
      const w = workBy(m?.[1] ?? null);
      if (!m || !w || w.gone) return send(res, 404, notFoundPage(), 'text/html');
      const [width, height] = m[3] ? [240, 240] : m[2] === 'sam' ? [100, 75] : [56, 42];
      return sendBytes(req, res, await image(url.pathname.replace('_240x240', ''), { format: 'jpeg', width, height }), 'image/jpeg');
    },
  });
  img = cdn.origin;

  return Object.assign(fake, {
    url: origin,
    cdnUrl: img,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey() {
      storeSessions.clear();
      playSessions.clear();
    },
    expirePlaySession: () => playSessions.clear(),
    advanceTime: clock.advance,
    async editPost(workno: string, changes: Partial<Pick<DlsiteWork, 'name' | 'introS' | 'description'>> = {}) {
      const w = workBy(workno);
      if (!w) throw new Error(`no work ${workno}`);
      Object.assign(w, changes, { upgradeDate: new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z'), version: (w.version ?? 1) + 1 });
      await build(w);
    },
    buy(workno: string) {
      const w = workBy(workno);
      if (!w) throw new Error(`no work ${workno}`);
      w.salesDate = new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z');
    },
    async close() {
      await Promise.all([main.close(), cdn.close()]);
    },
  });
}
