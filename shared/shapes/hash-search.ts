/** Hash search answers (GET /v1/search_hash/{hash}) and what the results view keeps of one. Types only. */
import type { DiscordFileHit } from './chat.ts';
import type { PostCardData, PostSummary } from './posts.ts';

/** GET /v1/search_hash/{hash} */
export interface HashSearchResult {
  id: number;
  hash: string;
  mime: string | null;
  ext: string;
  size: number;
  added: string;
  posts: PostSummary[];
  discord_posts: DiscordFileHit[];
}

/**
 * What the results need of an answer: the post cards' fields and the Discord lines. The server hands
 * this to the island (trimmed, so the page does not carry every post's embed and content twice).
 */
export interface HashResultsData {
  posts: PostCardData[];
  discord_posts: Pick<DiscordFileHit, 'id' | 'server' | 'server_name' | 'channel' | 'channel_name'>[];
}

/** One search as shown: the hash searched and what it found (null: nobody has the file). */
export interface HashSearchFound {
  hash: string;
  answer: HashResultsData | null;
}
