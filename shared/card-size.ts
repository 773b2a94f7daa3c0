/**
 * Post card size (docs/product.md#display-and-storage: default 180 px, kept in the thumbSize cookie for 399
 * days, adapts to the window width).
 *
 * The rule: a card is 180 px wide, except where two 180 px cards no longer fit side by side; there it
 * is half of what the page leaves for the grid, so phones show two columns that fill the width.
 * A saved size is kept while two cards of it still fit (so a size once chosen on a device survives
 * reloads), and the size is worked out again whenever the window is resized.
 *
 * Pages are stored static files, identical for every visitor, so the server never reads the cookie: an
 * inline script in <head> (cardSizeScript, used by src/components/CardSizeInit.astro) applies the size
 * before first paint and keeps the cookie. The CSS (.card-grid in src/styles/cards.css) still caps a
 * card at half the grid, so a rule that drifted from the stylesheet can never drop phones to one column.
 */
import { CARD_SIZE_DEFAULT, THUMB_COOKIE_DAYS } from './constants.ts';

export const CARD_SIZE_COOKIE = 'thumbSize';
export const CARD_SIZE_MAX_AGE_S = THUMB_COOKIE_DAYS * 24 * 60 * 60;

export interface CardSizeRule {
  /** Default and largest size chosen from the width. */
  size: number;
  /** Saved sizes outside [min, max] are ignored (a hand-edited or corrupt cookie). */
  min: number;
  max: number;
  /** What the page takes from the window width besides two cards at phone widths: main's padding
   *  on both sides (2 x 0.75rem) and the gap between the two cards (0.5rem). */
  chrome: number;
  cookie: string;
  maxAge: number;
}

export const CARD_SIZE_RULE: CardSizeRule = {
  size: CARD_SIZE_DEFAULT,
  min: 80,
  max: 400,
  chrome: 32,
  cookie: CARD_SIZE_COOKIE,
  maxAge: CARD_SIZE_MAX_AGE_S,
};

/**
 * The card size for a window width and the saved cookie value (or null): the saved size while two
 * cards of it fit, else the largest size up to the default that does.
 *
 * Written as self-contained ES5 (no closures, no helpers, rule passed in) because cardSizeScript
 * inlines it into <head>, as CARD_SIZE_FOR_SOURCE: the same function as fixed text, since the
 * Content-Security-Policy allows the script by the hash of its exact text and `toString()` of this one
 * differs between the compilers that run it (Vite in the build, tsx in the server).
 * tests/lib/card-size.test.ts checks that the two agree.
 */
export function cardSizeFor(width: number, saved: string | null | undefined, rule: CardSizeRule): number {
  var fit = Math.floor((width - rule.chrome) / 2);
  var computed = Math.max(rule.min, Math.min(rule.size, fit));
  var keep = saved != null && /^\d{1,4}$/.test(saved) ? Number(saved) : 0;
  return keep >= rule.min && keep <= rule.max && keep <= Math.max(fit, rule.min) ? keep : computed;
}

/** cardSizeFor as the text the inline script carries. */
export const CARD_SIZE_FOR_SOURCE = `function (width, saved, rule) {
  var fit = Math.floor((width - rule.chrome) / 2);
  var computed = Math.max(rule.min, Math.min(rule.size, fit));
  var keep = saved != null && /^\\d{1,4}$/.test(saved) ? Number(saved) : 0;
  return keep >= rule.min && keep <= rule.max && keep <= Math.max(fit, rule.min) ? keep : computed;
}`;

/** The Set-Cookie / document.cookie value that keeps a size. */
export function cardSizeCookie(size: number, rule: CardSizeRule = CARD_SIZE_RULE): string {
  return `${rule.cookie}=${size}; Path=/; Max-Age=${rule.maxAge}; SameSite=Lax`;
}

/**
 * The inline <head> script: reads the cookie, sets --card-size on <html> before first paint, writes
 * the cookie when the size changed, and again when a resize changed the width (once per frame at most;
 * height-only resizes, like a phone's address bar sliding away, keep the saved size).
 */
export function cardSizeScript(rule: CardSizeRule = CARD_SIZE_RULE): string {
  return `(function(r,f){var d=document,h=d.documentElement;
function read(){var m=d.cookie.match(new RegExp('(?:^|; )'+r.cookie+'=([^;]*)'));return m?m[1]:null}
function apply(saved){var s=f(innerWidth,saved,r);h.style.setProperty('--card-size',s+'px');
if(read()!==String(s))d.cookie=r.cookie+'='+s+'; Path=/; Max-Age='+r.maxAge+'; SameSite=Lax'}
apply(read());var q=0,w=innerWidth;addEventListener('resize',function(){if(!q)q=requestAnimationFrame(function(){q=0;if(innerWidth!==w){w=innerWidth;apply(null)}})})
})(${JSON.stringify(rule)},${CARD_SIZE_FOR_SOURCE})`;
}
