/**
 * DLsite as its own clients reach it (facts: docs/importing.md, DLsite section). The key is the store
 * session (`__DLsite_SID`, or a browser's whole `.dlsite.com` Cookie string); the Play API needs a
 * separate, short-lived Play session, which the store session turns into through the login redirects
 * (`/home/login/=/skip_register/1` -> OAuth -> play.dlsite.com -> `/home/login/finish`), followed by hand
 * with every cookie kept in the import's jar. A Play 401 is answered by one more exchange; a second 401
 * (or a login page where a download should be) means the key is refused. Answers are checked with zod: a
 * shape this importer does not know is a TransientError with a clear line, never a silent skip.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { jarWithSessionCookie, type CookieJar } from '@api/importer/cookies.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClient, type TextAnswer } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { keyCookieHeader } from './map.ts';
import { parseJsonText } from '@shared/parse.ts';

const text = z.string().nullish();
const localized = z.record(z.string(), z.string().nullish());

/** GET play.dlsite.com/api/v3/content/count */
const count = z.object({ user: z.number(), page_limit: z.number().int().positive().nullish() });
/** GET play.dlsite.com/api/v3/content/sales?last=0: one item per purchase. */
const sale = z.object({ workno: z.string(), sales_date: text });

/** One object of POST play.dlsite.com/api/v3/content/works {"works": [...]} */
export const playWork = z.object({
  workno: z.string(),
  name: localized.nullish(),
  maker: z.object({ id: z.string(), name: localized.nullish() }),
  work_type: text,
  age_category: text,
  work_files: z.record(z.string(), z.string().nullish()).nullish(),
  regist_date: text,
  upgrade_date: text,
  tags: z.array(z.object({ class: z.string(), name: z.string() })).nullish(),
  file_type: text,
});
export type PlayWork = z.infer<typeof playWork>;

/** The object of GET www.dlsite.com/maniax/api/=/product.json?workno= (the answer is [it], or [] when unknown). */
export const product = z.object({
  workno: z.string(),
  work_name: text,
  maker_id: text,
  maker_name: text,
  site_id: text,
  intro_s: text,
  regist_date: text,
  update_date: text,
  file_type: text,
  genres: z.array(z.object({ name: z.string() })).nullish(),
  image_main: z.object({ url: z.string(), file_name: text }).nullish(),
  contents: z.array(z.object({ file_name: z.string(), file_size: z.number().nullish() })).nullish(),
  is_dlsiteplay_only_work: z.boolean().nullish(),
});
export type Product = z.infer<typeof product>;

/** GET play.dl.dlsite.com/api/v3/download/sign/cookie?workno= */
const signed = z.object({ url: z.string(), cookies: z.record(z.string(), z.string()) });
export interface TreeNode {
  type: string;
  name: string;
  hashname?: string | null;
  children?: TreeNode[] | null;
}
const treeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ type: z.string(), name: z.string(), hashname: text, children: z.array(treeNode).nullish() }),
);
const optimized = z.object({ optimized: z.object({ name: z.string(), crypt: z.boolean().nullish() }).nullish() });
/** {url}ziptree.json: the work's folder tree with real names, and the web versions of its files by hashname. */
const ziptree = z.object({ tree: z.array(treeNode), playfile: z.record(z.string(), z.looseObject({ type: z.string() })) });
export interface PlayFile {
  /** The name in the work's tree ('001.jpg'). */
  name: string;
  type: string;
  /** The web version's URL, or undefined when it has none. */
  url?: string;
  /** Scrambled (crypt) images cannot be archived as they are. */
  crypt: boolean;
}

export type Resolved = { kind: 'file'; url: string } | { kind: 'array' } | { kind: 'gone'; status: number };

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new TransientError(`DLsite answered ${what} in a shape this importer does not understand`);
  return result.data;
}

function json(answer: TextAnswer, what: string): unknown {
  const parsed = parseJsonText(answer.body);
  if (!parsed) throw new TransientError(`DLsite answered ${what} with something that is not JSON`);
  return parsed.value;
}

const PAGE = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const JSON_ACCEPT = 'application/json, text/html;q=0.9, */*;q=0.8';
const MAX_HOPS = 8;
/** The most worknos one content/works request asks for when DLsite names no limit (dm-api, dlsite_deck). */
export const DEFAULT_PAGE_LIMIT = 50;

export interface DlsiteApi {
  client: PaysiteClient;
  /** Makes a Play session from the key and checks it; KeyRejectedError when DLsite refuses the key. */
  connect(): Promise<{ works: number; pageLimit: number }>;
  sales(): Promise<z.infer<typeof sale>[]>;
  /** The Play objects of these works (fewer when DLsite has no metadata for some), at most `limit` a request. */
  works(worknos: string[], limit: number): Promise<PlayWork[]>;
  product(workno: string): Promise<Product | undefined>;
  /** The work page's HTML (with the age gate passed), or undefined when there is none. */
  workPage(site: string, workno: string): Promise<string | undefined>;
  /** Where Play sends the work's download (direct, split or serial page), or undefined (404: nothing to download). */
  downloadTarget(workno: string): Promise<string | undefined>;
  /** A store page (the split or serial page): its HTML and address. */
  page(url: string): Promise<TextAnswer>;
  /** Follows a store download URL to the file server (keeping its cookie); a login page there refuses the key. */
  resolve(url: string): Promise<Resolved>;
  /** The work's DLsite Play (streamed) files, or undefined when it has none. */
  playFiles(workno: string): Promise<PlayFile[] | undefined>;
}

export function dlsiteApi(ctx: ImportContext): DlsiteApi {
  const endpoint = paysiteEndpoint(ctx.config.importer, 'dlsite');
  const playBase = endpoint.cdnUrl ?? 'https://play.dlsite.com';
  // play.dlsite.com -> play.dl.dlsite.com (a fake on one origin keeps its host).
  const playDlBase = playBase.replace(/^(https?:\/\/)play\./, '$1play.dl.');
  const jar: CookieJar = jarWithSessionCookie(endpoint.baseUrl, 'adultchecked', '1');
  const client = createPaysiteClient({
    label: 'DLsite',
    endpoint,
    importer: ctx.config.importer,
    // The store session, sent to the .dlsite.com credential hosts only (./endpoints.ts).
    headers: { cookie: keyCookieHeader(ctx.key) },
    publicHeaders: {
      // dlsite_deck sends a desktop browser's, as the session is borrowed from a browser.
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      'accept-language': 'ja,en;q=0.8',
    },
    signal: ctx.signal,
    // 401 is judged here: a Play 401 first gets a new Play session.
    keyRejectedStatuses: [],
    cookies: jar,
  });

  const exchange = async () => {
    let url = client.url('/home/login/=/skip_register/1');
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const answer = await client.requestText(url, { redirect: 'manual', headers: { accept: PAGE }, allowStatuses: [401, 403, 404] });
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || !location) break;
      url = new URL(location, answer.url).toString();
    }
    // The chain usually ends there; dm-api asks for it in any case.
    if (!new URL(url).pathname.endsWith('/home/login/finish'))
      await client.requestText('/home/login/finish', { headers: { accept: PAGE }, allowStatuses: [401, 403, 404] });
  };

  /** A Play API call; a 401 is answered by one new Play session, a second one refuses the key. */
  const play = async (url: string, init: { method?: string; body?: string; redirect?: 'manual' } = {}): Promise<TextAnswer> => {
    for (let tries = 0; ; tries++) {
      const answer = await client.requestText(url, {
        ...init,
        headers: { accept: JSON_ACCEPT, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        allowStatuses: [400, 401, 404],
      });
      if (answer.status !== 401) return answer;
      if (tries > 0) throw new KeyRejectedError('DLsite refused the session key (401)');
      await exchange();
    }
  };

  const worksBatch = async (ids: string[]): Promise<{ works: PlayWork[] } | { limit: number }> => {
    const answer = await play(`${playBase}/api/v3/content/works`, { method: 'POST', body: JSON.stringify(ids) });
    if (answer.status === 400) {
      // A batch over the limit: the limit is in the body (or a header), as dm-api and dlsite_deck read it.
      const header = Number(answer.headers['x-page-limit'] ?? answer.headers['x-limit']);
      let named = Number.isFinite(header) && header > 0 ? header : undefined;
      if (!named) {
        const body = (() => {
          return (parseJsonText(answer.body)?.value ?? {}) as { page_limit?: unknown };
        })();
        named = typeof body.page_limit === 'number' ? body.page_limit : Number(/(\d+)/.exec(answer.body)?.[1]);
      }
      if (!named || !Number.isFinite(named) || named >= ids.length)
        throw new TransientError('DLsite refused a request for work details (400)');
      return { limit: named };
    }
    if (answer.status !== 200) throw new TransientError(`DLsite answered ${answer.status} for work details`);
    return parse(z.object({ works: z.array(playWork) }), json(answer, 'the work details'), 'the work details');
  };

  return {
    client,
    async connect() {
      await exchange();
      const answer = await client.requestText(`${playBase}/api/v3/content/count`, {
        headers: { accept: JSON_ACCEPT },
        allowStatuses: [401],
      });
      if (answer.status === 401) throw new KeyRejectedError('DLsite refused the session key (401)');
      const body = parse(count, json(answer, 'the library count'), 'the library count');
      return { works: body.user, pageLimit: body.page_limit ?? DEFAULT_PAGE_LIMIT };
    },
    async sales() {
      const answer = await play(`${playBase}/api/v3/content/sales?last=0`);
      if (answer.status !== 200) throw new TransientError(`DLsite answered ${answer.status} for the library`);
      return parse(z.array(sale), json(answer, 'the library'), 'the library');
    },
    async works(worknos, limit) {
      const out: PlayWork[] = [];
      let size = Math.max(1, limit);
      for (let at = 0; at < worknos.length; ) {
        const batch = worknos.slice(at, at + size);
        const answer = await worksBatch(batch);
        if ('limit' in answer) {
          size = answer.limit;
          continue;
        }
        out.push(...answer.works);
        at += batch.length;
      }
      return out;
    },
    async product(workno) {
      const answer = await client.requestText(`/maniax/api/=/product.json?workno=${encodeURIComponent(workno)}`, {
        headers: { accept: JSON_ACCEPT },
        allowStatuses: [404],
      });
      if (answer.status === 404) return undefined;
      const list = parse(z.array(product), json(answer, `work ${workno}`), `work ${workno}`);
      return list.find((p) => p.workno === workno);
    },
    async workPage(site, workno) {
      const path = `/${encodeURIComponent(site)}/work/=/product_id/${encodeURIComponent(workno)}.html`;
      const answer = await client.requestText(path, { headers: { accept: PAGE }, allowStatuses: [404, 410] });
      return answer.status === 200 ? answer.body : undefined;
    },
    async downloadTarget(workno) {
      const answer = await play(`${playBase}/api/v3/download?workno=${encodeURIComponent(workno)}`, { redirect: 'manual' });
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) return new URL(location, answer.url).toString();
      if (answer.status === 404) return undefined;
      throw new TransientError(`DLsite answered ${answer.status} for the download of ${workno}`);
    },
    page(url) {
      return client.requestText(url, { headers: { accept: PAGE }, allowStatuses: [404] });
    },
    async resolve(url) {
      let next = url;
      for (let hop = 0; hop < MAX_HOPS; hop++) {
        const answer = await client.requestText(next, { redirect: 'manual', headers: { accept: PAGE }, allowStatuses: [403, 404, 410] });
        const location = answer.headers.location;
        if (answer.status >= 300 && answer.status < 400 && location) {
          // A split work's single-file URL answers `Location: Array` (literally).
          if (location === 'Array') return { kind: 'array' };
          const target = new URL(location, answer.url);
          // The file server: download() asks it (with the cookie this redirect set).
          if (/\/get\/|\/file\//.test(target.pathname)) return { kind: 'file', url: target.toString() };
          next = target.toString();
          continue;
        }
        if (answer.status === 200 && /text\/html/i.test(String(answer.headers['content-type'] ?? '')))
          throw new KeyRejectedError('DLsite answered its login page instead of a download: the session key was refused');
        if (answer.status === 200) return { kind: 'file', url: next };
        return { kind: 'gone', status: answer.status };
      }
      throw new TransientError('DLsite redirected a download too many times');
    },
    async playFiles(workno) {
      const sign = await play(`${playDlBase}/api/v3/download/sign/cookie?workno=${encodeURIComponent(workno)}`);
      if (sign.status === 404) return undefined;
      if (sign.status !== 200) throw new TransientError(`DLsite Play answered ${sign.status} for ${workno}`);
      const { url, cookies } = parse(signed, json(sign, 'a Play signature'), 'a Play signature');
      const base = new URL(url, playDlBase);
      // CloudFront's signed cookies, for the work's folder only.
      for (const [name, value] of Object.entries(cookies)) jar.setCookieSync(`${name}=${value}; Path=${base.pathname}`, base.toString());
      const answer = await client.requestText(new URL('ziptree.json', base).toString(), { headers: { accept: JSON_ACCEPT } });
      const tree = parse(ziptree, json(answer, `the Play files of ${workno}`), `the Play files of ${workno}`);
      const files: PlayFile[] = [];
      const walk = (nodes: TreeNode[]) => {
        for (const node of nodes) {
          if (node.type === 'folder') walk(node.children ?? []);
          if (node.type !== 'file' || !node.hashname) continue;
          const entry = tree.playfile[node.hashname];
          const web = entry ? optimized.safeParse((entry as Record<string, unknown>)[entry.type]) : undefined;
          const found = web?.success ? web.data.optimized : undefined;
          files.push({
            name: node.name,
            type: entry?.type ?? 'unknown',
            url: found ? new URL(`optimized/${encodeURIComponent(found.name)}`, base).toString() : undefined,
            crypt: found?.crypt === true,
          });
        }
      };
      walk(tree.tree);
      return files;
    },
  };
}
