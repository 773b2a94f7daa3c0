/**
 * The importer form's services, inputs and session-key rules (SPEC.md section 5, "Importer session
 * keys"), shared by the form island and POST /api/v1/importer/submit so both give the same message.
 * Browser-safe: zod and web APIs only (atob, TextDecoder), no node imports.
 *
 * Input names follow API-NOTES.md: session_key, auth_id, x-bc, user_agent, channel_ids; checkboxes
 * auto_import, save_session_key, save_dms arrive as '1' or '0'.
 */
import { z } from 'zod';
import { KEY_MAX_LENGTH } from './constants.ts';
import { PAYSITES, PAYSITE_LABELS, isPaysite, type Paysite } from './paysites.ts';
import { booleanish, firstIssueMessage, scalarText } from './validation/rules.ts';

export type ImporterFieldName = 'session_key' | 'auth_id' | 'x-bc' | 'user_agent' | 'channel_ids';

export interface ImporterField {
  name: ImporterFieldName;
  label: string;
  /** Shown under the input. */
  hint?: string;
}

export interface ImporterService {
  service: Paysite;
  label: string;
  fields: readonly ImporterField[];
  /** Offers the include-DMs checkbox (signed-in users only). */
  dms: boolean;
}

const SESSION_KEY: ImporterField = { name: 'session_key', label: 'Session key' };

const FIELDS: Partial<Record<Paysite, readonly ImporterField[]>> = {
  discord: [
    { name: 'session_key', label: 'Token' },
    { name: 'channel_ids', label: 'Channel IDs', hint: 'Comma separated, e.g. 123456789012345678,234567890123456789' },
  ],
  onlyfans: [
    { name: 'session_key', label: 'Session key (sess cookie)' },
    { name: 'auth_id', label: 'User ID (auth_id cookie)' },
    { name: 'x-bc', label: 'BC Token (x-bc)' },
    { name: 'user_agent', label: 'User-Agent', hint: "Your browser's own User-Agent is filled in." },
  ],
};

/** Paysites whose importer can also fetch the user's DMs. */
export const DM_SERVICES: readonly Paysite[] = ['patreon', 'fansly'];

/** The twelve services in the order of the Paysite select (the first is the default). */
export const IMPORTER_SERVICES: readonly ImporterService[] = PAYSITES.map((service) => ({
  service,
  label: PAYSITE_LABELS[service],
  fields: FIELDS[service] ?? [SESSION_KEY],
  dms: DM_SERVICES.includes(service),
}));

export function importerService(service: Paysite): ImporterService {
  return IMPORTER_SERVICES.find((s) => s.service === service)!;
}

// ---------------------------------------------------------------------------------------------
// Rules

class KeyRuleFailure extends Error {}
const fail = (message: string): never => {
  throw new KeyRuleFailure(message);
};

/** A field rule over the trimmed value: return the (normalised) value or call fail(message). */
function field(requiredMessage: string, check: (value: string) => string) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): string => {
      try {
        const value = scalarText(raw)?.trim() ?? '';
        if (value === '') fail(requiredMessage);
        return check(value);
      } catch (error) {
        if (!(error instanceof KeyRuleFailure)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input: raw });
        return z.NEVER;
      }
    })
    .meta({ type: 'string', minLength: 1, maxLength: KEY_MAX_LENGTH });
}

const KEY_REQUIRED = 'Session key is required.';
const TOO_LONG = 'Key is too long.';

function maxLength(value: string, message = TOO_LONG): string {
  if (value.length > KEY_MAX_LENGTH) fail(message);
  return value;
}

/** Base64 (standard or URL alphabet, padding optional) to UTF-8 text; throws when it is not base64. */
function base64Text(value: string): string {
  const normalised = value.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalised)) throw new Error('not base64');
  const padded = normalised.padEnd(Math.ceil(normalised.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

function decodeUri(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

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
    if (candidate === undefined) continue;
    try {
      parsed = JSON.parse(candidate);
      text = candidate;
      break;
    } catch {
      parsed = undefined;
    }
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

/**
 * Discord user tokens: base64 user id, a timestamp part and an HMAC part separated by dots, or the
 * older 'mfa.' form. The exact lengths vary between token generations, so only the shape is checked.
 */
const DISCORD_TOKEN = /^(?:mfa\.[\w-]{20,}|[\w-]{18,40}\.[\w-]{4,10}\.[\w-]{20,})$/;

function channelIds(value: string): string {
  maxLength(value, 'Channel IDs are too long.');
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) fail('Channel IDs are required.');
  for (const id of ids) if (!/^\d+$/.test(id)) fail(`${id} is not a valid channel ID.`);
  return ids.join(',');
}

function fanslyKey(value: string): string {
  maxLength(value);
  if (value.length === 71) {
    if (!/^[A-Za-z0-9]{71}$/.test(value)) fail("The key doesn't match the required pattern.");
    return value;
  }
  let json: Record<string, unknown> | undefined;
  try {
    json = parseJsonObject(base64Text(value));
  } catch {
    json = undefined;
  }
  if (!json) fail('Key is not valid JSON.');
  const token = json!.token;
  if (typeof token !== 'string' || token.trim() === '') fail('Token not found in JSON.');
  return value;
}

/** CandFans' session cookie: a Laravel encrypted value, base64 JSON, usually URL-encoded. */
function candfansKey(value: string): string {
  maxLength(value);
  let json: Record<string, unknown> | undefined;
  for (const candidate of [value, decodeUri(value)]) {
    if (candidate === undefined || json) continue;
    try {
      json = parseJsonObject(base64Text(candidate));
    } catch {
      json = undefined;
    }
  }
  if (!json) fail('The key was not decodable.');
  for (const name of ['mac', 'iv', 'tag', 'value']) {
    if (typeof json![name] !== 'string') fail('The key does not contain the appropriate values.');
  }
  return value;
}

const KEY_RULES: Record<Paysite, (value: string) => string> = {
  patreon: (v) => (v.length === 43 ? v : fail(`Invalid key: Expected 43 characters, got ${v.length}`)),
  fanbox: (v) => (v.length <= KEY_MAX_LENGTH && /^\d+_\w+$/.test(v) ? v : fail('Invalid key.')),
  discord: (v) => (DISCORD_TOKEN.test(maxLength(v)) ? v : fail('Invalid token format.')),
  fantia: (v) => (v.length === 32 || v.length === 64 ? v : fail('Invalid key: Expected 32 or 64 characters.')),
  afdian: (v) => (/^[0-9a-f]+_\d+$/.test(maxLength(v)) ? v : fail('Invalid key.')),
  boosty: boostyKey,
  gumroad: (v) => (v.length >= 200 && v.length <= KEY_MAX_LENGTH ? v : fail('Invalid key: Expected 200 to 1024 characters.')),
  subscribestar: (v) => maxLength(v),
  dlsite: (v) => maxLength(v),
  fansly: fanslyKey,
  onlyfans: (v) => maxLength(v),
  candfans: candfansKey,
};

const checkbox = z
  .unknown()
  .optional()
  .transform((raw) => booleanish(raw))
  .meta({ type: 'string', enum: ['1', '0'], default: '0' });

const common = {
  service: z
    .unknown()
    .optional()
    .transform((raw) => scalarText(raw)?.trim() ?? ''),
  auto_import: checkbox,
  save_session_key: checkbox,
  save_dms: checkbox,
};

function serviceSchema(service: Paysite) {
  const extra =
    service === 'discord'
      ? { channel_ids: field('Channel IDs are required.', channelIds) }
      : service === 'onlyfans'
        ? {
            auth_id: field('User ID is required.', (v) =>
              /^\d+$/.test(maxLength(v, 'User ID is too long.')) ? v : fail('User ID must consist of only digits.'),
            ),
            'x-bc': field('BC token is required.', (v) => (/^[0-9a-f]{40}$/i.test(v) ? v : fail('Invalid BC token'))),
            user_agent: field('User-Agent is required.', (v) =>
              /^[\x20-\x7e]*$/.test(maxLength(v, 'User-Agent is too long.'))
                ? v
                : fail('Invalid User-Agent (contains non-ASCII characters).'),
            ),
          }
        : {};
  const dms = DM_SERVICES.includes(service);
  return z
    .object({ ...common, session_key: field(KEY_REQUIRED, KEY_RULES[service]), ...extra })
    .transform((value) => ({ ...value, service, save_dms: dms && value.save_dms }));
}

/** One schema per service, each with every rule of SPEC.md section 5 for that service. */
export const IMPORTER_SCHEMAS = Object.fromEntries(PAYSITES.map((s) => [s, serviceSchema(s)])) as {
  [S in Paysite]: ReturnType<typeof serviceSchema>;
};

export interface ImportSubmission {
  service: Paysite;
  session_key: string;
  auto_import: boolean;
  save_session_key: boolean;
  /** Only ever true for DM_SERVICES. */
  save_dms: boolean;
  channel_ids?: string;
  auth_id?: string;
  'x-bc'?: string;
  user_agent?: string;
}

/**
 * The whole submission: the paysite first ('"X" is not a valid paysite.'), then that service's schema.
 * This is the route's body schema; its failures carry the first failing rule's message.
 */
export const importSubmissionSchema = z
  .unknown()
  .transform((raw, ctx): ImportSubmission => {
    const body = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const service = scalarText(body.service)?.trim() ?? '';
    if (!isPaysite(service)) {
      ctx.addIssue({ code: 'custom', message: `"${service}" is not a valid paysite.`, input: body.service, path: ['service'] });
      return z.NEVER;
    }
    const result = IMPORTER_SCHEMAS[service].safeParse(body);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return result.data as ImportSubmission;
  })
  .meta({
    type: 'object',
    required: ['service', 'session_key'],
    properties: {
      service: { type: 'string', enum: [...PAYSITES] },
      session_key: { type: 'string', maxLength: KEY_MAX_LENGTH },
      channel_ids: { type: 'string' },
      auth_id: { type: 'string' },
      'x-bc': { type: 'string' },
      user_agent: { type: 'string' },
      auto_import: { type: 'string', enum: ['1', '0'] },
      save_session_key: { type: 'string', enum: ['1', '0'] },
      save_dms: { type: 'string', enum: ['1', '0'] },
    },
  });

/** The first failing rule's message for a submission, or null when it is valid (the form's check). */
export function importSubmissionError(input: Record<string, unknown>): string | null {
  const result = importSubmissionSchema.safeParse(input);
  return result.success ? null : firstIssueMessage(result.error);
}
