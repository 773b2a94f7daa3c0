/**
 * Favourite a creator or a post. Signed in: the button shows the cached state (loaded from the server
 * first when this browser has none), is disabled while that load, the server call and the reload run,
 * and reports a failure inline. Guests are sent to the login page,
 * which comes back here afterwards (docs/decisions.md).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import {
  $favorites,
  ensureFavorites,
  favoriteKey,
  hasCachedFavorites,
  setFavorite,
  type FavoriteKind,
} from '@site/client/stores/favorites';
import { describeError } from '@site/client/api-client';
import { loginUrl } from '@shared/urls';
import { useShellSession } from '../shell/useShellSession';

interface Props {
  kind: FavoriteKind;
  service: string;
  creatorId: string;
  postId?: string;
  /** The page to come back to after logging in (static HTML cannot read location). */
  location: string;
}

function GuestLink({ location, className }: { location: string; className?: string }) {
  const href = loginUrl(location);
  return (
    <a className={`button favorite-button ${className ?? ''}`.trim()} href={href} title="Log in to keep favourites">
      ☆ Favorite
    </a>
  );
}

export default function FavoriteButton({ kind, service, creatorId, postId, location }: Props) {
  const session = useShellSession();
  const favorites = useStore($favorites);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = { kind, service, creatorId, postId };
  const key = favoriteKey(target);
  const isFavorite = kind === 'creator' ? favorites.creators.has(key) : favorites.posts.has(key);
  const loggedIn = session?.loggedIn === true;

  useEffect(() => {
    // Without a cached list the state shown would be a guess: wait for the server's list.
    if (!loggedIn || hasCachedFavorites()) return;
    let live = true;
    setBusy(true);
    ensureFavorites()
      .catch((failure: unknown) => live && setError(describeError(failure)))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [loggedIn]);

  if (session === null) {
    return (
      <>
        <GuestLink location={location} className="auth-guest" />
        <button type="button" className="button favorite-button auth-user" disabled>
          ☆ Favorite
        </button>
      </>
    );
  }
  if (!session.loggedIn) return <GuestLink location={location} />;

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await setFavorite(target, !isFavorite);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button favorite-button" aria-pressed={isFavorite} disabled={busy} onClick={toggle}>
        {isFavorite ? '★ Unfavorite' : '☆ Favorite'}
      </button>
      {error && (
        <span className="favorite-button__error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
