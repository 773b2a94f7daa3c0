/**
 * Hash search (SPEC.md section 2) as the island sees it: the API call, where 404 means "no posts",
 * and the Discord hit label. Browser-safe; the answer's shape is the data module's own type.
 */
import type { HashSearchResult } from '../../api/data/files.ts';
import type { DiscordFileHit } from '../../api/data/discord.ts';
import { ApiError, api, type ApiClient } from './api-client.ts';

export type HashSearchAnswer = HashSearchResult;
export type { DiscordFileHit };

/** The search's answer, or null when the archive has nothing for the hash. Other failures throw ApiError. */
export async function fetchHashSearch(hash: string, client: ApiClient = api): Promise<HashSearchAnswer | null> {
  try {
    return await client.v1.get<HashSearchAnswer>(`/search_hash/${encodeURIComponent(hash)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** 'Server X channel Y', with names when the archive knows them and ids otherwise. */
export function discordHitLabel(hit: Pick<DiscordFileHit, 'server' | 'server_name' | 'channel' | 'channel_name'>): string {
  return `Server ${hit.server_name || hit.server} channel ${hit.channel_name || hit.channel}`;
}

/**
 * What the results need of an answer: the post cards' fields and the Discord lines. The server hands
 * this to the island (trimmed, so the page does not carry every post's tags, embed and content twice).
 */
export interface HashResultsData {
  posts: {
    id: string;
    user: string;
    service: string;
    title: string;
    substring?: string;
    published?: string | null;
    file?: { path?: string } | Record<string, never> | null;
    attachments?: { path?: string }[];
  }[];
  discord_posts: Pick<DiscordFileHit, 'id' | 'server' | 'server_name' | 'channel' | 'channel_name'>[];
}

/** One search as shown: the hash searched and what it found (null: nobody has the file). */
export interface HashSearchFound {
  hash: string;
  answer: HashResultsData | null;
}

export function trimHashAnswer(answer: HashResultsData | null): HashResultsData | null {
  if (!answer) return null;
  return {
    posts: answer.posts.map((post) => ({
      id: post.id,
      user: post.user,
      service: post.service,
      title: post.title,
      substring: post.substring,
      published: post.published,
      file: post.file && 'path' in post.file ? { path: post.file.path } : {},
      attachments: (post.attachments ?? []).map((attachment) => ({ path: attachment.path })),
    })),
    discord_posts: answer.discord_posts.map(({ id, server, server_name, channel, channel_name }) => ({ id, server, server_name, channel, channel_name })),
  };
}

/** True when the answer lists nothing to show (the empty state). */
export function isEmptyAnswer(answer: HashResultsData | null): boolean {
  return !answer || (answer.posts.length === 0 && answer.discord_posts.length === 0);
}
