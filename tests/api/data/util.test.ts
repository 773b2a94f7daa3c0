import { describe, expect, it } from 'vitest';
import { truncateChars } from '@api/data/util.ts';

describe('truncateChars', () => {
  it('keeps the first code points, never splitting a surrogate pair', () => {
    expect(truncateChars('abcdef', 3)).toBe('abc');
    expect(truncateChars('ab😀cd', 3)).toBe('ab😀');
    expect(truncateChars('😀😀😀', 2)).toBe('😀😀');
    expect(truncateChars('夜市の灯り', 2)).toBe('夜市');
  });

  it('answers a text no longer than the length unchanged', () => {
    expect(truncateChars('abc', 3)).toBe('abc');
    expect(truncateChars('ab😀', 3)).toBe('ab😀');
    expect(truncateChars('', 5)).toBe('');
    expect(truncateChars('abc', 0)).toBe('');
  });
});
