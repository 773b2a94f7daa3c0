/**
 * Well-formed importer submissions for every service (docs/product.md#importer-session-keys), built at call time so
 * the boosty expiry is always in the future. Shared by the validator, API and browser tests.
 */
import type { Paysite } from '@shared/paysites/index.ts';

const hex = (n: number, seed = 'a1') => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);
export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

export function boostyKey(expiresAt: number | string = Date.now() + 86_400_000, tokens = { a: hex(64, 'ab12'), r: hex(64, 'cd34') }) {
  return encodeURIComponent(JSON.stringify({ accessToken: tokens.a, refreshToken: tokens.r, expiresAt, isEmpty: false }));
}

export const DISCORD_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';

/** A valid submission body per service; `seed` varies the key so tests can make distinct imports. */
export function validSubmission(service: Paysite, seed = ''): Record<string, string> {
  const pad = (key: string) => (seed ? key.slice(0, key.length - seed.length) + seed : key);
  switch (service) {
    case 'patreon':
      return { service, session_key: pad('P'.repeat(43)) };
    case 'fanbox':
      return { service, session_key: pad('12345678_abcdefghijklmnopqrstuvwxyz') };
    case 'discord':
      return { service, session_key: pad(DISCORD_TOKEN), channel_ids: '123456789012345678, 234567890123456789' };
    case 'fantia':
      return { service, session_key: pad(hex(32, 'f0')) };
    case 'afdian':
      return { service, session_key: `${hex(32, 'be')}_1700000000${seed}` };
    case 'boosty':
      return { service, session_key: boostyKey(Date.now() + 86_400_000 + Number(seed || 0)) };
    case 'gumroad':
      return { service, session_key: pad('g'.repeat(250)) };
    case 'subscribestar':
      return { service, session_key: pad('subscribestar-session-key') };
    case 'dlsite':
      return { service, session_key: pad('dlsite-session-key') };
    case 'fansly':
      return { service, session_key: pad('A1'.repeat(35) + 'Z') };
    case 'onlyfans':
      return {
        service,
        session_key: pad('onlyfans-sess'),
        auth_id: '123456',
        'x-bc': hex(40, '0f'),
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
      };
    case 'candfans':
      return { service, session_key: encodeURIComponent(b64({ iv: 'aXY=', value: `dmFsdWU${seed}`, mac: 'abc', tag: '' })) };
  }
}
