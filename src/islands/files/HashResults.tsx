/** What a hash search found: post cards, the Discord messages carrying the file, or the empty state. */
import { discordHitLabel } from '@site/client/hash-search.ts';
import { isEmptyAnswer } from '@shared/hash-search.ts';
import type { HashResultsData } from '@shared/shapes/hash-search.ts';
import { discordServerUrl } from '@shared/urls.ts';
import { PostCardGrid } from '@site/components/archive/PostCard.tsx';

interface Props {
  hash: string;
  answer: HashResultsData | null;
  imageHost: string;
}

export default function HashResults({ hash, answer, imageHost }: Props) {
  if (!answer || isEmptyAnswer(answer)) {
    return (
      <section className="hash-search__results" aria-label="Results">
        <p className="empty">Nobody here but us chickens! There are no posts for your query.</p>
      </section>
    );
  }
  const { posts, discord_posts: hits } = answer;
  return (
    <section className="hash-search__results" aria-labelledby="hash-search-results-title">
      <h2 id="hash-search-results-title" className="hash-search__query">
        Results for <code>{hash}</code>
      </h2>
      {posts.length > 0 && (
        <>
          <h3>Posts</h3>
          <PostCardGrid posts={posts} imageHost={imageHost} />
        </>
      )}
      {hits.length > 0 && (
        <>
          <h3>Discord</h3>
          <ul className="hash-search__discord">
            {hits.map((hit) => (
              <li key={hit.id}>
                <a href={discordServerUrl(hit.server, hit.channel, hit.id)}>{discordHitLabel(hit)}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
