/**
 * The fake Gumroad's pages: a page's props embedded the way the current generation does it (Inertia's
 * <div id="app" data-page>, or the JSON answer to an X-Inertia request of the current version; or the
 * 2025 js-react-on-rails-component script), and the library's props (paged for Inertia, unpaged for
 * react_on_rails).
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { libraryCard, libraryPurchases, productBy, type GrPurchase } from './gumroad-data.ts';
import { csrf, type GumroadState } from './gumroad-state.ts';
import { escapeHtml as h, send, sendHtml, sendJson } from './kit/server.ts';

export const INERTIA_VERSION = 'f4c3b2a1e0d9';

/** A page with its props embedded the way the current generation does. */
export const renderPage = (
  state: GumroadState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  session: { id: string; fresh: boolean },
  component: { inertia: string; react: string },
  props: unknown,
  status = 200,
) => {
  const headers: Record<string, string> = session.fresh
    ? { 'set-cookie': `_gumroad_app_session=${encodeURIComponent(session.id)}; path=/; secure; HttpOnly; SameSite=Lax` }
    : {};
  if (state.generation === 'inertia') {
    const page = {
      component: component.inertia,
      props,
      url: req.url ?? '/',
      version: INERTIA_VERSION,
      encryptHistory: false,
      clearHistory: false,
    };
    if (req.headers['x-inertia'] === 'true') {
      if (req.headers['x-inertia-version'] !== INERTIA_VERSION)
        return (send(res, 409, '', 'text/plain', { 'x-inertia-location': `${state.view.app}${req.url}` }), 409);
      return (sendJson(res, status, page, { ...headers, 'x-inertia': 'true', vary: 'X-Inertia' }), status);
    }
    return (
      sendHtml(
        res,
        status,
        `<!DOCTYPE html><html><head><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf(state, session.id)}"><title>Gumroad</title></head><body><div id="app" data-page="${h(JSON.stringify(page))}"></div></body></html>`,
        { ...headers, vary: 'X-Inertia' },
      ),
      status
    );
  }
  const dom = `${component.react}-react-component-${randomBytes(8).toString('hex')}`;
  const json = JSON.stringify(props).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return (
    sendHtml(
      res,
      status,
      `<!DOCTYPE html><html><head><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf(state, session.id)}"><title>Gumroad</title></head><body><script type="application/json" class="js-react-on-rails-component" data-component-name="${component.react}" data-dom-id="${dom}">${json}</script><div id="${dom}"></div></body></html>`,
      headers,
    ),
    status
  );
};

/** The props of /library for the query's sort, search, creators, archived filter and page. */
export const libraryProps = (state: GumroadState, q: URLSearchParams) => {
  const { dataset, generation, pageSize, view } = state;
  const sort = q.get('sort') === 'purchase_date' ? 'purchase_date' : 'recently_updated';
  const archivedOnly = q.get('show_archived_only') === 'true';
  const query = (q.get('query') ?? '').toLowerCase();
  const creatorIds = (q.get('creators') ?? '').split(',').filter(Boolean);
  const seen = libraryPurchases(dataset).filter((p) => !!p.archived === archivedOnly);
  const sellerOf = (p: GrPurchase) => productBy(dataset, p.permalink)!;
  const updated = (p: GrPurchase) => sellerOf(p).product.contentUpdatedAt ?? sellerOf(p).product.createdAt;
  const all = seen
    .filter((p) => !creatorIds.length || creatorIds.includes(sellerOf(p).seller.externalId))
    .filter((p) => !query || `${sellerOf(p).product.name} ${sellerOf(p).seller.name}`.toLowerCase().includes(query))
    .sort((a, b) => (sort === 'purchase_date' ? b.createdAt - a.createdAt : updated(b) - updated(a)));
  const counts = new Map<string, { id: string; name: string; count: number }>();
  for (const p of seen) {
    const s = sellerOf(p).seller;
    counts.set(s.externalId, { id: s.externalId, name: s.name, count: (counts.get(s.externalId)?.count ?? 0) + 1 });
  }
  if (generation === 'react_on_rails') {
    return {
      results: all.map((p) => libraryCard(view, dataset, p, generation)),
      creators: [...counts.values()],
      bundles: [],
      reviews_page_enabled: true,
      following_wishlists_enabled: true,
    };
  }
  const pages = Math.max(1, Math.ceil(all.length / pageSize));
  const asked = /^\d+$/.test(q.get('page') ?? '') ? Number(q.get('page')) : 1;
  const page = Math.min(Math.max(1, asked), pages);
  const results = all.slice((page - 1) * pageSize, page * pageSize);
  const from = results.length ? (page - 1) * pageSize + 1 : 0;
  return {
    results: results.map((p) => libraryCard(view, dataset, p, generation)),
    pagination: { page, pages, from, to: from ? from + results.length - 1 : 0, count: all.length },
    creators: [...counts.values()],
    bundles: [],
    bundle_downloads: [],
    archived_count: libraryPurchases(dataset).filter((p) => p.archived).length,
    unarchived_count: libraryPurchases(dataset).filter((p) => !p.archived).length,
    search: { sort, query: q.get('query') ?? '', creators: creatorIds, bundles: [], show_archived_only: archivedOnly },
  };
};
