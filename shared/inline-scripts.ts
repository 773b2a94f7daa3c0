/**
 * The only inline scripts our pages carry. The Content-Security-Policy (api/server/csp.ts) allows an
 * inline script by the sha256 of its exact text, so every `<script is:inline>` renders one of these
 * with `set:html` (no `define:vars`: Astro wraps those in text of its own), and a new inline script
 * must be added to INLINE_SCRIPTS or the browser refuses to run it. Bundled `<script>` modules need
 * nothing: they are files under /_astro/ (astro.config.mjs keeps Astro from inlining them).
 */
import { cardSizeScript } from './card-size.ts';
import { SIDEBAR_BREAKPOINT_PX, STORAGE_KEYS } from './constants.ts';
import { HIDING_INIT_SCRIPT } from './hiding.ts';

/**
 * Runs before first paint, in <head>: puts the sidebar state and the login state on <html> as
 * data-sidebar ('open' | 'closed') and data-auth ('user' | 'guest') so the static HTML (identical for
 * every visitor) shows the right shell at once. The rule is the one in src/client/stores/sidebar.ts.
 */
export const SHELL_INIT_SCRIPT = `(function () {
  var breakpoint = ${SIDEBAR_BREAKPOINT_PX};
  var root = document.documentElement;
  var open = false;
  try {
    var narrow = window.matchMedia('(max-width: ' + breakpoint + 'px)').matches;
    open = !narrow && localStorage.getItem(${JSON.stringify(STORAGE_KEYS.sidebar)}) !== 'closed';
    root.setAttribute('data-auth', localStorage.getItem(${JSON.stringify(STORAGE_KEYS.loggedIn)}) === 'yes' ? 'user' : 'guest');
  } catch (e) {
    open = window.innerWidth > breakpoint;
  }
  root.setAttribute('data-sidebar', open ? 'open' : 'closed');
})();`;

/** Right after the header's menu button: its aria-expanded from data-sidebar before the bundled scripts run. */
export const SIDEBAR_TOGGLE_SCRIPT = `document
  .getElementById('sidebar-toggle')
  .setAttribute('aria-expanded', String(document.documentElement.getAttribute('data-sidebar') !== 'closed'));`;

/** Sets --card-size before first paint (shared/card-size.ts). */
export const CARD_SIZE_SCRIPT = cardSizeScript();

/** Writes the stylesheet that hides the visitor's hidden creators and tags before first paint (shared/hiding.ts). */
export { HIDING_INIT_SCRIPT };

export const INLINE_SCRIPTS: readonly string[] = [SHELL_INIT_SCRIPT, SIDEBAR_TOGGLE_SCRIPT, CARD_SIZE_SCRIPT, HIDING_INIT_SCRIPT];
