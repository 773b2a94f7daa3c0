/** A Discord message author as the viewer shows it: name and avatar (from the chat network's host). */
import { discordAvatarUrl, discordDefaultAvatarUrl } from '../urls.ts';

export interface ChatAuthorLike {
  id?: unknown;
  username?: unknown;
  global_name?: unknown;
  avatar?: unknown;
  discriminator?: unknown;
  bot?: unknown;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The display name (global_name, else username), 'Unknown user' when neither is stored. */
export function authorName(author: ChatAuthorLike | null | undefined): string {
  return text(author?.global_name) || text(author?.username) || 'Unknown user';
}

/**
 * The avatar URL: the user's own when the stored hash looks like Discord's, else Discord's default
 * avatar for that user (discriminator mod 5 for legacy names, (id >> 22) mod 6 for new ones).
 */
export function authorAvatarUrl(author: ChatAuthorLike | null | undefined, contentHost: string): string {
  const id = text(author?.id);
  const hash = text(author?.avatar);
  const numericId = /^\d{1,20}$/.test(id);
  if (numericId && /^(?:a_)?[0-9a-f]{32}$/i.test(hash)) return discordAvatarUrl(contentHost, id, hash);
  const discriminator = Number(text(author?.discriminator));
  if (Number.isInteger(discriminator) && discriminator > 0) return discordDefaultAvatarUrl(contentHost, discriminator % 5);
  return discordDefaultAvatarUrl(contentHost, numericId ? Number((BigInt(id) >> 22n) % 6n) : 0);
}
