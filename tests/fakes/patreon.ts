/**
 * A fake Patreon for the importer tests and the end-to-end run: a real HTTP server on 127.0.0.1 that
 * answers the website API paths the importer calls (/api/current_user, /api/posts, /api/posts/{id}/comments,
 * /api/conversations, /api/conversations/{id}/messages) with Patreon's JSON:API shapes and cursor paging,
 * the attachment redirect (/file?h=&i=) and CDN-like file URLs serving real PNG bytes. A missing or wrong
 * `session_id` cookie gets Patreon's 401 error document. Knobs: 429 with Retry-After or a 5xx for the
 * next N API requests, expire the key, edit a post, send an attachment redirect to a foreign host, make
 * a file huge. It stands in for Patreon only; the tests use the real database and importer.
 */
import type http from 'node:http';
import { findCreatorPost } from './kit/data.ts';
import { image } from './kit/media.ts';
import { Faults, jsonAs, redirect, send, startHost } from './kit/server.ts';
import { campaignResource, commentResources, demoDataset, postResources, type FakeDataset } from './patreon-data.ts';

export * from './patreon-data.ts';

/** A valid-looking 43-character session_id the fake accepts by default. */
export const FAKE_PATREON_KEY = 'FakePatreonSessionKey0123456789abcdefghijkl';

export interface FakePatreonOptions {
  key?: string;
  dataset?: FakeDataset;
  /** Posts per page (Patreon's website asks for 20 by default); small values exercise paging. */
  pageSize?: number;
  /** Top-level comments per page. */
  commentPageSize?: number;
  port?: number;
}

export interface FakeRequest {
  method: string;
  /** Without the query. */
  path: string;
  status: number;
}

export interface FakePatreon {
  url: string;
  dataset: FakeDataset;
  requests: FakeRequest[];
  /** The next `count` API requests answer 429 with this Retry-After (seconds). */
  rateLimit(count: number, retryAfterSeconds: number): void;
  /** The next `count` API requests answer `status` (e.g. 503). */
  fail(count: number, status?: number): void;
  /** From now on the key is refused (401), as after the user logs out. */
  expireKey(): void;
  /** Changes a post's content and edited_at, as an edit on Patreon does. */
  editPost(postId: string, content: string): void;
  /** The attachment link of this file name redirects to a host that is not Patreon's. */
  redirectToForeignHost(fileName: string): void;
  /** Serves this file with `bytes` bytes (a real PNG padded out). */
  oversize(fileName: string, bytes: number): void;
  close(): Promise<void>;
}

const sendJson = jsonAs('application/vnd.api+json');

type Resource = { type: string; id: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data: unknown }> };
type Linkage = { type: string; id: string };

/**
 * A JSON:API document cut to what the request asked for, as Patreon's API answers: `fields[type]=a,b`
 * keeps only those attributes of that type's resources; a resource's relationships are kept only where an
 * `include` path names them, and `included` holds only the resources those paths reach. So an importer that
 * forgets a field or an include gets nothing for it, as it would from Patreon.
 */
export function sparse(doc: { data: unknown; included?: unknown[] } & Record<string, unknown>, url: URL) {
  const fields = new Map<string, Set<string>>();
  for (const [name, value] of url.searchParams) {
    const type = /^fields\[(.+)\]$/.exec(name)?.[1];
    if (type) fields.set(type, new Set(value.split(',').filter(Boolean)));
  }
  const paths = (url.searchParams.get('include') ?? '')
    .split(',')
    .filter(Boolean)
    .map((path) => path.split('.'));
  const pool = new Map<string, Resource>((doc.included as Resource[] | undefined)?.map((r) => [`${r.type}:${r.id}`, r]) ?? []);
  const reached = new Map<string, Resource>();
  const cut = (resource: Resource, prefix: string[]): Resource => {
    const wanted = fields.get(resource.type);
    const attributes = Object.fromEntries(Object.entries(resource.attributes ?? {}).filter(([name]) => !wanted || wanted.has(name)));
    const relationships: Record<string, { data: unknown }> = {};
    for (const [name, relation] of Object.entries(resource.relationships ?? {})) {
      const next = [...prefix, name];
      if (!paths.some((path) => next.every((segment, i) => path[i] === segment))) continue;
      relationships[name] = relation;
      const targets = (Array.isArray(relation.data) ? relation.data : [relation.data]).filter(Boolean) as Linkage[];
      for (const target of targets) {
        const key = `${target.type}:${target.id}`;
        const found = pool.get(key);
        if (found && !reached.has(key)) reached.set(key, cut(found, next));
      }
    }
    return { type: resource.type, id: resource.id, attributes, relationships };
  };
  const data = Array.isArray(doc.data) ? (doc.data as Resource[]).map((r) => cut(r, [])) : cut(doc.data as Resource, []);
  return { ...doc, data, included: [...reached.values()] };
}

const errorDoc = (status: number, title: string) => ({
  errors: [{ code: status === 401 ? 1 : 0, code_name: title.replace(/\s/g, ''), detail: title, status: String(status), title }],
});

/** Opaque-looking page cursors, as Patreon's are. */
const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const decodeCursor = (value: string | null) => (value ? Number(Buffer.from(value, 'base64url').toString().split(':')[1]) || 0 : 0);

export async function startFakePatreon(options: FakePatreonOptions = {}): Promise<FakePatreon> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 20;
  const commentPageSize = options.commentPageSize ?? 10;
  let key: string | null = options.key ?? FAKE_PATREON_KEY;
  const faults = new Faults();
  const foreign = new Set<string>();
  const sizes = new Map<string, number>();
  const requests: FakeRequest[] = [];
  let origin = '';

  const findPost = (id: string) => findCreatorPost(dataset.campaigns, (p) => p.id === id);

  /** Answers one page of `items`, with links.next keeping every query parameter but the cursor. */
  const paged = <T>(url: URL, items: T[], size: number) => {
    const offset = decodeCursor(url.searchParams.get('page[cursor]'));
    const page = items.slice(offset, offset + size);
    let next: string | null = null;
    if (offset + size < items.length) {
      const nextUrl = new URL(url.toString());
      nextUrl.searchParams.set('page[cursor]', encodeCursor(offset + size));
      next = nextUrl.toString();
    }
    return {
      page,
      links: next ? { next } : {},
      meta: { pagination: { total: items.length, cursors: { next: next ? encodeCursor(offset + size) : null } } },
    };
  };

  const api = (url: URL, res: http.ServerResponse): number => {
    const path = url.pathname;
    if (path === '/api/current_user') {
      const campaigns = dataset.campaigns.map((c) => campaignResource(origin, c));
      const members = dataset.campaigns.map((c) => ({
        type: 'member',
        id: `m-${c.id}`,
        attributes: { patron_status: 'active_patron', is_free_member: false },
        relationships: { campaign: { data: { type: 'campaign', id: c.id } } },
      }));
      sendJson(
        res,
        200,
        sparse(
          {
            data: {
              type: 'user',
              id: dataset.fanUserId,
              attributes: { full_name: 'Fake Fan' },
              relationships: { active_memberships: { data: members.map((m) => ({ type: 'member', id: m.id })) } },
            },
            included: [...members, ...campaigns],
            links: { self: `${origin}/api/user/${dataset.fanUserId}` },
          },
          url,
        ),
      );
      return 200;
    }
    if (path === '/api/posts') {
      const campaign = dataset.campaigns.find((c) => c.id === url.searchParams.get('filter[campaign_id]'));
      if (!campaign) return (sendJson(res, 400, errorDoc(400, 'Bad Request')), 400);
      const sorted = [...campaign.posts].sort((a, b) => b.published_at.localeCompare(a.published_at));
      const { page, links, meta } = paged(url, sorted, pageSize);
      const rendered = page.map((p) => postResources(origin, campaign, p));
      const included = new Map<string, unknown>();
      for (const r of [
        campaignResource(origin, campaign),
        { type: 'user', id: campaign.creatorUserId, attributes: { full_name: campaign.name } },
        ...rendered.flatMap((x) => x.included),
      ]) {
        included.set(`${r.type}:${r.id}`, r);
      }
      sendJson(res, 200, sparse({ data: rendered.map((r) => r.data), included: [...included.values()], links, meta }, url));
      return 200;
    }
    const comments = /^\/api\/posts\/([^/]+)\/comments$/.exec(path);
    if (comments) {
      const found = findPost(decodeURIComponent(comments[1]));
      if (!found) return (sendJson(res, 404, errorDoc(404, 'Not Found')), 404);
      const { page, links, meta } = paged(url, found.post.comments, commentPageSize);
      const rendered = page.map((c) => commentResources(c, null));
      sendJson(res, 200, sparse({ data: rendered.map((r) => r.data), included: rendered.flatMap((r) => r.included), links, meta }, url));
      return 200;
    }
    if (path === '/api/conversations') {
      const { page, links } = paged(url, dataset.conversations, 20);
      sendJson(
        res,
        200,
        sparse(
          {
            data: page.map((c) => ({
              type: 'conversation',
              id: c.id,
              attributes: {},
              relationships: { participants: { data: c.participantIds.map((id) => ({ type: 'user', id })) } },
            })),
            included: [],
            links,
          },
          url,
        ),
      );
      return 200;
    }
    const messages = /^\/api\/conversations\/([^/]+)\/messages$/.exec(path);
    if (messages) {
      const conversation = dataset.conversations.find((c) => c.id === decodeURIComponent(messages[1]));
      if (!conversation) return (sendJson(res, 404, errorDoc(404, 'Not Found')), 404);
      const { page, links } = paged(url, conversation.messages, 2);
      sendJson(
        res,
        200,
        sparse(
          {
            data: page.map((m) => ({
              type: 'message',
              id: m.id,
              attributes: { content: m.content, sent_at: m.sent_at },
              relationships: { sender: { data: { type: 'user', id: m.senderId } } },
            })),
            included: [],
            links,
          },
          url,
        ),
      );
      return 200;
    }
    sendJson(res, 404, errorDoc(404, 'Not Found'));
    return 404;
  };

  /** Bytes depend on the path: the same file linked twice from one post is one file. */
  const serveFile = async (path: string, name: string, res: http.ServerResponse): Promise<number> => {
    let body = await image(path);
    const size = sizes.get(name);
    if (size && size > body.length) body = Buffer.concat([body, Buffer.alloc(size - body.length)]);
    send(res, 200, body, 'image/png');
    return 200;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<number> => {
    if (url.pathname.startsWith('/api/')) {
      const fault = faults.take();
      if (fault?.kind === 'limit') {
        sendJson(res, 429, errorDoc(429, 'Too Many Requests'), { 'retry-after': String(fault.retryAfter) });
        return 429;
      }
      if (fault) {
        sendJson(res, fault.status, errorDoc(fault.status, 'Service Unavailable'));
        return fault.status;
      }
      const cookie = /(?:^|;\s*)session_id=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
      if (!key || cookie !== key) {
        sendJson(res, 401, errorDoc(401, 'Unauthorized'));
        return 401;
      }
      return api(url, res);
    }
    if (url.pathname === '/file') {
      const [postId, attachmentId] = [url.searchParams.get('h') ?? '', url.searchParams.get('i') ?? ''];
      const found = findPost(postId);
      const index = Number(attachmentId.slice(postId.length + 1));
      const name = found?.post.attachments[index];
      if (!found || name === undefined) return (res.writeHead(404).end(), 404);
      const target = foreign.has(name)
        ? `http://localhost:${new URL(origin).port}/p/post/${postId}/${name}`
        : `${origin}/p/post/${postId}/${encodeURIComponent(name)}?token-hash=s3cr3tT0k3n`;
      redirect(res, target);
      return 302;
    }
    const file = /^\/p\/(?:post\/[^/]+|inline|campaign\/[^/]+)\/([^/]+)$/.exec(url.pathname);
    if (file) return serveFile(url.pathname, decodeURIComponent(file[1]), res);
    res.writeHead(404).end();
    return 404;
  };

  const host = await startHost({
    port: options.port,
    log: (req, url) => {
      const entry: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, status: 0 };
      requests.push(entry);
      return entry;
    },
    handler: handle,
  });
  origin = host.origin;

  return {
    url: origin,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (key = null),
    editPost(postId, content) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      found.post.content = content;
      found.post.edited_at = new Date().toISOString().replace('Z', '+00:00');
    },
    redirectToForeignHost: (fileName) => void foreign.add(fileName),
    oversize: (fileName, bytes) => void sizes.set(fileName, bytes),
    close: host.close,
  };
}
