/**
 * The visitor's hidden creators and tags on this device (docs/product.md#hiding-creators-and-tags).
 * Guests keep their list in localStorage (HIDING_STORAGE_KEYS.guest); a signed-in account's list lives
 * on the server and this device keeps a copy (HIDING_STORAGE_KEYS.account) so that the head script can
 * hide before first paint. Browser-safe, storage and document passed in (tests give their own).
 */
import { HIDING_STORAGE_KEYS } from '@shared/constants.ts';
import { HIDDEN_LIST_MAX, HIDING_STYLE_ID, hiddenItemsCss, normalizeHiddenList, type HiddenList } from '@shared/hiding.ts';
import { parseJsonText } from '@shared/parse.ts';
import { unlessStorageRefuses } from './storage-errors.ts';
import type { StorageLike } from './stores/session.ts';

export type HiddenKind = 'creator' | 'tag';

const keyFor = (account: boolean) => (account ? HIDING_STORAGE_KEYS.account : HIDING_STORAGE_KEYS.guest);

/** The list kept on this device for a guest (account false) or a signed-in account's copy. */
export function readHiddenList(storage: StorageLike | null, account: boolean): HiddenList {
  const text = unlessStorageRefuses(() => storage?.getItem(keyFor(account)) ?? null, null);
  if (!text) return { creators: [], tags: [] };
  return normalizeHiddenList(parseJsonText(text)?.value);
}

/** Keeps a list on this device (for this page only when storage refuses). */
export function writeHiddenList(storage: StorageLike | null, account: boolean, list: HiddenList): void {
  unlessStorageRefuses(() => storage?.setItem(keyFor(account), JSON.stringify(list)), undefined);
}

/** The list with one creator ("service:id") or tag hidden (first) or shown again. */
export function withHidden(list: HiddenList, kind: HiddenKind, value: string, hidden: boolean): HiddenList {
  const field = kind === 'creator' ? 'creators' : 'tags';
  const rest = list[field].filter((item) => item !== value);
  const next = hidden ? [value, ...rest].slice(0, HIDDEN_LIST_MAX) : rest;
  return { ...list, [field]: next };
}

export function isHidden(list: HiddenList, kind: HiddenKind, value: string): boolean {
  return (kind === 'creator' ? list.creators : list.tags).includes(value);
}

/** Writes the list's stylesheet into the page (the <style> the head script made, or a new one). */
export function applyHiddenStyle(doc: Document, list: HiddenList): void {
  let style = doc.getElementById(HIDING_STYLE_ID);
  if (!style) {
    style = doc.createElement('style');
    style.id = HIDING_STYLE_ID;
    doc.head.appendChild(style);
  }
  const css = hiddenItemsCss(list);
  if (style.textContent !== css) style.textContent = css;
}
