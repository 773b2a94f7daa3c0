/** A Discord message author as the viewer shows it: name and avatar (from the chat network's host). */
import { discordAvatarUrl } from '../urls.ts';

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

/** How the viewer draws an author's avatar. */
export interface ChatAvatar {
  /** The user's own avatar on the content host; undefined when the user has none (nothing to load). */
  src?: string;
  /** The first character of the display name: the avatar without an image, or when the image fails. */
  initial: string;
  /** 0-5: which of Discord's default avatar colours (discriminator mod 5, else (id >> 22) mod 6). */
  tone: number;
}

/**
 * The avatar: the user's own image when the stored hash looks like Discord's. Users without one get a
 * coloured circle with their initial drawn by the page (no request to the chat network, so it works
 * offline); the same circle shows under a custom avatar that fails to load.
 */
export function authorAvatar(author: ChatAuthorLike | null | undefined, contentHost: string): ChatAvatar {
  const id = text(author?.id);
  const hash = text(author?.avatar);
  const numericId = /^\d{1,20}$/.test(id);
  const initial = (Array.from(authorName(author))[0] ?? '?').toLocaleUpperCase('en');
  const discriminator = Number(text(author?.discriminator));
  const tone = Number.isInteger(discriminator) && discriminator > 0 ? discriminator % 5 : numericId ? Number((BigInt(id) >> 22n) % 6n) : 0;
  const src = numericId && /^(?:a_)?[0-9a-f]{32}$/i.test(hash) ? discordAvatarUrl(contentHost, id, hash) : undefined;
  return { ...(src ? { src } : {}), initial, tone };
}
