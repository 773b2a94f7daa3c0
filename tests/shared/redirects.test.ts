/** The login page's `location` rule: same-origin paths only, anything else goes to the default page. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_LOGIN, safeLocation } from '@shared/redirects.ts';

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
    // Dot segments whose normalised form starts with '//' (another host to a browser).
    '/.//evil.example',
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/%2e//evil.example',
    '/x/..//evil.example',
    '/x/%2e%2e//evil.example',
    '/a/b/../..//evil.example',
    '/./..//evil.example/path?x=1#y',
    '/.%2f/evil.example',
    '/..\\evil.example',
    '/.%5cevil.example',
    '/\u0009/evil.example',
    '/\u000d\u000a/evil.example',
    '/\u0000/evil.example',
    '/%5Cevil.example',
    'https:evil.example',
    'https:/evil.example',
    '\u0020//evil.example',
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
    ['/./account', '/account'],
    ['/a/%2e%2e/posts', '/posts'],
    ['/%09/posts', '/%09/posts'],
    ['/posts?location=//evil.example', '/posts?location=//evil.example'],
  ])('keeps the path %j', (location, expected) => {
    expect(safeLocation(location)).toBe(expected);
  });

  it('answers only paths that pass the rule again unchanged', () => {
    for (const location of ['/.//evil.example', '/x/..//a', '/a/./b/../c', '/%2e%2e/%2e%2e//x', '/é?q=ü#f', '/..', '/.']) {
      const answer = safeLocation(location);
      expect(answer.startsWith('/') && !answer.startsWith('//')).toBe(true);
      expect(safeLocation(answer)).toBe(answer);
    }
  });

  it('falls back to the given default', () => {
    expect(safeLocation('//evil.com', '/')).toBe('/');
  });
});
