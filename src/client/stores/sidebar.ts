/**
 * Sidebar state (docs/product.md#layout-shell).
 *
 * - At widths <= SIDEBAR_BREAKPOINT_PX the sidebar is collapsed by default and, when opened, overlays
 *   the page; that choice is never saved.
 * - On wider screens the open/closed choice is saved in localStorage (STORAGE_KEYS.sidebar) as
 *   'open' or 'closed'.
 * - Crossing the breakpoint: going narrow collapses it; going wide reopens it unless the saved state
 *   is 'closed'.
 *
 * The same rule runs once before first paint in an inline script of the layout (see
 * src/components/SidebarInit.astro), which writes `data-sidebar` on <html>; `startSidebar()` picks the
 * state up from there so that the two never disagree.
 */
import { atom } from 'nanostores';
import { SIDEBAR_BREAKPOINT_PX, STORAGE_KEYS } from '@shared/constants';
import { unlessStorageRefuses } from '../storage-errors.ts';

export type SavedSidebarState = 'open' | 'closed';

/** Matches the narrow layout (the CSS uses the same 1020px breakpoint). */
export const SIDEBAR_NARROW_QUERY = `(max-width: ${SIDEBAR_BREAKPOINT_PX}px)`;

/** Whether the sidebar is shown. */
export const $sidebarOpen = atom<boolean>(true);
/** Whether the window is at or below the breakpoint (sidebar overlays the content when open). */
export const $sidebarNarrow = atom<boolean>(false);

/** The state the sidebar takes on load and after crossing the breakpoint. */
export function sidebarOpenFor(narrow: boolean, saved: SavedSidebarState | null): boolean {
  return !narrow && saved !== 'closed';
}

export function readSavedSidebarState(): SavedSidebarState | null {
  const value = unlessStorageRefuses(() => globalThis.localStorage?.getItem(STORAGE_KEYS.sidebar), null);
  return value === 'open' || value === 'closed' ? value : null;
}

function saveSidebarState(open: boolean): void {
  unlessStorageRefuses(() => globalThis.localStorage?.setItem(STORAGE_KEYS.sidebar, open ? 'open' : 'closed'), undefined);
}

/** Opens or closes the sidebar; on wide screens the choice is remembered. */
export function setSidebarOpen(open: boolean): void {
  $sidebarOpen.set(open);
  if (!$sidebarNarrow.get()) saveSidebarState(open);
}

export function toggleSidebar(): void {
  setSidebarOpen(!$sidebarOpen.get());
}

/** Closes the sidebar when it overlays the content (narrow widths). Returns whether it did. */
export function closeSidebarOverlay(): boolean {
  if (!$sidebarNarrow.get() || !$sidebarOpen.get()) return false;
  $sidebarOpen.set(false);
  return true;
}

/** Applies a breakpoint crossing (or the initial measurement) to the store. */
export function setSidebarNarrow(narrow: boolean): void {
  if (narrow === $sidebarNarrow.get()) return;
  $sidebarNarrow.set(narrow);
  $sidebarOpen.set(sidebarOpenFor(narrow, readSavedSidebarState()));
}

let started = false;

/**
 * Browser only: reads the state set before first paint and follows breakpoint crossings.
 * Safe to call more than once.
 */
export function startSidebar(win: Window = window): void {
  if (started) return;
  started = true;
  const media = win.matchMedia(SIDEBAR_NARROW_QUERY);
  const preset = win.document.documentElement.dataset.sidebar;
  $sidebarNarrow.set(media.matches);
  $sidebarOpen.set(preset === 'open' || preset === 'closed' ? preset === 'open' : sidebarOpenFor(media.matches, readSavedSidebarState()));
  media.addEventListener('change', (event) => setSidebarNarrow(event.matches));
}
