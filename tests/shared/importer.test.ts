import { describe, expect, it } from 'vitest';
import { DM_SERVICES, IMPORTER_SCHEMAS, IMPORTER_SERVICES, importSubmissionError, importSubmissionSchema } from '@shared/importer.ts';
import { PAYSITES, type Paysite } from '@shared/paysites/index.ts';
import { b64, boostyKey, validSubmission } from '../helpers/import-keys.ts';

const hex = (n: number) => 'a'.repeat(n);

/** [service, fields over the valid submission, expected message]. */
const INVALID: [Paysite, Record<string, string>, string][] = [
  ['patreon', { session_key: '' }, 'Session key is required.'],
  ['patreon', { session_key: '   ' }, 'Session key is required.'],
  ['patreon', { session_key: 'x'.repeat(42) }, 'Invalid key: Expected 43 characters, got 42'],
  ['patreon', { session_key: 'x'.repeat(44) }, 'Invalid key: Expected 43 characters, got 44'],
  ['fanbox', { session_key: 'abc_def' }, 'Invalid key.'],
  ['fanbox', { session_key: '123456' }, 'Invalid key.'],
  ['fanbox', { session_key: '123_ab-c' }, 'Invalid key.'],
  ['fanbox', { session_key: `1_${'a'.repeat(1100)}` }, 'Invalid key.'],
  ['afdian', { session_key: 'f'.repeat(1025) }, 'Key is too long.'],
  ['afdian', { session_key: 'ABCDEF_123' }, 'Invalid key.'],
  ['afdian', { session_key: 'abcdef_12x' }, 'Invalid key.'],
  ['boosty', { session_key: '{not json' }, 'Invalid key: Expected valid JSON.'],
  ['boosty', { session_key: '%7Bbroken' }, 'Invalid key: Expected valid JSON.'],
  ['boosty', { session_key: '[1,2]' }, 'Malformed key.'],
  ['boosty', { session_key: JSON.stringify({ accessToken: 'a'.repeat(64), expiresAt: Date.now() + 1e6 }) }, 'Malformed key.'],
  ['boosty', { session_key: boostyKey(Date.now() + 1e6, { a: 'a'.repeat(63), r: 'b'.repeat(64) }) }, 'Malformed key.'],
  ['boosty', { session_key: boostyKey(Date.now() + 1e6, { a: 'a'.repeat(64), r: 'g'.repeat(64) }) }, 'Malformed key.'],
  ['boosty', { session_key: boostyKey('soon') }, 'Malformed key.'],
  ['boosty', { session_key: boostyKey(Date.now() - 1000) }, 'Key is expired.'],
  ['boosty', { session_key: boostyKey(1_600_000_000) }, 'Key is expired.'],
  ['discord', { session_key: 'not a token' }, 'Invalid token format.'],
  ['discord', { session_key: 'abc.def' }, 'Invalid token format.'],
  ['discord', { channel_ids: '' }, 'Channel IDs are required.'],
  ['discord', { channel_ids: ' , ,' }, 'Channel IDs are required.'],
  ['discord', { channel_ids: '123,abc' }, 'abc is not a valid channel ID.'],
  ['discord', { channel_ids: '12 34' }, '12 34 is not a valid channel ID.'],
  ['dlsite', { session_key: 'd'.repeat(1025) }, 'Key is too long.'],
  ['subscribestar', { session_key: 's'.repeat(1025) }, 'Key is too long.'],
  ['subscribestar', { session_key: '' }, 'Session key is required.'],
  ['fantia', { session_key: 'f'.repeat(31) }, 'Invalid key: Expected 32 or 64 characters.'],
  ['fantia', { session_key: 'f'.repeat(48) }, 'Invalid key: Expected 32 or 64 characters.'],
  ['gumroad', { session_key: 'g'.repeat(199) }, 'Invalid key: Expected 200 to 1024 characters.'],
  ['gumroad', { session_key: 'g'.repeat(1025) }, 'Invalid key: Expected 200 to 1024 characters.'],
  ['onlyfans', { session_key: 'o'.repeat(1025) }, 'Key is too long.'],
  ['onlyfans', { auth_id: '' }, 'User ID is required.'],
  ['onlyfans', { auth_id: '12a' }, 'User ID must consist of only digits.'],
  ['onlyfans', { 'x-bc': hex(39) }, 'Invalid BC token'],
  ['onlyfans', { 'x-bc': 'z'.repeat(40) }, 'Invalid BC token'],
  ['onlyfans', { user_agent: 'Mozilla/5.0 (Häßlich)' }, 'Invalid User-Agent (contains non-ASCII characters).'],
  ['onlyfans', { user_agent: '' }, 'User-Agent is required.'],
  ['fansly', { session_key: `${'a'.repeat(70)}!` }, "The key doesn't match the required pattern."],
  ['fansly', { session_key: 'not base64 !!' }, 'Key is not valid JSON.'],
  ['fansly', { session_key: Buffer.from('not json').toString('base64') }, 'Key is not valid JSON.'],
  ['fansly', { session_key: b64({ id: 1 }) }, 'Token not found in JSON.'],
  ['fansly', { session_key: b64({ token: '' }) }, 'Token not found in JSON.'],
  ['candfans', { session_key: 'not%base64' }, 'The key was not decodable.'],
  ['candfans', { session_key: Buffer.from('{oops').toString('base64') }, 'The key was not decodable.'],
  ['candfans', { session_key: b64({ iv: 'a', value: 'b', mac: 'c' }) }, 'The key does not contain the appropriate values.'],
];

describe('importer services', () => {
  it("offers the twelve paysites in the order of PAYSITES, patreon first, with each paysite's inputs", () => {
    expect(IMPORTER_SERVICES.map((s) => s.service)).toEqual([...PAYSITES]);
    expect(IMPORTER_SERVICES[0].service).toBe('patreon');
    const names = (service: Paysite) => IMPORTER_SERVICES.find((s) => s.service === service)!.fields.map((f) => f.name);
    expect(names('onlyfans')).toEqual(['session_key', 'auth_id', 'x-bc', 'user_agent']);
    expect(names('discord')).toEqual(['session_key', 'channel_ids']);
    expect(names('fanbox')).toEqual(['session_key']);
    expect(IMPORTER_SERVICES.filter((s) => s.dms).map((s) => s.service)).toEqual(['patreon', 'fansly']);
  });
});

describe('importer key rules', () => {
  it.each(PAYSITES.map((s) => [s]))('accepts a valid %s submission', (service) => {
    const body = validSubmission(service);
    const result = IMPORTER_SCHEMAS[service].safeParse(body);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
    expect(importSubmissionError(body)).toBeNull();
  });

  it.each(INVALID)('%s %j -> %s', (service, fields, message) => {
    expect(importSubmissionError({ ...validSubmission(service), ...fields })).toBe(message);
  });

  it('refuses unknown or missing paysites', () => {
    expect(importSubmissionError({ service: 'myspace', session_key: 'x' })).toBe('"myspace" is not a valid paysite.');
    expect(importSubmissionError({ session_key: 'x' })).toBe('"" is not a valid paysite.');
  });

  it('trims values, normalises channel IDs and reads checkboxes as 1/0', () => {
    const parsed = importSubmissionSchema.parse({
      ...validSubmission('discord'),
      session_key: `  ${validSubmission('discord').session_key}\n`,
      channel_ids: ' 1, 2 ,3, ',
      auto_import: '1',
      save_session_key: '0',
      save_dms: '1',
    });
    expect(parsed.session_key).toBe(validSubmission('discord').session_key);
    expect(parsed.channel_ids).toBe('1,2,3');
    expect(parsed).toMatchObject({ auto_import: true, save_session_key: false });
    // Discord offers no DMs, so the flag cannot be set for it.
    expect(parsed.save_dms).toBe(false);
    expect(importSubmissionSchema.parse({ ...validSubmission('patreon'), save_dms: '1' }).save_dms).toBe(true);
    expect(DM_SERVICES).toEqual(['patreon', 'fansly']);
  });

  it('accepts the other valid shapes the rules allow', () => {
    const ok = (service: Paysite, fields: Record<string, string>) => importSubmissionError({ ...validSubmission(service), ...fields });
    expect(ok('fantia', { session_key: 'f'.repeat(64) })).toBeNull();
    expect(ok('gumroad', { session_key: 'g'.repeat(1024) })).toBeNull();
    expect(ok('fansly', { session_key: b64({ token: 'abc' }) })).toBeNull();
    expect(ok('boosty', { session_key: decodeURIComponent(boostyKey()) })).toBeNull();
    expect(ok('boosty', { session_key: boostyKey(Math.floor(Date.now() / 1000) + 3600) })).toBeNull();
    expect(ok('candfans', { session_key: b64({ iv: 'a', value: 'b', mac: 'c', tag: '' }) })).toBeNull();
    expect(ok('dlsite', { session_key: 'd'.repeat(1024) })).toBeNull();
    expect(ok('discord', { session_key: 'mfa.abcdefghijklmnopqrstuvwxyz0123' })).toBeNull();
  });
});
