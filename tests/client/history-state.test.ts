/**
 * rememberInHistory against a stand-in for the browser's History (state and replaceState, the two parts
 * it uses): an entry without the key gets it, beside what it holds; an entry with the key keeps it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberInHistory } from '@site/client/history-state.ts';

class EntryHistory {
  state: unknown = null;
  replaced = 0;
  replaceState(state: unknown): void {
    this.state = state;
    this.replaced += 1;
  }
}

let history: EntryHistory;
const realWindow = (globalThis as { window?: unknown }).window;

beforeEach(() => {
  history = new EntryHistory();
  (globalThis as { window?: unknown }).window = { history };
});

afterEach(() => {
  (globalThis as { window?: unknown }).window = realWindow;
});

describe('rememberInHistory', () => {
  it('gives an entry without the key its value, keeping what else the entry holds', () => {
    history.state = { scroll: 120 };
    rememberInHistory('artists', { q: 'studio', o: 0 });
    expect(history.state).toEqual({ scroll: 120, artists: { q: 'studio', o: 0 } });
    rememberInHistory('favorites', { sort: 'created' });
    expect(history.state).toEqual({ scroll: 120, artists: { q: 'studio', o: 0 }, favorites: { sort: 'created' } });
  });

  it('starts from an entry with no state at all', () => {
    rememberInHistory('artists', { o: 0 });
    expect(history.state).toEqual({ artists: { o: 0 } });
  });

  it('leaves an entry that already has the key alone: a pushed entry keeps its own query', () => {
    history.state = { artists: { service: 'fanbox', o: 0 } };
    rememberInHistory('artists', { o: 0 });
    expect(history.state).toEqual({ artists: { service: 'fanbox', o: 0 } });
    expect(history.replaced).toBe(0);
  });
});
