/**
 * Validators for the general rules of SPEC.md section 5, shared by the API, the islands and the tests.
 * Browser-safe (zod 4 only, no node imports). Every message here is the exact text the spec names.
 *
 * Inputs may arrive as query strings (possibly repeated: the first value counts, as on kemono),
 * form fields or JSON values, so scalar rules accept strings and numbers alike.
 *
 * Username pattern (the spec leaves it to us): after normalisation (lowercased, characters outside
 * a-z 0-9 _ @ + . - removed, trimmed) a username must start with a letter or a digit:
 * USERNAME_PATTERN below. The message quotes it.
 */
import { z } from 'zod';
import {
  CHAT_PAGE_SIZE,
  LINK_REASON_MAX,
  PAGE_SIZE,
  PASSWORD_MIN,
  SEARCH_MIN_DMS,
  SEARCH_MIN_POSTS,
  USERNAME_MAX,
  USERNAME_MIN,
} from './constants.ts';
import { PAYSITES, isPaysite, type Paysite } from './paysites/index.ts';

// In browsers zod must not probe for `new Function` (its faster object parsing): the pages'
// Content-Security-Policy forbids eval and reports even a caught probe as a violation. Every browser
// module that uses zod imports this one first.
if (typeof document !== 'undefined') z.config({ jitless: true });

// ---------------------------------------------------------------------------------------------
// Building blocks

class RuleFailure extends Error {}
type Fail = (message: string) => never;
const fail: Fail = (message) => {
  throw new RuleFailure(message);
};

/**
 * A rule written as a plain function: return the parsed value or call fail(message). Runs on
 * missing keys too (so 'X is required.' rules work inside objects).
 */
function rule<T>(parse: (raw: unknown, fail: Fail) => T, meta?: Record<string, unknown>) {
  const schema = z
    .unknown()
    .optional()
    .transform((raw, ctx): T => {
      try {
        return parse(raw, fail);
      } catch (error) {
        if (!(error instanceof RuleFailure)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input: raw });
        return z.NEVER;
      }
    });
  return meta ? schema.meta(meta) : schema;
}

/** The first value of a repeated query parameter, numbers as strings; anything else undefined. */
export function scalarText(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Trimmed text; empty, missing or non-text values give undefined. */
function trimmed(raw: unknown): string | undefined {
  const value = scalarText(raw)?.trim();
  return value ? value : undefined;
}

/** A list from a repeated parameter, a single value or a JSON array. */
function list(raw: unknown): unknown[] {
  if (raw === undefined || raw === null || raw === '') return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** Checkbox-like values: true, 'true', '1', 'on', 'yes' are true; everything else false. */
export function booleanish(raw: unknown): boolean {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  return typeof value === 'string' && ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
}

/** The message of the first failing rule (what the API answers and forms show). */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input.';
}

/** Parses or throws an Error whose message is the first failing rule's message. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(firstIssueMessage(result.error));
  return result.data;
}

// ---------------------------------------------------------------------------------------------
// General

/** Offsets ('o'): a non-negative whole number, a multiple of the page size; missing or empty is 0. */
export function offsetSchema(step: number = PAGE_SIZE) {
  return rule(
    (raw, fail) => {
      const value = scalarText(raw)?.trim();
      if (value === undefined || value === '') return 0;
      if (!/^[+-]?\d+$/.test(value)) fail(`Offset "${value}" is not a whole number.`);
      const n = Number(value);
      if (n < 0) fail(`Offset ${n} must not be negative.`);
      if (!Number.isSafeInteger(n)) fail(`Offset ${value} is too large.`);
      if (n % step !== 0) fail(`Offset ${n} is not a multiple of ${step}.`);
      return n;
    },
    { type: 'integer', minimum: 0, multipleOf: step, default: 0, description: `Offset, a multiple of ${step}.` },
  );
}
export const offset = offsetSchema(PAGE_SIZE);
/** Discord and community message pages step by 150. */
export const chatOffset = offsetSchema(CHAT_PAGE_SIZE);

/** The chat viewer's messages (SPEC.md section 5), shared by its API and pages. */
export const CHAT_MESSAGES = { invalidChannel: 'Invalid channel ID', noChannels: 'No channels found' } as const;

export const pageNumber = rule(
  (raw, fail) => {
    const value = scalarText(raw)?.trim();
    if (value === undefined || value === '') fail('Page number is required.');
    if (!/^[+-]?\d+$/.test(value!)) fail('Page number must be a whole number.');
    const n = Number(value);
    if (n < 1) fail('Page number must be positive.');
    if (!Number.isSafeInteger(n)) fail('Page number is too large.');
    return n;
  },
  { type: 'integer', minimum: 1, description: 'Page number, from 1.' },
);

export const ACCOUNT_ROLES = ['consumer', 'moderator', 'administrator'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** The roles the administrator's role form offers (SPEC.md section 2). */
export const ASSIGNABLE_ROLES = ['consumer', 'moderator'] as const satisfies readonly AccountRole[];

export const accountRole = z.preprocess((raw) => scalarText(raw)?.trim(), z.enum(ACCOUNT_ROLES, { error: 'Invalid account role.' }));

export const paysite = rule(
  (raw, fail): Paysite => {
    const value = scalarText(raw)?.trim() ?? '';
    if (!isPaysite(value)) fail(`"${value}" is not a valid paysite.`);
    return value as Paysite;
  },
  { type: 'string', enum: [...PAYSITES] },
);

// ---------------------------------------------------------------------------------------------
// Route guards (path parameters)

/** A required, trimmed text value. */
export function requiredText(message: string, meta: Record<string, unknown> = {}) {
  return rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) fail(message);
      return value!;
    },
    { type: 'string', minLength: 1, ...meta },
  );
}

/** Service path parameter: required and a supported paysite. */
export const serviceParam = rule(
  (raw, fail): Paysite => {
    const value = trimmed(raw);
    if (value === undefined) fail('Service name is required.');
    if (!isPaysite(value)) fail(`"${value}" is not a valid paysite.`);
    return value as Paysite;
  },
  { type: 'string', enum: [...PAYSITES] },
);
export const artistIdParam = requiredText('Artist ID is required.');
export const profileIdParam = requiredText('Profile ID is required.');
export const postIdParam = requiredText('Post ID is required.');
export const shareIdParam = requiredText('Share ID is required.');
export const revisionIdParam = requiredText('Revision ID is required.');
export const importIdParam = requiredText('Import ID is required.');
export const fileHashParam = requiredText('File hash is required.');
/** Fancards exist only for fanbox. */
export const fanboxServiceParam = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined) fail('Service name is required.');
    if (value !== 'fanbox') fail('Service must be "fanbox".');
    return 'fanbox' as const;
  },
  { type: 'string', enum: ['fanbox'] },
);

// ---------------------------------------------------------------------------------------------
// Registration, login, password change

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
}

/**
 * favorites_json sent with registration: a JSON list (or the list itself) of {service, id};
 * entries that are not a known paysite and an id are dropped. Unparsable JSON is an error.
 */
export const favoritesJson = rule(
  (raw, fail): FavoriteRef[] => {
    let value: unknown = raw;
    if (value === undefined || value === null || value === '') return [];
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        fail('Favorites must be a JSON list.');
      }
    }
    if (!Array.isArray(value)) fail('Favorites must be a JSON list.');
    const out: FavoriteRef[] = [];
    for (const item of value as unknown[]) {
      if (!item || typeof item !== 'object') continue;
      const { service, id } = item as { service?: unknown; id?: unknown };
      const idText = scalarText(id);
      if (isPaysite(service) && idText) out.push({ service, id: idText });
    }
    return out;
  },
  { type: 'string', description: 'JSON list of {service, id}.' },
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

// ---------------------------------------------------------------------------------------------
// Account pages

export const DM_REVIEW_STATUSES = ['pending', 'ignored'] as const;
export type DmReviewStatus = (typeof DM_REVIEW_STATUSES)[number];

/** Review DMs view; missing means pending. */
export const dmReviewStatus = rule(
  (raw, fail): DmReviewStatus => {
    const value = trimmed(raw);
    if (value === undefined) return 'pending';
    if (!(DM_REVIEW_STATUSES as readonly string[]).includes(value)) fail(`Unknown status "${value}".`);
    return value as DmReviewStatus;
  },
  { type: 'string', enum: [...DM_REVIEW_STATUSES], default: 'pending' },
);

/**
 * POST /account/review_dms. At least one approved DM, unless the user only asks to delete the
 * ignored DMs (the 'Delete ignored DMs' checkbox on the ignored view).
 */
export const dmReviewSchema = z
  .object({
    approved_hashes: rule(
      (raw) =>
        list(raw)
          .map((v) => scalarText(v)?.trim())
          .filter((v): v is string => !!v),
      { type: 'array', items: { type: 'string' } },
    ),
    delete_ignored: rule((raw) => booleanish(raw), { type: 'boolean', default: false }),
  })
  .superRefine((value, ctx) => {
    if (value.approved_hashes.length === 0 && !value.delete_ignored) {
      ctx.addIssue({
        code: 'custom',
        message: 'At least one DM must be provided for approval.',
        path: ['approved_hashes'],
      });
    }
  });

/** POST /account/keys: ids of the keys to revoke. */
export const keysRevokeSchema = z.object({
  revoke: rule(
    (raw, fail) => {
      const ids = list(raw).map((v) => scalarText(v)?.trim() ?? '');
      if (ids.length === 0) fail('At least one key must be selected for revocation.');
      return ids.map((id) => {
        if (!/^\d+$/.test(id) || Number(id) < 1 || !Number.isSafeInteger(Number(id))) fail(`Invalid key ID "${id}".`);
        return Number(id);
      });
    },
    { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
  ),
});

/** Archive passwords are taken as typed (no trimming). */
export const archivePassword = rule(
  (raw, fail) => {
    const value = scalarText(raw) ?? '';
    if (value === '') fail('Please enter a password.');
    return value;
  },
  { type: 'string', minLength: 1 },
);

// ---------------------------------------------------------------------------------------------
// Administrator

export const accountId = rule(
  (raw, fail) => {
    const value = scalarText(raw)?.trim() ?? '';
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) fail('Account ID must be positive.');
    return n;
  },
  { type: 'integer', minimum: 1 },
);

/** Account list filters: name and role trimmed; an empty role means all roles. */
export const accountsFilterSchema = z.object({
  name: rule((raw) => trimmed(raw), { type: 'string' }),
  role: rule(
    (raw, fail): AccountRole | undefined => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if (!(ACCOUNT_ROLES as readonly string[]).includes(value)) fail('Invalid account role.');
      return value as AccountRole;
    },
    { type: 'string', enum: [...ACCOUNT_ROLES] },
  ),
});

export const roleChangeSchema = z.object({ role: accountRole });

// ---------------------------------------------------------------------------------------------
// Listings

export const ARTIST_SORT_FIELDS = ['favorited', 'indexed', 'updated', 'name', 'service'] as const;
export type ArtistSortField = (typeof ARTIST_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** An optional choice from a list: missing or empty gives the default, anything else the message. */
function choice<const T extends readonly string[]>(values: T, fallback: T[number], message: (value: string) => string) {
  return rule(
    (raw, fail): T[number] => {
      const value = trimmed(raw);
      if (value === undefined) return fallback;
      if (!values.includes(value)) fail(message(value));
      return value as T[number];
    },
    { type: 'string', enum: [...values], default: fallback },
  );
}

/** Search text: optional, trimmed; shorter than the minimum is an error. */
export function searchQuery(min: number) {
  return rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if ([...value].length < min) fail(`Search query must be at least ${min} characters long.`);
      return value;
    },
    { type: 'string', minLength: min },
  );
}
export const postsSearchQuery = searchQuery(SEARCH_MIN_POSTS);
export const dmsSearchQuery = searchQuery(SEARCH_MIN_DMS);

/** Repeated `tag` parameters as a list of non-empty tags. */
export const tagList = rule(
  (raw) =>
    list(raw)
      .map((v) => scalarText(v)?.trim())
      .filter((v): v is string => !!v),
  { type: 'array', items: { type: 'string' } },
);

export const artistsQuerySchema = z.object({
  o: offset,
  q: rule((raw) => trimmed(raw), { type: 'string' }),
  service: rule(
    (raw, fail): Paysite | undefined => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if (!isPaysite(value)) fail('Unknown service');
      return value as Paysite;
    },
    { type: 'string', enum: [...PAYSITES] },
  ),
  sort_by: choice(ARTIST_SORT_FIELDS, 'favorited', () => 'Invalid sort field value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order by field'),
});

export const FAVORITE_CREATOR_SORT_FIELDS = ['updated', 'faved_seq', 'last_imported'] as const;
export const FAVORITE_POST_SORT_FIELDS = ['faved_seq', 'published'] as const;

export const favoriteCreatorsQuerySchema = z.object({
  o: offset,
  sort_by: choice(FAVORITE_CREATOR_SORT_FIELDS, 'updated', () => 'Invalid sort by value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order value'),
});

export const favoritePostsQuerySchema = z.object({
  o: offset,
  sort_by: choice(FAVORITE_POST_SORT_FIELDS, 'faved_seq', () => 'Invalid sort by value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order value'),
});

/** kemono documents the creator list as `type=creator` too ("post or creator (artist)"). */
export const FAVORITE_TYPES = ['artist', 'creator', 'post'] as const;
/** GET /v1/account/favorites: `type` artist (the default, as kemono), creator (the same) or post. */
export const favoritesTypeQuerySchema = z.object({
  type: choice(FAVORITE_TYPES, 'artist', () => 'Invalid favorites type: expected "artist", "creator" or "post".'),
});

export const FLAG_REASON_MAX = 200;
/** A flag's reason (the post page sends 'reason-other'). */
export const flagReason = rule(
  (raw, fail): string => {
    const value = trimmed(raw);
    if (value === undefined) return fail('Flag reason is required.');
    if ([...value].length > FLAG_REASON_MAX) fail(`Flag reason must be at most ${FLAG_REASON_MAX} characters long.`);
    return value;
  },
  { type: 'string', maxLength: FLAG_REASON_MAX, example: 'reason-other' },
);

export const POPULAR_PERIODS = ['recent', 'day', 'week', 'month'] as const;
export type PopularPeriod = (typeof POPULAR_PERIODS)[number];
export const popularPeriod = choice(POPULAR_PERIODS, 'recent', (value) => `${value} is not a valid period`);

export const popularQuerySchema = z.object({
  date: rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
      const ok = !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
      if (!ok) fail(`"${value}" is not a valid date.`);
      return value;
    },
    { type: 'string', format: 'date' },
  ),
  period: popularPeriod,
  o: offset,
});

export const postsQuerySchema = z.object({ o: offset, q: postsSearchQuery, tag: tagList });
export const dmsQuerySchema = z.object({ o: offset, q: dmsSearchQuery });

// ---------------------------------------------------------------------------------------------
// Hash search, link requests

/** A SHA-256 hash: trimmed, lowercased, 64 hex characters. */
export const sha256Hash = rule(
  (raw, fail) => {
    const value = (scalarText(raw) ?? '').trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(value)) fail('Invalid hash!');
    return value;
  },
  { type: 'string', pattern: '^[0-9a-f]{64}$' },
);

/** The link form's creator value "service/id". */
export const linkTarget = rule(
  (raw, fail): { service: Paysite; artist_id: string } => {
    const value = trimmed(raw);
    if (value === undefined) fail('Input data is required.');
    const parts = value!.split('/');
    if (parts.length !== 2 || !parts[0] || !parts[1]) fail('Invalid input data length.');
    const [service, artistId] = parts as [string, string];
    if (!isPaysite(service)) fail(`"${service}" is not a valid paysite.`);
    return { service: service as Paysite, artist_id: artistId };
  },
  { type: 'string', description: 'service/id' },
);

export const linkReason = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    if ([...value].length > LINK_REASON_MAX) fail(`Reason must be at most ${LINK_REASON_MAX} characters long.`);
    return value;
  },
  { type: 'string', maxLength: LINK_REASON_MAX },
);

/** POST /{service}/user/{id}/links/new body. */
export const linkRequestSchema = z.object({
  service: serviceParam,
  artist_id: artistIdParam,
  reason: linkReason,
});
