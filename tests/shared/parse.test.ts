/** shared/parse.ts: bad input answers undefined; other errors are not swallowed. */
import { describe, expect, it } from 'vitest';
import { decodeComponent, decodeWholeUri, parseJsonText, parseUrl } from '@shared/parse.ts';

describe('parse helpers', () => {
  it('parse URLs, relative ones against a base', () => {
    expect(parseUrl('https://example.com/a?b')?.pathname).toBe('/a');
    expect(parseUrl('/x', 'https://example.com')?.href).toBe('https://example.com/x');
    expect(parseUrl('not a url')).toBeUndefined();
    expect(parseUrl('/x')).toBeUndefined();
  });

  it('decode percent-escapes, undefined for malformed ones', () => {
    expect(decodeComponent('a%2Fb')).toBe('a/b');
    expect(decodeComponent('%ff')).toBeUndefined();
    expect(decodeWholeUri('a%2Fb%20c')).toBe('a%2Fb c');
    expect(decodeWholeUri('%E0%A4%A')).toBeUndefined();
  });

  it('parse JSON text, telling JSON null from text that is not JSON', () => {
    expect(parseJsonText('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseJsonText('null')).toEqual({ value: null });
    expect(parseJsonText('{nope')).toBeUndefined();
    expect(parseJsonText('')).toBeUndefined();
  });
});
