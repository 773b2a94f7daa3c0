/**
 * OnlyFans' request signing. Every API request carries `time` (epoch milliseconds) and `sign`, computed
 * from "dynamic rules" that change with OnlyFans' deploys (research notes, section 1: OnlyFans' own
 * sign function as deobfuscated by mikigoalie/onlyfans-rulegen, MaxSignal/Kitsune create_sign,
 * OF-Scraper create_login_sign, Voldrix/onlyfans-dl-2):
 *   h = sha1(static_param + "\n" + time + "\n" + path-with-query + "\n" + user id), in hex;
 *   checksum = |sum of the char codes of h at checksum_indexes + checksum_constant|;
 *   sign = prefix:h:checksum-in-hex:suffix (or the `format` string "P:{}:{:x}:S").
 * The rules are configuration (IMPORTER_ONLYFANS_RULES: a JSON file or an https URL) in the shape the
 * public rule publishers use (DATAHOARDERS/dynamic-rules, mikigoalie/onlyfans-rulegen), read once per run.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ImporterConfig } from '@api/config.ts';
import { TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient } from '@api/importer/fetch.ts';
import { parseJsonText, parseUrl } from '@shared/parse.ts';

const text = z.union([z.string(), z.number()]).transform(String);

export const rulesSchema = z
  .object({
    static_param: z.string().min(1),
    format: z.string().optional(),
    prefix: text.optional(),
    suffix: text.optional(),
    start: text.optional(),
    end: text.optional(),
    checksum_indexes: z.array(z.number().int().min(0)).min(1),
    checksum_constant: z.number().int(),
    app_token: z.string().min(1),
    revision: z.string().optional(),
    remove_headers: z.array(z.string()).optional(),
  })
  .refine((r) => hasEnds(r) || /\{\}.*\{:x\}/.test(r.format ?? ''), {
    message: 'neither prefix/suffix nor a format with {} and {:x}',
  });

function hasEnds(r: { prefix?: string; suffix?: string; start?: string; end?: string }): boolean {
  return (r.prefix ?? r.start) !== undefined && (r.suffix ?? r.end) !== undefined;
}

export type OnlyfansRules = z.infer<typeof rulesSchema>;

/** The rules could not be had or are not rules: the import ends with this message. */
export class RulesError extends Error {
  override name = 'RulesError';
}

/** The Trove folder, which relative rule paths start from (this file is api/importer/paysites/onlyfans/rules.ts). */
const TROVE_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where the rules come from, for log lines: the setting as given. */
export function rulesSource(setting: string): string {
  return /^https?:\/\//i.test(setting) ? setting.replace(/[?#].*$/, '') : setting;
}

function parseRules(raw: string, source: string): OnlyfansRules {
  const parsed = parseJsonText(raw);
  if (!parsed) throw new RulesError(`The OnlyFans signing rules (${source}) are not JSON.`);
  const json = parsed.value;
  const result = rulesSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the rules';
    throw new RulesError(`The OnlyFans signing rules (${source}) are not usable: ${where}: ${issue.message}.`);
  }
  return result.data;
}

/**
 * Reads the rules from the setting: an http(s) URL is fetched through the paysite client (https only,
 * its own host only, no credential), anything else is a file path (relative ones from the Trove folder).
 */
export async function loadRules(setting: string, importer: ImporterConfig, signal: AbortSignal): Promise<OnlyfansRules> {
  const source = rulesSource(setting);
  if (/^https?:\/\//i.test(setting)) {
    const parsedUrl = parseUrl(setting);
    if (!parsedUrl) throw new RulesError(`The OnlyFans signing rules URL (${source}) is not a URL.`);
    const origin = parsedUrl.origin;
    const client = createPaysiteClient({
      label: 'The OnlyFans rules host',
      endpoint: { baseUrl: origin, hosts: [], credentialHosts: [] },
      importer,
      headers: {},
      signal,
      keyRejectedStatuses: [],
    });
    let body: string;
    try {
      body = (await client.requestText(setting, { headers: { accept: 'application/json' } })).body;
    } catch (error) {
      if (error instanceof TransientError) throw new TransientError(`the signing rules could not be fetched (${error.message})`);
      throw new RulesError(`The OnlyFans signing rules could not be fetched from ${source}: ${(error as Error).message}.`);
    }
    return parseRules(body, source);
  }
  const file = path.resolve(TROVE_ROOT, setting);
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new RulesError(
      `The OnlyFans signing rules file (${source}) could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  return parseRules(raw, source);
}

/** The `sign` header of a request: `target` is the path with its query exactly as sent, `time` epoch ms. */
export function signRequest(rules: OnlyfansRules, target: string, time: string, userId: string): string {
  const sha = createHash('sha1').update([rules.static_param, time, target, userId].join('\n')).digest('hex');
  // The site writes each index as `N % 40`; publishers give them reduced, this keeps either working.
  const sum = rules.checksum_indexes.reduce((total, i) => total + sha.charCodeAt(i % sha.length), 0);
  const checksum = Math.abs(sum + rules.checksum_constant).toString(16);
  const prefix = rules.prefix ?? rules.start;
  const suffix = rules.suffix ?? rules.end;
  if (prefix !== undefined && suffix !== undefined) return `${prefix}:${sha}:${checksum}:${suffix}`;
  return (rules.format ?? '').replace('{}', sha).replace('{:x}', checksum);
}

/** Whether the rules drop a header the web app no longer sends (`user-id`; one publisher spells it `user_id`). */
export function removesHeader(rules: OnlyfansRules, name: string): boolean {
  return (rules.remove_headers ?? []).some((h) => h.toLowerCase().replaceAll('_', '-') === name);
}

/** For log lines: which rules were used. */
export function rulesLabel(rules: OnlyfansRules, setting: string): string {
  return rules.revision ? `revision ${rules.revision} from ${rulesSource(setting)}` : rulesSource(setting);
}
