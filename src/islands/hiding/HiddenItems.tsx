/**
 * The hidden items page (/account/hidden): the visitor's hidden creators and tags, each with "Show
 * again". Signed in: the account's list from the API (with names); guests: this device's list. A
 * signed-in visitor whose device still holds a list from before signing in may add it to the account.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, api, describeError } from '@site/client/api-client';
import { HIDDEN_CHANGE_EVENT, setHidden } from '@site/client/hiding';
import { readHiddenList, writeHiddenList, type HiddenKind } from '@site/client/hidden-list';
import { unlessStorageRefuses } from '@site/client/storage-errors';
import { apiPaths } from '@shared/api-paths';
import { creatorKey, parseCreatorKey } from '@shared/hiding';
import { paysiteLabel } from '@shared/paysites/index';
import { creatorUrl } from '@shared/urls';
import { useShellSession } from '../shell/useShellSession';

interface Shown {
  creators: { key: string; name: string | null }[];
  tags: string[];
}

/** How many of a guest's hidden creators get their name looked up (one profile request each). */
const NAMED_MAX = 50;

/** The creator's name from its profile, or null (removed creators, network trouble). */
async function profileName(key: string): Promise<string | null> {
  const creator = parseCreatorKey(key);
  if (!creator) return null;
  try {
    return (await api.v1.get<{ name: string }>(apiPaths.creatorProfile(creator.service, creator.id))).name;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

const storage = () => unlessStorageRefuses(() => globalThis.localStorage ?? null, null);

async function load(loggedIn: boolean): Promise<Shown> {
  if (!loggedIn) {
    const list = readHiddenList(storage(), false);
    const creators = await Promise.all(
      list.creators.map(async (key, index) => ({ key, name: index < NAMED_MAX ? await profileName(key) : null })),
    );
    return { creators, tags: list.tags };
  }
  const answer = await api.v1.get<{ creators: { service: string; id: string; name: string | null }[]; tags: { tag: string }[] }>(
    apiPaths.accountHidden(),
    { cache: false },
  );
  return {
    creators: answer.creators.map((c) => ({ key: creatorKey(c.service, c.id), name: c.name })),
    tags: answer.tags.map((t) => t.tag),
  };
}

function creatorLabel(key: string, name: string | null): { href: string; text: string } {
  const creator = parseCreatorKey(key);
  if (!creator) return { href: '/artists', text: key };
  return { href: creatorUrl(creator.service, creator.id), text: `${name ?? creator.id} (${paysiteLabel(creator.service)})` };
}

export default function HiddenItems() {
  const session = useShellSession();
  const [shown, setShown] = useState<Shown | null>(null);
  const [deviceCount, setDeviceCount] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const loggedIn = session?.loggedIn === true;

  // Booleans, not the session object (a new one every render): the list loads once per login state.
  const hydrated = session !== null;
  const refresh = useCallback(() => {
    if (!hydrated) return;
    load(loggedIn)
      .then(setShown)
      .catch((problem: unknown) => setError(describeError(problem)));
    const device = readHiddenList(storage(), false);
    setDeviceCount(loggedIn ? device.creators.length + device.tags.length : 0);
  }, [hydrated, loggedIn]);

  useEffect(() => {
    refresh();
    document.addEventListener(HIDDEN_CHANGE_EVENT, refresh);
    return () => document.removeEventListener(HIDDEN_CHANGE_EVENT, refresh);
  }, [refresh]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const showAgain = (kind: HiddenKind, value: string) => act(() => setHidden(kind, value, false));
  const addDeviceList = () =>
    act(async () => {
      const device = readHiddenList(storage(), false);
      for (const key of device.creators) await setHidden('creator', key, true);
      for (const tag of device.tags) await setHidden('tag', tag, true);
      writeHiddenList(storage(), false, { creators: [], tags: [] });
    });

  if (!shown)
    return error ? (
      <p className="form-error" role="alert">
        {error}
      </p>
    ) : (
      <p>Loading…</p>
    );
  return (
    <div className="hidden-items" aria-busy={busy}>
      <p>
        {loggedIn ? 'Your account keeps this list: every device you sign in on hides these.' : 'This list is kept on this device only.'}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {deviceCount > 0 && (
        <p>
          <button type="button" className="button" disabled={busy} onClick={addDeviceList}>
            Add the {deviceCount} items hidden on this device before you signed in
          </button>
        </p>
      )}
      <h2>Creators</h2>
      {shown.creators.length === 0 ? (
        <p className="empty">No hidden creators.</p>
      ) : (
        <ul className="hidden-items__list" aria-label="Hidden creators">
          {shown.creators.map(({ key, name }) => {
            const label = creatorLabel(key, name);
            return (
              <li key={key}>
                <a href={label.href}>{label.text}</a>
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  onClick={() => showAgain('creator', key)}
                  aria-label={`Show ${label.text} again`}
                >
                  Show again
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <h2>Tags</h2>
      {shown.tags.length === 0 ? (
        <p className="empty">No hidden tags.</p>
      ) : (
        <ul className="hidden-items__list" aria-label="Hidden tags">
          {shown.tags.map((tag) => (
            <li key={tag}>
              <a href={`/posts?${new URLSearchParams({ tag })}`}>{tag}</a>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => showAgain('tag', tag)}
                aria-label={`Show tag ${tag} again`}
              >
                Show again
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
