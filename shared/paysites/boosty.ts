import { definePaysite } from './types.ts';
import { decodeUri, fail, maxLength, sessionKeyField } from './key-rules.ts';
import { parseJsonText } from '../parse.ts';

const HEX64 = /^[0-9a-f]{64}$/i;

/**
 * Boosty's auth cookie: JSON, URL-encoded as the browser stores it, or pasted decoded. expiresAt is
 * epoch milliseconds as Boosty writes it; small values are read as seconds.
 */
function boostyKey(value: string): string {
  maxLength(value);
  let text: string | undefined = value;
  let parsed: unknown;
  for (const candidate of [value, decodeUri(value)]) {
    const json = candidate === undefined ? undefined : parseJsonText(candidate);
    if (!json) continue;
    parsed = json.value;
    text = candidate;
    break;
  }
  if (parsed === undefined) fail('Invalid key: Expected valid JSON.');
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fail('Malformed key.');
  const { accessToken, refreshToken, expiresAt } = parsed as Record<string, unknown>;
  if (accessToken === undefined || refreshToken === undefined || expiresAt === undefined) fail('Malformed key.');
  if (typeof accessToken !== 'string' || !HEX64.test(accessToken)) fail('Malformed key.');
  if (typeof refreshToken !== 'string' || !HEX64.test(refreshToken)) fail('Malformed key.');
  const expires =
    typeof expiresAt === 'number' ? expiresAt : typeof expiresAt === 'string' && /^\d+$/.test(expiresAt) ? Number(expiresAt) : NaN;
  if (!Number.isFinite(expires)) fail('Malformed key.');
  const expiresMs = expires < 1e11 ? expires * 1000 : expires;
  if (expiresMs <= Date.now()) fail('Key is expired.');
  return text!;
}

/** Creator ids are Boosty user names. */
export const boosty = definePaysite({
  id: 'boosty',
  label: 'Boosty',
  profileUrl: (id) => `https://boosty.to/${id}`,
  tabs: [],
  attachmentThumbnail: true,
  keyFields: [sessionKeyField(boostyKey)],
  dms: false,
});
