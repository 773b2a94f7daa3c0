/**
 * Building blocks of the importer's key rules (the checks of each descriptor's key fields). A check
 * returns the value or calls fail(message); shared/importer.ts turns the failure into the zod issue the
 * form and the API show. Browser-safe: web APIs only (atob, TextDecoder).
 */
import { KEY_MAX_LENGTH } from '../constants.ts';
import type { KeyField } from './types.ts';
import { parseJsonText } from '../parse.ts';

/** A rule's refusal, carrying the message shown to the user. */
export class KeyRuleFailure extends Error {}

export const fail = (message: string): never => {
  throw new KeyRuleFailure(message);
};

const KEY_REQUIRED = 'Session key is required.';
const TOO_LONG = 'Key is too long.';

/** The value, or fail(message) when it is longer than KEY_MAX_LENGTH. */
export function maxLength(value: string, message = TOO_LONG): string {
  if (value.length > KEY_MAX_LENGTH) fail(message);
  return value;
}

/** The session key input (label 'Session key' unless given) with its rule. */
export function sessionKeyField(check: (value: string) => string, label = 'Session key'): KeyField {
  return { name: 'session_key', label, maxLength: KEY_MAX_LENGTH, requiredMessage: KEY_REQUIRED, check };
}

/** Base64 (standard or URL alphabet, padding optional) as UTF-8 text; undefined when it is not that. */
export function base64Text(value: string): string | undefined {
  const normalised = value.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalised)) return undefined;
  const padded = normalised.padEnd(Math.ceil(normalised.length / 4) * 4, '=');
  try {
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    // atob refuses a bad length with a DOMException; the fatal decoder refuses bytes that are not UTF-8 with a TypeError.
    if (error instanceof TypeError || (typeof DOMException !== 'undefined' && error instanceof DOMException)) return undefined;
    throw error;
  }
}

export { decodeComponent as decodeUri } from '../parse.ts';

/** The object a JSON text holds, or undefined when it is not JSON or not an object. */
export function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  const parsed = text === undefined ? undefined : parseJsonText(text)?.value;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}
