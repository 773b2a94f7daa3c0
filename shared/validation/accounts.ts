/**
 * Registration, login and password change, and the account roles.
 *
 * Username pattern (the spec leaves it to us): after normalisation (lowercased, characters outside
 * a-z 0-9 _ @ + . - removed, trimmed) a username must start with a letter or a digit:
 * USERNAME_PATTERN below. The message quotes it.
 */
import { z } from 'zod';
import { rule, scalarText } from './rules.ts';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../constants.ts';
import { isPaysite, type Paysite } from '../paysites/index.ts';
import { parseJsonText } from '../parse.ts';

export const ACCOUNT_ROLES = ['consumer', 'moderator', 'administrator'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Letters and digits first; then letters, digits and _ @ + . - (see the file comment). */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9_@+.-]*$/;

export function normalizeUsername(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9_@+.-]/g, '')
    .trim();
}

export const USERNAME_MESSAGES = {
  required: 'Username is required.',
  length: `Username must be at least ${USERNAME_MIN} characters and no more than ${USERNAME_MAX} characters long.`,
  pattern: `Username doesn't match pattern ${USERNAME_PATTERN.source} (it must start with a letter or a digit).`,
} as const;

export const username = rule(
  (raw, fail) => {
    const value = typeof raw === 'string' ? normalizeUsername(raw) : '';
    if (!value) fail(USERNAME_MESSAGES.required);
    if (value.length < USERNAME_MIN || value.length > USERNAME_MAX) fail(USERNAME_MESSAGES.length);
    if (!USERNAME_PATTERN.test(value)) fail(USERNAME_MESSAGES.pattern);
    return value;
  },
  { type: 'string', minLength: USERNAME_MIN, maxLength: USERNAME_MAX, pattern: USERNAME_PATTERN.source },
);

function passwordRule(required: string, tooShort?: string, trim = false) {
  return rule(
    (raw, fail) => {
      let value = typeof raw === 'string' ? raw : '';
      if (trim) value = value.trim();
      if (!value) fail(required);
      if (tooShort && value.length < PASSWORD_MIN) fail(tooShort);
      return value;
    },
    { type: 'string', format: 'password', ...(tooShort ? { minLength: PASSWORD_MIN } : {}) },
  );
}

export const password = passwordRule('Password is required.', `Password must have at least ${PASSWORD_MIN} characters.`);

export interface FavoriteRef {
  service: Paysite;
  id: string;
  /** Set for a post: its creator (the post is `id`). */
  user?: string;
  /** When the guest favourited it, ISO 8601 without zone. */
  faved_at?: string;
}

/** '2024-06-04T23:53:36' from an ISO date text, or undefined. */
function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return undefined;
  const time = Date.parse(value.length === 19 ? `${value}Z` : value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 19);
}

/**
 * favorites_json sent with registration: a JSON list (or the list itself) of {service, id} (creators)
 * and {service, user, id} (posts, as the favourite posts answer names them), each optionally with
 * faved_at; entries that are not a known paysite and ids are dropped. Unparsable JSON is an error.
 */
export const favoritesJson = rule(
  (raw, fail): FavoriteRef[] => {
    let value: unknown = raw;
    if (value === undefined || value === null || value === '') return [];
    if (typeof value === 'string') {
      const parsed = parseJsonText(value);
      if (!parsed) return fail('Favorites must be a JSON list.');
      value = parsed.value;
    }
    if (!Array.isArray(value)) fail('Favorites must be a JSON list.');
    const out: FavoriteRef[] = [];
    for (const item of value as unknown[]) {
      if (!item || typeof item !== 'object') continue;
      const { service, id, user, faved_at } = item as { service?: unknown; id?: unknown; user?: unknown; faved_at?: unknown };
      const idText = scalarText(id);
      if (!isPaysite(service) || !idText) continue;
      const ref: FavoriteRef = { service, id: idText };
      if (user !== undefined) {
        const userText = scalarText(user);
        if (!userText) continue;
        ref.user = userText;
      }
      const at = isoDate(faved_at);
      if (at) ref.faved_at = at;
      out.push(ref);
    }
    return out;
  },
  { type: 'string', description: 'JSON list of {service, id} (creators) and {service, user, id} (posts), each with an optional faved_at.' },
);

export const registrationSchema = z
  .object({
    username,
    password,
    confirm_password: z.unknown().optional(),
    favorites_json: favoritesJson,
  })
  .superRefine((value, ctx) => {
    if (value.confirm_password !== value.password) {
      ctx.addIssue({ code: 'custom', message: "Passwords don't match.", path: ['confirm_password'] });
    }
  })
  .transform(({ confirm_password: _confirmation, ...rest }) => rest);

/** Login normalises the username the same way registration does, and only requires both fields. */
export const loginSchema = z.object({
  username: rule(
    (raw, fail) => {
      const value = typeof raw === 'string' ? normalizeUsername(raw) : '';
      if (!value) fail(USERNAME_MESSAGES.required);
      return value;
    },
    { type: 'string' },
  ),
  password: passwordRule('Password is required.'),
});

export const changePasswordSchema = z
  .object({
    'current-password': passwordRule('Password cannot be empty.'),
    'new-password': passwordRule('New password cannot be empty.', `New password must have at least ${PASSWORD_MIN} characters.`, true),
    'new-password-confirmation': z.unknown().optional(),
  })
  .superRefine((value, ctx) => {
    const confirmation = value['new-password-confirmation'];
    if (typeof confirmation !== 'string' || confirmation.trim() !== value['new-password']) {
      ctx.addIssue({
        code: 'custom',
        message: 'New password and confirmation do not match.',
        path: ['new-password-confirmation'],
      });
    }
  });
