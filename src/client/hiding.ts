/**
 * Hiding on the site (docs/product.md#hiding-creators-and-tags), one bundled script for every page
 * (src/components/HidingControls.astro). The head script already hid what the device's list names;
 * this script:
 * - signed in: refreshes the device's copy of the account's list from the API and rewrites the style;
 * - handles every hide/show control by delegation (buttons with data-hide-creator, data-hide-tag,
 *   data-unhide-creator), so cards that islands render later need nothing of their own;
 * - writes "N hidden" before a listing that lost cards (no refetch: a page shows fewer items).
 * (The random links are the shell's: src/islands/shell/random-links.ts.)
 */
import { api } from './api-client.ts';
import { readSession } from './stores/session.ts';
import { applyHiddenStyle, isHidden, readHiddenList, withHidden, writeHiddenList, type HiddenKind } from './hidden-list.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { creatorKey, parseCreatorKey, type HiddenList } from '@shared/hiding.ts';
import { unlessStorageRefuses } from './storage-errors.ts';

export const HIDDEN_CHANGE_EVENT = 'trove:hidden-change';
const HIDDEN_PAGE = '/account/hidden';

const storage = () => unlessStorageRefuses(() => globalThis.localStorage ?? null, null);
const signedIn = () => readSession().loggedIn;

export function currentHiddenList(): HiddenList {
  return readHiddenList(storage(), signedIn());
}

function commit(list: HiddenList): void {
  writeHiddenList(storage(), signedIn(), list);
  applyHiddenStyle(document, list);
  refreshControls(list);
  document.dispatchEvent(new CustomEvent(HIDDEN_CHANGE_EVENT));
}

/** Hides or shows one creator ("service:id") or tag: on the server for accounts, on the device for guests. */
export async function setHidden(kind: HiddenKind, value: string, hidden: boolean): Promise<void> {
  if (signedIn()) {
    const path = kind === 'creator' ? creatorPath(value) : apiPaths.hiddenTag(value);
    await (hidden ? api.v1.post(path) : api.v1.delete(path));
  }
  commit(withHidden(currentHiddenList(), kind, value, hidden));
}

function creatorPath(key: string): string {
  const creator = parseCreatorKey(key);
  if (!creator) throw new Error(`Not a creator key: ${key}`);
  return apiPaths.hiddenCreator(creator.service, creator.id);
}

/** Signed in: the account's list from the server replaces the device's copy. */
export async function syncAccountList(): Promise<void> {
  if (!signedIn()) return;
  const answer = await api.v1.get<{ creators: { service: string; id: string }[]; tags: { tag: string }[] }>(apiPaths.accountHidden(), {
    cache: false,
  });
  commit({ creators: answer.creators.map((c) => creatorKey(c.service, c.id)), tags: answer.tags.map((t) => t.tag) });
}

/** Each control's pressed state and label follow the list. */
function refreshControls(list: HiddenList): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-hide-creator], button[data-hide-tag]')) {
    const creator = button.dataset.hideCreator;
    const hidden = creator !== undefined ? isHidden(list, 'creator', creator) : isHidden(list, 'tag', button.dataset.hideTag ?? '');
    button.setAttribute('aria-pressed', String(hidden));
  }
  writeNotes();
}

/** "N hidden" before each listing whose cards the style hides (changed only when its count did). */
function writeNotes(): void {
  for (const listing of document.querySelectorAll<HTMLElement>('.card-grid, .card-list, .tag-list')) {
    const count = [...listing.children].filter((child) => getComputedStyle(child).display === 'none').length;
    const existing = listing.previousElementSibling?.classList.contains('hidden-note') ? listing.previousElementSibling : null;
    const text = count === 0 ? '' : `${count} hidden on this page · Hidden items`;
    if ((existing?.textContent ?? '') === text) continue;
    if (count === 0) {
      existing?.remove();
      continue;
    }
    const note = existing ?? document.createElement('p');
    note.className = 'hidden-note';
    const link = document.createElement('a');
    link.href = HIDDEN_PAGE;
    link.textContent = 'Hidden items';
    note.replaceChildren(`${count} hidden on this page · `, link);
    if (!existing) listing.before(note);
  }
}

async function onClick(event: MouseEvent): Promise<void> {
  const target = event.target instanceof Element ? event.target : null;
  const button = target?.closest<HTMLButtonElement>('button[data-hide-creator], button[data-hide-tag], button[data-unhide-creator]');
  if (!button) return;
  event.preventDefault();
  const { hideCreator, hideTag, unhideCreator } = button.dataset;
  const [kind, value]: [HiddenKind, string] =
    unhideCreator !== undefined
      ? ['creator', unhideCreator]
      : hideCreator !== undefined
        ? ['creator', hideCreator]
        : ['tag', hideTag ?? ''];
  const hide = unhideCreator === undefined && button.getAttribute('aria-pressed') !== 'true';
  button.disabled = true;
  try {
    await setHidden(kind, value, hide);
  } catch (error) {
    button.title = error instanceof Error ? error.message : String(error);
  } finally {
    button.disabled = false;
  }
}

export function startHiding(): void {
  refreshControls(currentHiddenList());
  document.addEventListener('click', (event) => void onClick(event));
  // Islands render cards after load: count again when the page's content changes.
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      refreshControls(currentHiddenList());
    });
  }).observe(document.getElementById('main') ?? document.body, { childList: true, subtree: true });
  window.addEventListener('storage', () => {
    const list = currentHiddenList();
    applyHiddenStyle(document, list);
    refreshControls(list);
  });
  syncAccountList().catch(() => undefined);
}
