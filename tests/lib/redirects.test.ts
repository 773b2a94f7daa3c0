/** The login page's `location` rule: same-origin paths only, anything else goes to the default page. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_LOGIN, safeLocation } from '../../src/lib/redirects.ts';

describe('safeLocation', () => {
  it.each([
    '//evil.com',
    '///evil.com',
    '/\\evil.com',
    '\\\\evil',
    '\\/evil.com',
    'https://evil.com',
    'http:evil.com',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/%2F%2Fevil.com',
    '/%2f%5cevil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    'evil.com',
    '',
    ' /account',
    null,
    undefined,
  ])('refuses %j', (location) => {
    expect(safeLocation(location)).toBe(DEFAULT_AFTER_LOGIN);
  });

  it.each([
    ['/account', '/account'],
    ['/patreon/user/100/post/5?o=50#comments', '/patreon/user/100/post/5?o=50#comments'],
    ['/posts?q=a%2Fb', '/posts?q=a%2Fb'],
    ['/artists/../account', '/account'],
    ['/', '/'],
  ])('keeps the path %j', (location, expected) => {
    expect(safeLocation(location)).toBe(expected);
  });

  it('falls back to the given default', () => {
    expect(safeLocation('//evil.com', '/')).toBe('/');
  });
});
