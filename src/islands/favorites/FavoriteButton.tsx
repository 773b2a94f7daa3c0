/**
 * Favourite a creator or a post. Signed in: the button shows the cached state (loaded from the server
 * first when this browser has none), is disabled while that load, the server call and the reload run,
 * and reports a failure inline. Guests favourite on the device (docs/product.md#guest-favourites): the
 * same button, kept in the device list. The stored page's HTML is the same for everyone: until the
 * island hydrates it shows a disabled button.
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
import { useShellSession } from '../shell/useShellSession';

interface Props {
  kind: FavoriteKind;
  service: string;
  creatorId: string;
  postId?: string;
  /** The page the button is on (pages pass it; guests no longer leave it to log in). */
  location?: string;
}

export default function FavoriteButton({ kind, service, creatorId, postId }: Props) {
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
      <button type="button" className="button favorite-button" disabled>
        ☆ Favorite
      </button>
    );
  }

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
