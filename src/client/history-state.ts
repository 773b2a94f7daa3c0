/**
 * A listing island keeps its query in each history entry's state under its own key, so Back and Forward
 * restore the listing without a reload.
 */

/**
 * Gives the current history entry `value` under `key` if it has nothing there yet: the entry the visitor
 * arrived on, before a change pushes the next one. A change can come before the hydration's effects have
 * run (on a busy machine); without this, Back to that entry found no query and kept the changed listing.
 */
export function rememberInHistory(key: string, value: unknown): void {
  const state = window.history.state as Record<string, unknown> | null;
  if (state?.[key] !== undefined) return;
  window.history.replaceState({ ...state, [key]: value }, '');
}
