/**
 * The random links (/posts/random, /artists/random) for a guest who hid creators on this device. The
 * server's redirect cannot know a device's list, so a click asks the API for a pick, up to RANDOM_TRIES
 * times, until one is by a creator the guest has not hidden (or takes the last one). An account's picks
 * already leave its hidden creators out on the server, so its clicks, and those of a guest who hid no
 * creator, follow the link as usual. Part of the shell (every page), so written without the API
 * client, the path builders or the hiding rules; tests compare its copies with them.
 */
import { HIDING_STORAGE_KEYS, STORAGE_KEYS } from '@shared/constants.ts';
import { parseJsonText } from '@shared/parse.ts';
import { unlessStorageRefuses } from '@site/client/storage-errors.ts';

export const RANDOM_TRIES = 10;
/** Each random link and the API call that makes its pick (`apiUrl(apiPaths.randomPost())`, ...). */
export const RANDOM_PICK_PATHS: Record<string, string> = {
  '/posts/random': '/api/v1/posts/random',
  '/artists/random': '/api/v1/artists/random',
};

interface RandomPick {
  service: string;
  artist_id: string;
  post_id?: string;
}

/** The pick's page (creatorUrl / postUrl of shared/urls.ts, written out). */
export function pickUrl(pick: RandomPick): string {
  const creator = `/${encodeURIComponent(pick.service)}/user/${encodeURIComponent(pick.artist_id)}`;
  return pick.post_id === undefined ? creator : `${creator}/post/${encodeURIComponent(pick.post_id)}`;
}

/** The creators ("service:id") a guest hid on this device; none for an account or an unreadable list. */
export function guestHiddenCreators(storage: Pick<Storage, 'getItem'>): string[] {
  const read = (key: string) => unlessStorageRefuses(() => storage.getItem(key), null);
  if (read(STORAGE_KEYS.loggedIn) === 'yes') return [];
  const list = parseJsonText(read(HIDING_STORAGE_KEYS.guest) ?? 'null')?.value as { creators?: unknown } | null | undefined;
  return Array.isArray(list?.creators) ? list.creators.map(String) : [];
}

/** Asks for picks until one is not hidden; null when the API gives none (the link then goes as usual). */
export async function visiblePickUrl(ask: () => Promise<RandomPick | null>, hidden: readonly string[]): Promise<string | null> {
  let url: string | null = null;
  for (let tries = 0; tries < RANDOM_TRIES; tries += 1) {
    const pick = await ask();
    if (!pick) break;
    url = pickUrl(pick);
    if (!hidden.includes(`${pick.service}:${pick.artist_id}`)) break;
  }
  return url;
}

async function askPick(path: string): Promise<RandomPick | null> {
  const response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  return response.ok ? ((await response.json()) as RandomPick) : null;
}

export function startRandomLinks(): void {
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null;
    const path = link ? RANDOM_PICK_PATHS[link.getAttribute('href') ?? ''] : undefined;
    if (!link || !path || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const hidden = guestHiddenCreators(localStorage);
    if (hidden.length === 0) return;
    event.preventDefault();
    visiblePickUrl(() => askPick(path), hidden).then(
      (url) => window.location.assign(url ?? link.href),
      () => window.location.assign(link.href),
    );
  });
}
