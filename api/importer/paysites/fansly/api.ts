/**
 * Fansly's API (apiv3.fansly.com/api/v1/...) as its web app calls it: the bare token in
 * `authorization`, the signing headers (device id from /device/id, client time, check digest, session
 * id), `ngsw-bypass=true` on every call, answers `{"success": true, "response": ...}`. The check key is
 * read from the web app's main.*.js on the web app's host (the API host without its `apiv3.` label; the
 * same origin when IMPORTER_FANSLY_URL points at a test server). Files come from the CDN through a
 * second client that carries no token. Answers are checked with zod: a shape this importer does not know
 * is a TransientError (retried later) with a line naming what, never a crash or a silent skip.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { KNOWN_CHECK_KEY, checkKeyOf, clientCheck, mainScriptOf, sessionIdOf, tokenOf } from './sign.ts';

const id = z.union([z.string(), z.number()]).transform(String);
const text = z.string().nullish();
const num = z.number().nullish();

export const location = z.object({
  locationId: id.nullish(),
  location: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const mediaBase = z.object({
  id,
  type: num,
  mimetype: text,
  width: num,
  height: num,
  locations: z.array(location).nullish(),
});
export const media = mediaBase.extend({ variants: z.array(mediaBase).nullish() });
export type Media = z.infer<typeof media>;
export type MediaVariant = z.infer<typeof mediaBase>;

export const accountMedia = z.object({
  id,
  accountId: id.nullish(),
  previewId: id.nullish(),
  access: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  media: media.nullish(),
});
export type AccountMedia = z.infer<typeof accountMedia>;

export const bundle = z.object({
  id,
  accountMediaIds: z.array(id).nullish(),
  bundleContent: z.array(z.object({ accountMediaId: id, pos: num })).nullish(),
  deleted: z.boolean().nullish(),
});
export type Bundle = z.infer<typeof bundle>;

export const attachment = z.object({ pos: num, contentType: z.number(), contentId: id });
export type Attachment = z.infer<typeof attachment>;

export const account = z.object({
  id,
  username: z.string(),
  displayName: text,
  avatar: media.nullish(),
  banner: media.nullish(),
});
export type Account = z.infer<typeof account>;

export const post = z.object({
  id,
  accountId: id,
  content: text,
  createdAt: z.number(),
  attachments: z.array(attachment).nullish(),
});
export type Post = z.infer<typeof post>;

/** The answer of /timelinenew and /post. */
export const postContainer = z.object({
  posts: z.array(post),
  aggregatedPosts: z.array(post).nullish(),
  accountMediaBundles: z.array(bundle).nullish(),
  accountMedia: z.array(accountMedia).nullish(),
  accounts: z.array(account.partial({ avatar: true, banner: true })).nullish(),
});

export const message = z.object({
  id,
  senderId: id,
  content: text,
  createdAt: z.number(),
  attachments: z.array(attachment).nullish(),
  deleted: z.boolean().nullish(),
});

export const messagePage = z.object({
  messages: z.array(message),
  accountMedia: z.array(accountMedia).nullish(),
  accountMediaBundles: z.array(bundle).nullish(),
});

export const groups = z.object({
  data: z.array(z.object({ groupId: id, partnerAccountId: id.nullish() })),
});

export const me = z.object({ account: z.object({ id, username: z.string().nullish() }) });
export const subscriptions = z.object({ subscriptions: z.array(z.object({ accountId: id, status: num })) });
export const following = z.array(z.object({ accountId: id }));
export const accounts = z.array(account);
export const accountMediaList = z.array(accountMedia);

const envelope = z.object({ success: z.union([z.boolean(), z.string()]), response: z.unknown() });

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Both clients ask for a new device id when theirs is older than this. */
const DEVICE_ID_MAX_AGE_MS = 180 * 60_000;

export interface FanslyApi {
  /** GETs /api/v1{path} signed, with the query (plus ngsw-bypass), and checks the `response` against `schema`. */
  get<T extends z.ZodType>(path: string, query: Record<string, string>, schema: T, what: string): Promise<z.infer<T>>;
  /** No token: the CDN and the web app's pages. */
  files: PaysiteClient;
}

/** The web app's origin for an API base URL: `https://apiv3.fansly.com` -> `https://fansly.com`. */
export function siteOrigin(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.hostname = url.hostname.replace(/^apiv\d*\./, '');
  return url.origin;
}

/** The query string the web app sends: ngsw-bypass last, commas in id lists left unescaped. */
export function queryString(query: Record<string, string>): string {
  return new URLSearchParams({ ...query, 'ngsw-bypass': 'true' }).toString().replaceAll('%2C', ',');
}

/** Reads the check key from the web app (home page -> main.*.js), or undefined when that fails. */
async function readCheckKey(ctx: ImportContext, files: PaysiteClient, origin: string): Promise<string | undefined> {
  try {
    const home = await files.requestText(`${origin}/`, { headers: { accept: 'text/html' } });
    const main = mainScriptOf(home.body);
    if (!main) return undefined;
    const script = await files.requestText(new URL(main, home.url).toString());
    return checkKeyOf(script.body);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

export async function openFanslyApi(ctx: ImportContext): Promise<FanslyApi> {
  const endpoint = paysiteEndpoint(ctx.config.importer, 'fansly');
  const token = tokenOf(ctx.key);
  const sessionId = sessionIdOf(token);
  const publicHeaders = {
    'user-agent': USER_AGENT,
    'accept-language': 'en-US,en;q=0.9',
    origin: 'https://fansly.com',
    referer: 'https://fansly.com/',
  };
  const client = createPaysiteClient({
    label: 'Fansly',
    endpoint,
    importer: ctx.config.importer,
    headers: { authorization: token },
    publicHeaders: { ...publicHeaders, accept: 'application/json, text/plain, */*' },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });
  const files = createPaysiteClient({
    label: 'Fansly',
    endpoint,
    importer: ctx.config.importer,
    headers: {},
    publicHeaders,
    signal: ctx.signal,
  });

  const found = await readCheckKey(ctx, files, siteOrigin(endpoint.baseUrl));
  if (!found) await ctx.log("Could not read Fansly's check key from its web app; signing with the last known one.");
  const checkKey = found ?? KNOWN_CHECK_KEY;

  const call = async (url: string, headers: Record<string, string>): Promise<unknown> => {
    try {
      return await client.getJson(url, { headers });
    } catch (error) {
      // JK's client retries 418 like a 5xx: Fansly sends it at times.
      if (error instanceof PaysiteRequestError && error.status === 418) throw new TransientError('Fansly answered 418');
      if (error instanceof KeyRejectedError && !found) {
        const line = 'Fansly refused a signed request, and its check key could not be read from fansly.com: the signing may have changed.';
        await ctx.log(line);
        throw new TransientError(line);
      }
      throw error;
    }
  };
  let device: { id: string; at: number } | undefined;
  const deviceId = async () => {
    if (!device || Date.now() - device.at > DEVICE_ID_MAX_AGE_MS) {
      const body = envelope.safeParse(await call(`/api/v1/device/id?${queryString({})}`, {}));
      if (!body.success || typeof body.data.response !== 'string')
        throw new TransientError('Fansly sent a device id the importer does not understand');
      device = { id: body.data.response, at: Date.now() };
    }
    return device.id;
  };
  let lastTs = 0;
  const clientTs = () => {
    // The web app's time plus a jitter of -4999..+5000 ms, never going back.
    lastTs = Math.max(lastTs, Date.now() + 5000 - Math.floor(10_000 * Math.random()));
    return String(lastTs);
  };

  return {
    files,
    async get(path, query, schema, what) {
      const pathname = `/api/v1${path}`;
      const device = await deviceId();
      const headers: Record<string, string> = {
        'fansly-client-id': device,
        'fansly-client-ts': clientTs(),
        'fansly-client-check': clientCheck(checkKey, pathname, device),
        ...(sessionId ? { 'fansly-session-id': sessionId } : {}),
      };
      const answer = await call(`${pathname}?${queryString(query)}`, headers);
      const body = envelope.safeParse(answer);
      if (!body.success || (body.data.success !== true && body.data.success !== 'true'))
        throw new TransientError(`Fansly did not answer ${what} with success`);
      const parsed = schema.safeParse(body.data.response);
      if (!parsed.success) throw new TransientError(`Fansly sent ${what} in a shape the importer does not understand`);
      return parsed.data;
    },
  };
}

/** Both clients ask /account/media for at most this many ids at once. */
export const MEDIA_BATCH = 150;

/** accountMedia items by id from /account/media (the timeline's and messages' lists can be incomplete). */
export async function fetchAccountMedia(api: FanslyApi, ids: readonly string[]): Promise<AccountMedia[]> {
  const out: AccountMedia[] = [];
  for (let i = 0; i < ids.length; i += MEDIA_BATCH) {
    out.push(...(await api.get('/account/media', { ids: ids.slice(i, i + MEDIA_BATCH).join(',') }, accountMediaList, 'media items')));
  }
  return out;
}
