/**
 * The post card and the grid of them, written once for pages and islands. Astro renders the grid
 * statically on the listings (recent posts, popular posts, a creator's posts); the hash search and
 * favourites islands render the same component in the browser. The rules (title, thumbnail, count)
 * are shared/post-card.ts's; the image host comes in as a prop because islands cannot read the server
 * configuration.
 */
import { cardAttachmentLabel, cardThumbnailPath, cardTitle } from '@shared/post-card.ts';
import { formatDate } from '@shared/format.ts';
import type { PostCardData } from '@shared/shapes/posts.ts';
import { postUrl, thumbnailUrl } from '@shared/urls.ts';
import { cardTagsAttribute } from '@shared/hiding.ts';

export function PostCard({ post, imageHost }: { post: PostCardData; imageHost: string }) {
  const thumb = cardThumbnailPath(post);
  return (
    <article
      className="post-card"
      data-id={post.id}
      data-service={post.service}
      data-user={post.user}
      data-tags={post.tags?.length ? cardTagsAttribute(post.tags) : undefined}
    >
      <a href={postUrl(post.service, post.user, post.id)}>
        <header className="post-card__header">{cardTitle(post.title, post.substring)}</header>
        {thumb && (
          <div className="post-card__image-container">
            <img className="post-card__image" src={thumbnailUrl(imageHost, thumb)} alt="" loading="lazy" decoding="async" />
          </div>
        )}
        <footer className="post-card__footer">
          {post.published && <time dateTime={post.published}>{formatDate(post.published)}</time>}
          <span>{cardAttachmentLabel(post)}</span>
        </footer>
      </a>
    </article>
  );
}

/** The cards of a listing, in their grid (src/styles/cards.css). */
export function PostCardGrid({ posts, imageHost }: { posts: readonly PostCardData[]; imageHost: string }) {
  return (
    <div className="card-grid">
      {posts.map((post) => (
        <PostCard key={`${post.service}/${post.user}/${post.id}`} post={post} imageHost={imageHost} />
      ))}
    </div>
  );
}
