/**
 * What an administrator names for a takedown on the do-not-post page (docs/product.md#takedowns-on-the-site):
 * an archive URL of a creator or a post (any host, any of the creator's tabs), or a service, a creator
 * id and optionally a post id. Browser-safe.
 */
import { isPaysite } from './paysites/index.ts';
import { decodeComponent, parseUrl } from './parse.ts';

export interface TakedownTargetIds {
  service: string;
  creatorId: string;
  /** Null: the whole creator. */
  postId: string | null;
}

/**
 * The creator or post an archive URL names: /{service}/user/{id}[/tab...], /{service}/user/{id}/post/{post}
 * [/revision/{n}], /discord/server/{id}[/...]. Null for anything else (a short /{service}/post/{id}
 * link names no creator).
 */
export function targetFromUrl(text: string): TakedownTargetIds | null {
  const url = parseUrl(text.trim(), 'http://archive.invalid');
  if (!url) return null;
  const parts = url.pathname
    .split('/')
    .filter(Boolean)
    .map((part) => decodeComponent(part));
  if (parts.some((part) => part === undefined)) return null;
  const [service, kind, id, sub, postId] = parts as string[];
  if (service === 'discord' && kind === 'server' && id) return { service, creatorId: id, postId: null };
  if (!isPaysite(service) || kind !== 'user' || !id) return null;
  if (sub === 'post') return postId ? { service, creatorId: id, postId } : null;
  return { service, creatorId: id, postId: null };
}

/** The form's fields: the URL when given, else service + creator id (+ post id). */
export function readTakedownTarget(fields: {
  url?: string;
  service?: string;
  creatorId?: string;
  postId?: string;
}): TakedownTargetIds | { error: string } {
  const url = fields.url?.trim();
  if (url) return targetFromUrl(url) ?? { error: 'That URL is not a creator or post page of the archive.' };
  const service = fields.service?.trim() ?? '';
  const creatorId = fields.creatorId?.trim() ?? '';
  if (!isPaysite(service)) return { error: 'Please choose a service.' };
  if (!creatorId) return { error: 'Please give the creator ID or a URL.' };
  return { service, creatorId, postId: fields.postId?.trim() || null };
}
