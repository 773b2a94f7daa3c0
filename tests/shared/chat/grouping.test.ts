import { describe, expect, it } from 'vitest';
import { groupMessages } from '@shared/chat/grouping.ts';
import { CHAT_GROUP_GAP_MS } from '@shared/constants.ts';

const base = Date.parse('2024-05-01T12:00:00Z');
const at = (ms: number) => new Date(base + ms).toISOString().slice(0, 19);
const msg = (id: string, author: string, ms: number) => ({ id, published: at(ms), author: { id: author } });
const ids = (groups: ReturnType<typeof groupMessages>) => groups.map((group) => group.messages.map((m) => m.id));

describe('groupMessages', () => {
  it('groups consecutive messages by one author less than 450000 ms apart', () => {
    const groups = groupMessages([
      msg('1', 'a', 0),
      msg('2', 'a', 60_000),
      msg('3', 'a', 60_000 + CHAT_GROUP_GAP_MS - 1000),
      msg('4', 'b', 600_000),
    ]);
    expect(ids(groups)).toEqual([['1', '2', '3'], ['4']]);
    expect(groups[1].author).toEqual({ id: 'b' });
  });

  it('starts a new group at exactly the gap, and when another author speaks in between', () => {
    expect(ids(groupMessages([msg('1', 'a', 0), msg('2', 'a', CHAT_GROUP_GAP_MS)]))).toEqual([['1'], ['2']]);
    expect(ids(groupMessages([msg('1', 'a', 0), msg('2', 'b', 1000), msg('3', 'a', 2000)]))).toEqual([['1'], ['2'], ['3']]);
  });

  it('measures the gap from the previous message, not the first of the group', () => {
    const step = CHAT_GROUP_GAP_MS - 1000;
    expect(ids(groupMessages([msg('1', 'a', 0), msg('2', 'a', step), msg('3', 'a', 2 * step)]))).toEqual([['1', '2', '3']]);
  });

  it('orders newest-first input oldest first, ties by id (snowflakes by length)', () => {
    const input = [msg('100', 'a', 5000), msg('99', 'a', 5000), msg('5', 'a', 0)];
    expect(ids(groupMessages(input))).toEqual([['5', '99', '100']]);
    expect(input.map((m) => m.id)).toEqual(['100', '99', '5']);
  });

  it('starts a group at an unreadable date and returns nothing for nothing', () => {
    expect(ids(groupMessages([msg('1', 'a', 0), { id: '2', published: 'garbage', author: { id: 'a' } }]))).toHaveLength(2);
    expect(groupMessages([])).toEqual([]);
  });
});
