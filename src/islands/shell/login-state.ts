/**
 * The shell's login-dependent parts without React. The server renders both variants of each (marked
 * .auth-guest and .auth-user; the HTML is identical for every visitor since pages are stored as static
 * files) and the CSS shows one of them from html[data-auth]. The head script (ShellInit.astro) sets
 * data-auth before first paint from localStorage; this keeps it on $session afterwards: logout, a 401
 * answered to any API call (which clears the login state), another tab logging in or out.
 */
import { $session } from '@site/client/stores/session';

let started = false;

/** Browser only. Safe to call more than once (the header's and the sidebar's scripts both do). */
export function followLoginState(root: HTMLElement = document.documentElement): void {
  if (started) return;
  started = true;
  $session.subscribe(({ loggedIn }) => root.setAttribute('data-auth', loggedIn ? 'user' : 'guest'));
}
