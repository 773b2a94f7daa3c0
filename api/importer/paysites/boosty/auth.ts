/**
 * Boosty's session: the key is the browser's `auth` cookie, JSON (usually URL-encoded) holding
 * accessToken, refreshToken and expiresAt (epoch milliseconds). The access token goes as
 * `Authorization: Bearer` to api.boosty.to only. When Boosty refuses it (401) or it has expired, the
 * session is renewed once with POST /oauth/token/ (form: device_id, device_os=web,
 * grant_type=refresh_token, refresh_token; answer {access_token, refresh_token, expires_in seconds}) as
 * boosty-downloader and boosty_api_rs do; a refused renewal ends the import as a rejected key.
 * Trove's key does not hold the browser's device id (the `_clientId` cookie), so a random one is sent:
 * whether Boosty accepts that is not known (see docs/importing.md).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { decodeComponent, parseJsonText } from '@shared/parse.ts';

export interface BoostyAuth {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const authCookie = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresAt: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]),
});

const tokenAnswer = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1), expires_in: z.number() });

/** The `auth` cookie's value, URL-encoded or not; KeyRejectedError when it is not one (never quoting it). */
export function parseBoostyKey(key: string): BoostyAuth {
  for (const candidate of [key, safeDecode(key)]) {
    if (candidate === undefined) continue;
    const text = parseJsonText(candidate);
    if (!text) continue;
    const json = text.value;
    const parsed = authCookie.safeParse(json);
    if (!parsed.success) break;
    const { accessToken, refreshToken, expiresAt } = parsed.data;
    // Boosty writes milliseconds; a value that small can only be seconds.
    return { accessToken, refreshToken, expiresAt: expiresAt < 1e11 ? expiresAt * 1000 : expiresAt };
  }
  throw new KeyRejectedError('The Boosty key is not the auth cookie (JSON with accessToken, refreshToken and expiresAt)');
}

function safeDecode(value: string): string | undefined {
  return decodeComponent(value);
}

/** The key as a cookie value again (URL-encoded JSON, as the browser keeps it). */
export function boostyKeyText(auth: BoostyAuth): string {
  return encodeURIComponent(JSON.stringify(auth));
}

export interface BoostySession {
  /** api.boosty.to with the bearer token (401 = refused key). */
  api: PaysiteClient;
  /** The media hosts: no credentials, and a 401 there is a stale signature, not the key. */
  media: PaysiteClient;
  /** GET JSON from the API; a 401 or an expired token renews the session once and asks again. */
  get(path: string): Promise<unknown>;
}

/** How soon after a renewal a 401 is taken as the key's end rather than a reason to renew again. */
const RENEWED_RECENTLY_MS = 60_000;

export function boostySession(ctx: ImportContext, onRenewed: (auth: BoostyAuth) => Promise<void>): BoostySession {
  const auth = parseBoostyKey(ctx.key);
  const endpoint = paysiteEndpoint(ctx.config.importer, 'boosty');
  const publicHeaders = {
    accept: 'application/json, text/plain, */*',
    origin: 'https://boosty.to',
    'user-agent': 'Mozilla/5.0 (compatible; Trove importer)',
  };
  // Mutable: a renewal replaces the token for every later request.
  const headers: Record<string, string> = { authorization: `Bearer ${auth.accessToken}` };
  const api = createPaysiteClient({
    label: 'Boosty',
    endpoint,
    importer: ctx.config.importer,
    headers,
    credentialHosts: [],
    publicHeaders,
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });
  const media = createPaysiteClient({
    label: 'Boosty',
    endpoint,
    importer: ctx.config.importer,
    headers: {},
    credentialHosts: [],
    publicHeaders: { 'user-agent': publicHeaders['user-agent'] },
    signal: ctx.signal,
    keyRejectedStatuses: [],
  });
  const deviceId = randomUUID();
  let renewedAt = 0;

  const renew = async (why: string): Promise<void> => {
    const form = new URLSearchParams({
      device_id: deviceId,
      device_os: 'web',
      grant_type: 'refresh_token',
      refresh_token: auth.refreshToken,
    });
    let body: unknown;
    try {
      body = (
        await api.requestJson('/oauth/token/', {
          method: 'POST',
          body: form.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).body;
    } catch (error) {
      if (error instanceof PaysiteRequestError || error instanceof KeyRejectedError) {
        const status = error instanceof PaysiteRequestError ? error.status : 401;
        throw new KeyRejectedError(`Boosty refused the session key (${why}) and did not renew it (${status})`);
      }
      throw error;
    }
    const tokens = tokenAnswer.safeParse(body);
    if (!tokens.success) throw new TransientError('Boosty answered the token renewal in a shape this importer does not understand');
    auth.accessToken = tokens.data.access_token;
    auth.refreshToken = tokens.data.refresh_token;
    auth.expiresAt = Date.now() + tokens.data.expires_in * 1000;
    headers.authorization = `Bearer ${auth.accessToken}`;
    renewedAt = Date.now();
    await onRenewed({ ...auth });
  };

  return {
    api,
    media,
    async get(path) {
      if (auth.expiresAt <= Date.now()) await renew('expired');
      try {
        return await api.getJson(path);
      } catch (error) {
        if (!(error instanceof KeyRejectedError) || Date.now() - renewedAt < RENEWED_RECENTLY_MS) throw error;
        await renew('401');
        return api.getJson(path);
      }
    },
  };
}
