/**
 * The moderators' list of flagged posts: each post with its creator, the latest flag's time, how many
 * accounts flagged it and their reasons, and Dismiss (the post's flags go; the post stays). A flagged
 * post is fetched again on its creator's next import, which clears its flags too (docs/product.md#flags).
 */
import { useState } from 'react';
import { api, describeError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { formatDateTime } from '@shared/format';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { creatorPageUrl, postUrl } from '@shared/urls';
import type { FlaggedPost } from '@shared/shapes/flags';
import { useHydrated } from '../shell/useHydrated';

const keyOf = (post: FlaggedPost) => `${post.service}/${post.user}/${post.id}`;

export default function FlaggedPostList({ initial }: { initial: FlaggedPost[] }) {
  const [posts, setPosts] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The buttons do nothing until the island has hydrated (when the browser is idle): disabled till then.
  const hydrated = useHydrated();

  async function dismiss(post: FlaggedPost) {
    setBusy(keyOf(post));
    setError(null);
    setDone(null);
    try {
      await api.v1.delete(apiPaths.moderatorFlag(post.service, post.user, post.id));
      setPosts((current) => current.filter((p) => keyOf(p) !== keyOf(post)));
      setDone(`Dismissed the flags of ${post.title || post.id}.`);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="flagged-posts__done" role="status">
        {done}
      </p>
      {posts.length === 0 ? (
        <p className="empty">No flagged posts.</p>
      ) : (
        <ul className="link-requests flagged-posts">
          {posts.map((post) => (
            <li key={keyOf(post)} className="link-request" aria-label={`Flagged post ${post.title || post.id}`}>
              <dl>
                <dt>Post</dt>
                <dd>
                  <a href={postUrl(post.service, post.user, post.id)}>{post.title || post.id}</a>
                </dd>
                <dt>Creator</dt>
                <dd>
                  <a href={creatorPageUrl(post.service, post.user)}>{post.creator_name ?? post.user}</a>{' '}
                  <span className="link-request__service">({paysiteLabel(post.service)})</span>
                </dd>
                <dt>Flags</dt>
                <dd>
                  {post.flag_count}, the latest <time dateTime={post.flagged_at}>{formatDateTime(post.flagged_at)}</time>
                </dd>
                <dt>Reasons</dt>
                <dd>{post.reasons.join(', ')}</dd>
              </dl>
              <div className="button-row">
                <button
                  type="button"
                  className="button"
                  disabled={busy !== null || !hydrated}
                  aria-label={`Dismiss the flags of ${post.title || post.id}`}
                  onClick={() => dismiss(post)}
                >
                  Dismiss
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
