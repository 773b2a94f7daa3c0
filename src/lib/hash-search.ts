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

/** True when the answer lists nothing to show (the empty state). */
export function isEmptyAnswer(answer: HashSearchAnswer | null): boolean {
  return !answer || (answer.posts.length === 0 && answer.discord_posts.length === 0);
}
