/**
 * The personal feed's link on /account/favorites/new. The token is secret and stored only as a hash,
 * so the page cannot show an existing link: "Get feed link" (or "Reset feed link", which invalidates
 * the old one) asks POST /api/v1/account/favorites/feed for a new one and shows its RSS and Atom URLs
 * once, each with Copy. "Turn feed off" (DELETE) makes the link answer 404.
 */
import { useState } from 'react';
import { api, describeError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { useHydrated } from '../shell/useHydrated';

interface Props {
  /** When the current link was made; null without one. */
  createdAt: string | null;
}

interface FeedLink {
  rss: string;
  atom: string;
}

export const RESET_QUESTION = 'Reset the feed link? The current link stops working at once; feed readers need the new one.';
export const OFF_QUESTION = 'Turn the feed off? Its link stops working.';

function CopyField({ label, url }: { label: string; url: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const id = `feed-link-${label.toLowerCase()}`;
  function copy() {
    (navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('No clipboard here.'))).then(
      () => setCopied('yes'),
      () => {
        // No clipboard permission (or an insecure origin): the field is selected for a manual copy.
        (document.getElementById(id) as HTMLInputElement | null)?.select();
        setCopied('failed');
      },
    );
  }
  return (
    <div className="news-feed__link">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" className="button" onClick={copy} aria-label={`Copy the ${label} link`}>
        Copy
      </button>
      <span role="status">{copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Press Ctrl+C to copy.' : ''}</span>
    </div>
  );
}

export default function FeedLinkPanel({ createdAt }: Props) {
  const hydrated = useHydrated();
  const [hasLink, setHasLink] = useState(createdAt !== null);
  const [link, setLink] = useState<FeedLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(call: () => Promise<FeedLink | null>, question?: string) {
    if (question !== undefined && !globalThis.confirm(question)) return;
    setBusy(true);
    setError(null);
    try {
      const made = await call();
      setLink(made);
      setHasLink(made !== null);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  const make = () =>
    run(
      async () => {
        const answer = await api.v1.post<FeedLink>(apiPaths.favoritesFeed());
        return { rss: new URL(answer.rss, location.origin).href, atom: new URL(answer.atom, location.origin).href };
      },
      hasLink ? RESET_QUESTION : undefined,
    );
  const turnOff = () =>
    run(async () => {
      await api.v1.delete(apiPaths.favoritesFeed());
      return null;
    }, OFF_QUESTION);

  return (
    <div>
      {link ? (
        <>
          <p>Your feed link is shown only this once. Keep it private: anyone with it can read this list.</p>
          <div className="news-feed__links">
            <CopyField label="RSS" url={link.rss} />
            <CopyField label="Atom" url={link.atom} />
          </div>
        </>
      ) : (
        <p>
          {hasLink
            ? 'You have a feed link. It is not shown again; reset it to get a new one (the old one stops working).'
            : 'Get a private link to follow these posts in a feed reader (RSS or Atom).'}
        </p>
      )}
      <div className="news-feed__actions">
        <button type="button" className="button" disabled={!hydrated || busy} onClick={make}>
          {hasLink ? 'Reset feed link' : 'Get feed link'}
        </button>
        {hasLink && (
          <button type="button" className="button" disabled={!hydrated || busy} onClick={turnOff}>
            Turn feed off
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
