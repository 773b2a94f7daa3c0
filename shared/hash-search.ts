/** What the hash search results view keeps of an answer (the server trims it for the island), and its empty state. Browser-safe. */
import { postCardData } from './post-card.ts';
import type { HashResultsData } from './shapes/hash-search.ts';

export function trimHashAnswer(answer: HashResultsData | null): HashResultsData | null {
  if (!answer) return null;
  return {
    posts: answer.posts.map(postCardData),
    discord_posts: answer.discord_posts.map(({ id, server, server_name, channel, channel_name }) => ({
      id,
      server,
      server_name,
      channel,
      channel_name,
    })),
  };
}

/** True when the answer lists nothing to show (the empty state). */
export function isEmptyAnswer(answer: HashResultsData | null): boolean {
  return !answer || (answer.posts.length === 0 && answer.discord_posts.length === 0);
}
