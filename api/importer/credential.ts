/**
 * What an import needs to sign in to a paysite, as one string: the session key itself for every
 * paysite but OnlyFans, whose requests also need the auth_id cookie, the x-bc header and the browser's
 * User-Agent (all four must match the browser session). That string is what gets sealed for the worker
 * (work-key.ts) and in a kept key (key-store.ts); the fingerprint stays over the session key alone,
 * which is what identifies the session (x-bc and the User-Agent change with the browser, not the login).
 */
import type { ImportSubmission } from '@shared/importer.ts';
import { decodeComponent, parseJsonText } from '@shared/parse.ts';

export interface OnlyfansCredential {
  session_key: string;
  auth_id: string;
  'x-bc': string;
  user_agent: string;
}

/** The credential of a validated submission, as sealed. */
export function credentialText(submission: ImportSubmission): string {
  if (submission.service !== 'onlyfans') return submission.session_key;
  const credential: OnlyfansCredential = {
    session_key: submission.session_key,
    auth_id: submission.auth_id ?? '',
    'x-bc': submission['x-bc'] ?? '',
    user_agent: submission.user_agent ?? '',
  };
  return JSON.stringify(credential);
}

/** Reads an OnlyFans credential back (the importer's view); undefined when the text is not one. */
export function parseOnlyfansCredential(text: string): OnlyfansCredential | undefined {
  if (!text.startsWith('{')) return undefined;
  const value = parseJsonText(text)?.value as Partial<OnlyfansCredential> | null | undefined;
  if (!value || typeof value.session_key !== 'string') return undefined;
  return {
    session_key: value.session_key,
    auth_id: String(value.auth_id ?? ''),
    'x-bc': String(value['x-bc'] ?? ''),
    user_agent: String(value.user_agent ?? ''),
  };
}

/** Boosty's key is its `auth` cookie, (URL-encoded) JSON: its access and refresh tokens are secrets on their own. */
function tokensInJson(text: string): string[] {
  // Not URL-encoded: as it is.
  const decoded = decodeComponent(text) ?? text;
  if (!decoded.startsWith('{')) return [];
  const value = parseJsonText(decoded)?.value as Record<string, unknown> | null | undefined;
  return [value?.accessToken, value?.refreshToken].filter((token): token is string => typeof token === 'string' && token.length >= 8);
}

/**
 * Every secret string a credential holds, longest first, for scrubbing messages: the whole text and,
 * for OnlyFans, each field. Fields shorter than 4 characters are left out: replacing them would
 * mangle ordinary numbers in a message, and no real auth_id is that short.
 */
export function credentialSecrets(text: string): string[] {
  const parts = new Set<string>([text]);
  const onlyfans = parseOnlyfansCredential(text);
  if (onlyfans) for (const value of Object.values(onlyfans)) if (value.length >= 4) parts.add(value);
  for (const token of tokensInJson(text)) parts.add(token);
  return [...parts].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** A message with every secret of the credential replaced by [key]. */
export function redactCredential(message: string, text: string): string {
  let out = message;
  for (const secret of credentialSecrets(text)) out = out.split(secret).join('[key]');
  return out;
}
