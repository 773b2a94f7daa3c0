import { describe, expect, it } from 'vitest';
import {
  chatOffsetForPosition,
  chatPageOffset,
  chatPaging,
  lastChatOffset,
  newerOffset,
  olderOffset,
  parseChatOffset,
} from '@shared/chat/paging.ts';

describe('parseChatOffset', () => {
  it('takes missing or empty as 0 and multiples of 150 as they are', () => {
    expect(parseChatOffset(undefined)).toEqual({ ok: true, offset: 0 });
    expect(parseChatOffset('')).toEqual({ ok: true, offset: 0 });
    expect(parseChatOffset('300')).toEqual({ ok: true, offset: 300 });
    expect(parseChatOffset(['450', '0'])).toEqual({ ok: true, offset: 450 });
    expect(parseChatOffset(150)).toEqual({ ok: true, offset: 150 });
  });

  it("refuses other values with the spec's wording and 150 as the step", () => {
    expect(parseChatOffset('50')).toEqual({ ok: false, error: 'Offset 50 is not a multiple of 150.' });
    expect(parseChatOffset('-150')).toEqual({ ok: false, error: 'Offset -150 must not be negative.' });
    expect(parseChatOffset('abc')).toEqual({ ok: false, error: 'Offset "abc" is not a whole number.' });
    expect(parseChatOffset('1.5')).toMatchObject({ ok: false });
  });
});

describe('chatPageOffset (rounded down to a multiple of 150; past the end, the oldest page)', () => {
  it('rounds down to a multiple of 150', () => {
    expect(chatPageOffset(1000, 0)).toBe(0);
    expect(chatPageOffset(1000, 149)).toBe(0);
    expect(chatPageOffset(1000, 151)).toBe(150);
    expect(chatPageOffset(1000, 899)).toBe(750);
    expect(chatPageOffset(1000, 900)).toBe(900);
  });

  it('lands on the oldest page when post_count minus the offset leaves nothing', () => {
    expect(chatPageOffset(1000, 1000)).toBe(900);
    expect(chatPageOffset(1000, 99_999)).toBe(900);
    expect(chatPageOffset(300, 300)).toBe(150);
    expect(chatPageOffset(150, 150)).toBe(0);
    expect(chatPageOffset(0, 450)).toBe(0);
  });

  it('treats negative or non-finite input as the newest page', () => {
    expect(chatPageOffset(1000, -5)).toBe(0);
    expect(chatPageOffset(1000, Number.NaN)).toBe(0);
  });

  it('knows the oldest page of any channel size', () => {
    expect([0, 1, 150, 151, 300, 301].map(lastChatOffset)).toEqual([0, 0, 0, 150, 150, 300]);
  });
});

describe('Older and Newer', () => {
  it('steps 150 back while messages remain, and 150 forward down to 0', () => {
    expect(olderOffset(1000, 0)).toBe(150);
    expect(olderOffset(1000, 750)).toBe(900);
    expect(olderOffset(1000, 900)).toBeNull();
    expect(olderOffset(300, 150)).toBeNull();
    expect(olderOffset(0, 0)).toBeNull();
    expect(newerOffset(0)).toBeNull();
    expect(newerOffset(150)).toBe(0);
    expect(newerOffset(900)).toBe(750);
  });

  it('disables Older on a page holding fewer than 150 messages (community rule)', () => {
    expect(olderOffset(1000, 0, 149)).toBeNull();
    expect(olderOffset(1000, 0, 150)).toBe(150);
  });

  it('gives a page everything at once', () => {
    expect(chatPaging(1000, 5000)).toEqual({ offset: 900, older: null, newer: 750 });
    expect(chatPaging(1000, 0)).toEqual({ offset: 0, older: 150, newer: null });
    expect(chatPaging(100, 0, 100)).toEqual({ offset: 0, older: null, newer: null });
  });

  it('finds the page of a message from its newest-first position', () => {
    expect([0, 149, 150, 299, 300, 99_999].map(chatOffsetForPosition)).toEqual([0, 0, 150, 150, 300, 99_900]);
  });
});
