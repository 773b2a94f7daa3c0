/**
 * What the fake Gumroad's hosts answer (see gumroad.ts for the list, the refusals and the knobs):
 * app.gumroad.com and each seller's host (`handleApp`), and the file hosts (`serveCdn`).
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { avatarOf, digest, downloadPageProps, fileNameOf, productBy, productPageProps, type GrPurchase } from './gumroad-data.ts';
import { libraryProps, renderPage } from './gumroad-pages.ts';
import { confirmation, csrf, filePath, fileTtl, signedFile, type GumroadState } from './gumroad-state.ts';
import { HLS_TYPE, hlsPlaylist } from './kit/hls.ts';
import { bytesFor, media, zipFor } from './kit/media.ts';
import { cookiesOf, escapeHtml as h, railsRedirect, readBody, send, sendHtml, sendJson } from './kit/server.ts';

const formDecode = (value: string) => new URLSearchParams(`v=${value}`).get('v') ?? '';

/** The handler of app.gumroad.com (`host` 'app') or of a seller's host ('creator:{username}'). */
export const handleApp =
  (state: GumroadState, host: string) =>
  async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
    const { dataset, view, files } = state;
    const origin = host === 'app' ? view.app : view.creator(host.slice(8));
    const u = new URL(req.url ?? '/', origin);
    const path = u.pathname;
    const q = u.searchParams;
    const cookies = cookiesOf(req);
    const raw = cookies.get('_gumroad_app_session');
    const session = { id: raw ? formDecode(raw) : randomBytes(24).toString('base64'), fresh: !raw };
    const loggedIn = state.live && session.id === state.key;
    const refused = state.faults.take();
    if (refused?.kind === 'limit')
      return (send(res, 429, 'Retry later\n', 'text/plain', refused.retryAfter ? { 'retry-after': String(refused.retryAfter) } : {}), 429);
    if (refused?.kind === 'fail') return (sendHtml(res, refused.status, "<h1>We're sorry, but something went wrong.</h1>"), refused.status);
    const notFound = () => (
      sendHtml(res, 404, "<!DOCTYPE html><html><body><h1>The page you were looking for doesn't exist.</h1></body></html>"), 404
    );
    const purchaseOf = (token: string) => dataset.purchases.find((p) => p.token === token);
    const allowed = (p: GrPurchase) =>
      loggedIn || cookies.get('confirmed_redirect') === encodeURIComponent(`${p.token}--${confirmation(state, p.token)}`);
    /** The checks /d/, /r/ and /zip/ share; a number when it answered. */
    const gate = (token: string): GrPurchase | number => {
      const p = purchaseOf(token);
      if (!p || p.state === 'refunded') return notFound();
      if (p.state === 'revoked') return (railsRedirect(res, `${view.app}/r/${token}/expired`), 302);
      if (p.state === 'membership_inactive') return (railsRedirect(res, `${view.app}/r/${token}/membership_inactive`), 302);
      if (!allowed(p)) return (railsRedirect(res, `${view.app}/confirm?id=${token}&destination=download_page`), 302);
      return p;
    };

    if (req.method === 'POST' && path === '/confirm-redirect') {
      const form = new URLSearchParams(await readBody(req));
      if (session.fresh || form.get('authenticity_token') !== csrf(state, session.id))
        return (sendHtml(res, 422, '<h1>The change you wanted was rejected.</h1>'), 422);
      const token = form.get('id') ?? '';
      if (!purchaseOf(token) || form.get('email') !== dataset.buyer.email)
        return (railsRedirect(res, `${view.app}/confirm?id=${encodeURIComponent(token)}&destination=download_page`), 302);
      return (
        railsRedirect(res, `${view.app}/d/${token}`, 302, {
          'set-cookie': `confirmed_redirect=${encodeURIComponent(`${token}--${confirmation(state, token)}`)}; path=/; secure; HttpOnly`,
        }),
        302
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound();

    if (host !== 'app') {
      const seller = dataset.sellers.find((s) => s.username === host.slice(8))!;
      if (path === '/')
        return renderPage(
          state,
          req,
          res,
          session,
          { inertia: 'Users/Show', react: 'Profile' },
          {
            creator_profile: {
              external_id: seller.externalId,
              avatar_url: avatarOf(view, seller),
              name: seller.name,
              twitter_handle: null,
              subdomain: new URL(origin).host,
            },
          },
        );
      const product = /^\/l\/([^/.]+)(\.json)?$/.exec(path);
      if (product) {
        const p = seller.products.find((x) => x.permalink === product[1]);
        if (!p) return notFound();
        if (product[2]) {
          const cover = p.covers.find((c) => c.type === 'image');
          return (
            sendJson(res, 200, {
              name: p.name,
              description: p.descriptionHtml,
              require_shipping: false,
              preview_url: cover ? view.publicUrl(cover.file) : null,
              id: p.permalink,
              external_id: p.externalId,
              price: 500,
              currency: 'usd',
              short_url: `${view.app}/l/${p.permalink}`,
              formatted_price: '$5',
              recommendable: true,
              rated_as_adult: false,
              custom_delivery_url: null,
            }),
            200
          );
        }
        const bought = loggedIn ? dataset.purchases.find((x) => x.permalink === p.permalink && x.state !== 'refunded') : undefined;
        return renderPage(
          state,
          req,
          res,
          session,
          { inertia: 'Products/Show', react: 'ProductPage' },
          productPageProps(view, seller, p, bought),
        );
      }
      if (!path.startsWith('/d/')) return notFound();
    }

    if (path === '/login')
      return renderPage(
        state,
        req,
        res,
        session,
        { inertia: 'Logins/New', react: 'LoginPage' },
        { email: null, application_name: null, recaptcha_site_key: null },
      );
    if (path === '/library') {
      if (/application\/json/.test(req.headers.accept ?? '') && req.headers['x-inertia'] !== 'true')
        return (sendJson(res, 404, { success: false, error: 'Not found' }), 404);
      if (!loggedIn) return (railsRedirect(res, `${view.app}/login?next=%2Flibrary`), 302);
      return renderPage(state, req, res, session, { inertia: 'Library/Index', react: 'LibraryPage' }, libraryProps(state, q));
    }
    const l = /^\/l\/([^/]+)$/.exec(path);
    if (l) {
      const found = productBy(dataset, l[1].replace(/\.json$/, ''));
      return found ? (railsRedirect(res, `${view.creator(found.seller.username)}${path}${u.search}`, 301), 301) : notFound();
    }
    if (path === '/confirm') {
      const p = purchaseOf(q.get('id') ?? '');
      if (!p) return notFound();
      const props = {
        content_unavailability_reason_code: 'email_confirmation_required',
        confirmation_info: { id: p.token, destination: q.get('destination') ?? 'download_page', display: null, email: null },
        creator: null,
        installment: null,
        purchase: null,
      };
      return renderPage(state, req, res, session, { inertia: 'UrlRedirects/ConfirmPage', react: 'DownloadPageWithoutContent' }, props);
    }
    const d = /^\/d\/([^/]+)$/.exec(path);
    if (d) {
      const p = gate(d[1]);
      if (typeof p === 'number') return p;
      return renderPage(
        state,
        req,
        res,
        session,
        { inertia: 'UrlRedirects/DownloadPage', react: 'DownloadPageWithContent' },
        downloadPageProps(view, dataset, p, state.sizes),
      );
    }
    const notice = /^\/r\/([^/]+)\/(expired|membership_inactive|rental_expired)$/.exec(path);
    if (notice)
      return (
        sendHtml(
          res,
          200,
          `<!DOCTYPE html><html><body><h1>${notice[2] === 'expired' ? 'Access to this product has been revoked.' : 'Your membership is inactive.'}</h1></body></html>`,
        ),
        200
      );
    const download = /^\/r\/([^/]+)\/product_files(\.json)?$/.exec(path);
    if (download) {
      const p = gate(download[1]);
      if (typeof p === 'number') return p;
      const { product } = productBy(dataset, p.permalink)!;
      const picked = q.getAll('product_file_ids[]').map((id) => product.files.find((f) => f.id === id && !f.deleted && !f.streamOnly));
      if (!picked.length || picked.some((f) => !f)) return notFound();
      const urls = picked.map((f) => ({
        url: signedFile(state, filePath(f!, files.get(f!.id)!.sellerId), fileTtl(state, f!)),
        filename: fileNameOf(f!),
      }));
      if (download[2]) return (sendJson(res, 200, { files: urls }), 200);
      const first = picked[0]!;
      if (first.stamped === 'pending') {
        first.stamped = 'ready';
        return (
          railsRedirect(res, `${view.app}/d/${p.token}`, 302, {
            'set-cookie': `flash=${encodeURIComponent('We are preparing the file for download. Please try again in a few minutes.')}; path=/`,
          }),
          302
        );
      }
      return (railsRedirect(res, urls[0].url), 302);
    }
    const zip = /^\/zip\/([^/.]+)(\.json)?$/.exec(path);
    if (zip) {
      const p = gate(zip[1]);
      if (typeof p === 'number') return p;
      const { seller, product } = productBy(dataset, p.permalink)!;
      if (!product.archive) return notFound();
      const url = signedFile(
        state,
        `/attachments/${seller.externalId}/${digest(product.permalink, 32)}/archive/${encodeURIComponent(product.name)}.zip`,
        3600,
      );
      return zip[2] ? (sendJson(res, 200, { url }), 200) : (railsRedirect(res, url), 302);
    }
    const stream = /^\/(r|s|read)\/([^/]+)\/([^/]+)(\/index\.m3u8)?$/.exec(path);
    if (stream && (stream[1] !== 'r' || stream[4])) {
      const p = gate(stream[2]);
      if (typeof p === 'number') return p;
      const entry = files.get(stream[3]);
      if (!entry || entry.file.deleted || !productBy(dataset, p.permalink)!.product.files.includes(entry.file)) return notFound();
      if (stream[1] === 'r') {
        const segments = media.segmentSeconds.map((seconds, n) => ({
          uri: signedFile(
            state,
            `/attachments/${entry.sellerId}/${digest(entry.file.id, 32)}/hls/segment-${n}.ts`,
            12 * 3600,
            'cloudfront',
          ),
          seconds,
        }));
        return (send(res, 200, hlsPlaylist(segments, 3), HLS_TYPE), 200);
      }
      const src =
        stream[1] === 's'
          ? `/r/${p.token}/${entry.file.id}/index.m3u8`
          : `/r/${p.token}/product_files?product_file_ids%5B%5D=${entry.file.id}`;
      return (
        sendHtml(
          res,
          200,
          `<!DOCTYPE html><html><body><${stream[1] === 's' ? 'video controls' : 'iframe'} src="${h(src)}"></${stream[1] === 's' ? 'video' : 'iframe'}></body></html>`,
        ),
        200
      );
    }
    return notFound();
  };

/** The file hosts: signed purchased files and HLS segments, public files and assets. */
export const serveCdn = async (state: GumroadState, req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
  const u = new URL(req.url ?? '/', state.cdnOrigin);
  const path = u.pathname;
  const q = u.searchParams;
  const deny = () => (send(res, 403, 'Access denied', 'text/plain'), 403);
  if (path.startsWith('/attachments/')) {
    const verify = /^(\d+)-(.+)$/.exec(q.get('verify') ?? '');
    const expires = Number(verify?.[1] ?? q.get('Expires'));
    const sig = verify ? verify[2] : q.get('Signature');
    if (!sig || !state.signer.check(`${path}|${expires}`, sig) || expires * 1000 <= state.now()) return deny();
    const name = decodeURIComponent(path.split('/').pop()!);
    const segment = /\/hls\/segment-(\d)\.ts$/.exec(path);
    if (segment) return (send(res, 200, media.segments()[Number(segment[1])], 'video/mp2t'), 200);
    const { bytes, type } = path.includes('/archive/') ? { bytes: await zipFor(name), type: 'application/zip' } : await bytesFor(name);
    const disposition: Record<string, string> =
      q.get('response-content-disposition') === 'attachment'
        ? { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` }
        : {};
    return (send(res, 200, bytes, type, disposition), 200);
  }
  const asset = /^\/assets\/(gumroad-default-avatar-5\.png)$/.exec(path);
  const publicKey = /^\/(?:variants\/)?([0-9a-f]{28})(?:\/[0-9a-f]{64})?$/.exec(path);
  const name = asset ? asset[1] : publicKey ? state.publicFiles.get(publicKey[1]) : undefined;
  if (!name) return (send(res, 404, 'Not Found', 'text/plain'), 404);
  const { bytes, type } = await bytesFor(name);
  return (send(res, 200, bytes, type, { 'cache-control': 'public, max-age=31536000' }), 200);
};
