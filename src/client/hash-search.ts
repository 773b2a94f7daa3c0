/**
 * Hash search (docs/product.md#hash-search-page) as the island sees it: the API call, where 404 means "no posts",
 * and the Discord hit label. Browser only; the answer's shape is in shared/shapes/hash-search.ts.
 */
import type { DiscordFileHit } from '@shared/shapes/chat.ts';
import type { HashSearchResult } from '@shared/shapes/hash-search.ts';
import { ApiError, api, type ApiClient } from './api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';

export type HashSearchAnswer = HashSearchResult;

/** The search's answer, or null when the archive has nothing for the hash. Other failures throw ApiError. */
export async function fetchHashSearch(hash: string, client: ApiClient = api): Promise<HashSearchAnswer | null> {
  try {
    return await client.v1.get<HashSearchAnswer>(apiPaths.searchHash(hash));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** 'Server X channel Y', with names when the archive knows them and ids otherwise. */
export function discordHitLabel(hit: Pick<DiscordFileHit, 'server' | 'server_name' | 'channel' | 'channel_name'>): string {
  return `Server ${hit.server_name || hit.server} channel ${hit.channel_name || hit.channel}`;
}
