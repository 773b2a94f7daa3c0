import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CARD_SIZE_FOR_SOURCE, CARD_SIZE_RULE, cardSizeCookie, cardSizeFor, cardSizeScript } from '@shared/card-size.ts';

const rule = CARD_SIZE_RULE;

describe('card size rule', () => {
  it('is 180 px wherever two 180 px cards fit, and half the grid below that', () => {
    expect(cardSizeFor(1280, null, rule)).toBe(180);
    expect(cardSizeFor(392, null, rule)).toBe(180);
    expect(cardSizeFor(391, null, rule)).toBe(179);
    expect(cardSizeFor(375, null, rule)).toBe(171); // (375 - 2 x 12 padding - 8 gap) / 2, rounded down
    expect(cardSizeFor(320, null, rule)).toBe(144);
    expect(cardSizeFor(100, null, rule)).toBe(rule.min);
  });

  it('keeps a saved size while two cards of it fit, and replaces one that no longer fits', () => {
    expect(cardSizeFor(1280, '150', rule)).toBe(150);
    expect(cardSizeFor(1280, '171', rule)).toBe(171);
    expect(cardSizeFor(375, '171', rule)).toBe(171);
    expect(cardSizeFor(375, '180', rule)).toBe(171);
    expect(cardSizeFor(1280, '250', rule)).toBe(250);
  });

  it('ignores unreadable or out-of-range cookies', () => {
    for (const bad of ['', 'abc', '12px', '-5', '79', '401', '1e3', '99999', ' 150']) {
      expect(cardSizeFor(1280, bad, rule), bad).toBe(180);
    }
  });

  it('keeps the cookie 399 days on the whole site', () => {
    expect(cardSizeCookie(171)).toBe('thumbSize=171; Path=/; Max-Age=34473600; SameSite=Lax');
  });
});

/** Runs the inline <head> script against a minimal window/document. */
function runScript(width: number, cookie: string) {
  const written: string[] = [];
  const listeners: Record<string, () => void> = {};
  const frames: Array<() => void> = [];
  const style = new Map<string, string>();
  const document = {
    documentElement: { style: { setProperty: (name: string, value: string) => style.set(name, value) } },
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      written.push(value);
      cookie = value.split(';')[0];
    },
  };
  const context = {
    document,
    innerWidth: width,
    addEventListener: (type: string, listener: () => void) => (listeners[type] = listener),
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
  };
  vm.runInNewContext(cardSizeScript(), context);
  return {
    style,
    written,
    resize(to: number) {
      context.innerWidth = to;
      listeners.resize();
      listeners.resize(); // a second event in the same frame changes nothing more
      frames.splice(0).forEach((frame) => frame());
    },
  };
}

describe('the inline head script', () => {
  it('applies the computed size and saves it on a first visit', () => {
    const page = runScript(375, '');
    expect(page.style.get('--card-size')).toBe('171px');
    expect(page.written).toEqual([cardSizeCookie(171)]);
  });

  it('applies a saved size without rewriting the cookie', () => {
    const page = runScript(1280, 'other=1; thumbSize=150');
    expect(page.style.get('--card-size')).toBe('150px');
    expect(page.written).toEqual([]);
  });

  it('works the size out again after a resize that changed the width', () => {
    const page = runScript(1280, 'thumbSize=150');
    page.resize(1280); // only the height changed
    expect(page.style.get('--card-size')).toBe('150px');
    page.resize(375);
    expect(page.style.get('--card-size')).toBe('171px');
    page.resize(1280);
    expect(page.style.get('--card-size')).toBe('180px');
    expect(page.written).toEqual([cardSizeCookie(171), cardSizeCookie(180)]);
  });

  it('stays small', () => {
    expect(cardSizeScript().length).toBeLessThan(1200);
  });

  it('carries the same rule as cardSizeFor, as fixed text (the CSP allows it by hash)', () => {
    const inlined = vm.runInNewContext(`(${CARD_SIZE_FOR_SOURCE})`) as typeof cardSizeFor;
    for (const width of [0, 100, 320, 375, 391, 392, 393, 800, 1280, 4000]) {
      for (const saved of [null, undefined, '', '79', '80', '150', '171', '180', '250', '400', '401', '12345', 'abc', '1e2']) {
        expect(inlined(width, saved, rule), `${width} ${saved}`).toBe(cardSizeFor(width, saved, rule));
      }
    }
    expect(cardSizeScript()).toContain(CARD_SIZE_FOR_SOURCE);
  });
});
